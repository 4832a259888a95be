import CGLib
import GLibSupport
import TocsinCore

/// Receives the agent's `AuthorizationChanged(app_id, state)` signal, which `TocsinClient` does
/// not offer, on the thread-default main context of the thread that creates it.
final class AuthorizationSignalSubscription {
    private let connection: OpaquePointer
    private let subscription: guint

    /// Calls `handler` with the application id and its new state for every change, from the
    /// agent whoever owns its name (so across restarts); `nil` when there is no session bus.
    init?(_ handler: @escaping (String, AuthorizationState) -> Void) {
        guard let connection = SessionBus.sharedConnection() else { return nil }
        self.connection = connection
        let box = Unmanaged.passRetained(HandlerBox(handler)).toOpaque()
        subscription = g_dbus_connection_signal_subscribe(
            connection, AlarmsInterface.busName, AlarmsInterface.name, AlarmsInterface.authorizationChanged.signal.rawValue,
            AlarmsInterface.objectPath, nil, G_DBUS_SIGNAL_FLAGS_NONE,
            { _, _, _, _, _, parameters, userData in
                let handler = Unmanaged<HandlerBox>.fromOpaque(userData!).takeUnretainedValue().handler
                // A signal this client cannot read (from a newer agent) is left out.
                guard let parameters,
                      let decoded = try? AlarmsInterface.authorizationChanged.arguments.decode(Variant.arguments(ofTuple: parameters)) else { return }
                let (app, state) = decoded
                handler(app, state)
            },
            box,
            { userData in Unmanaged<HandlerBox>.fromOpaque(userData!).release() })
    }

    deinit {
        g_dbus_connection_signal_unsubscribe(connection, subscription)
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    /// Carries the handler through GDBus's `gpointer`.
    private final class HandlerBox {
        let handler: (String, AuthorizationState) -> Void
        init(_ handler: @escaping (String, AuthorizationState) -> Void) { self.handler = handler }
    }
}
