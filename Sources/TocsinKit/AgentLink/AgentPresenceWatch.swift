import CGLib
import TocsinCore

/// Tells when the agent appears on the session bus and when it goes away, on the thread-default
/// main context of the thread that creates it, until it is released.
///
/// `TocsinClient.watchAgentPresence` cannot be stopped (it drops the watch id), and a watch that
/// outlives its user keeps the bus connection and the main context alive; this one ends with its
/// owner. It asks the bus to start the agent (D-Bus activation), as any call to it would.
final class AgentPresenceWatch {
    private let connection: OpaquePointer
    private let watch: guint

    /// Calls `handler` with `true` when the agent is (or comes) on the bus, `false` when it is not
    /// or leaves — once at the start, then at every change. `nil` when there is no session bus.
    init?(_ handler: @escaping (Bool) -> Void) {
        guard let connection = SessionBus.sharedConnection() else { return nil }
        self.connection = connection
        watch = g_bus_watch_name_on_connection(
            connection, AlarmsInterface.busName, G_BUS_NAME_WATCHER_FLAGS_AUTO_START,
            { _, _, _, userData in Unmanaged<HandlerBox>.fromOpaque(userData!).takeUnretainedValue().handler(true) },
            { _, _, userData in Unmanaged<HandlerBox>.fromOpaque(userData!).takeUnretainedValue().handler(false) },
            Unmanaged.passRetained(HandlerBox(handler)).toOpaque(),
            { userData in Unmanaged<HandlerBox>.fromOpaque(userData!).release() })
    }

    deinit {
        g_bus_unwatch_name(watch)
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    /// Carries the handler through GDBus's `gpointer`.
    private final class HandlerBox {
        let handler: (Bool) -> Void
        init(_ handler: @escaping (Bool) -> Void) { self.handler = handler }
    }
}
