import CGLib
import GLibSupport
import Synchronization

/// The process's shared session-bus connection — the one every `TocsinClient` uses, and the few
/// things `TocsinClient` does not offer (the `AuthorizationChanged` signal, watching the agent's
/// name with a way to stop).
///
/// It is GLib's shared connection (`g_bus_get_sync`) while that one is open. GLib keeps handing
/// out its shared connection after the bus went away, closed, for as long as anything in the
/// process holds a reference to it: every call on it then fails with "The connection is closed",
/// however long after the bus came back (a session bus restarted; seen in the test suite, whose
/// sessions each run a bus of their own, when an object of an earlier test still held the
/// connection of a bus that had gone). So a closed shared connection is replaced by a new
/// connection to the session bus, shared the same way until it closes in turn.
enum SessionBus {
    /// The replacement of GLib's shared connection, once that one was found closed.
    private static let replacement = Mutex<UnsafeSendableConnection?>(nil)

    /// The shared connection (+1: the caller unrefs it), or `nil` when there is no session bus;
    /// `error` says why.
    static func sharedConnection(error: UnsafeMutablePointer<UnsafeMutablePointer<GError>?>? = nil) -> OpaquePointer? {
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, error) else { return nil }
        guard g_dbus_connection_is_closed(connection) != 0 else {
            keepProcessAlive(connection)
            return connection
        }
        g_object_unref(UnsafeMutableRawPointer(connection))
        let shared = replacement.withLock { replacement -> UnsafeSendableConnection? in
            if let current = replacement?.connection, g_dbus_connection_is_closed(current) == 0 {
                g_object_ref(UnsafeMutableRawPointer(current))
                return UnsafeSendableConnection(connection: current)
            }
            if let closed = replacement?.connection { g_object_unref(UnsafeMutableRawPointer(closed)) }
            replacement = nil
            guard let address = g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, nil, error) else { return nil }
            defer { g_free(address) }
            let flags = GDBusConnectionFlags(G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
                                             | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
            guard let fresh = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, error) else { return nil }
            replacement = UnsafeSendableConnection(connection: fresh)
            g_object_ref(UnsafeMutableRawPointer(fresh))
            return UnsafeSendableConnection(connection: fresh)
        }
        return shared?.connection
    }

    /// GLib sets its shared connection to end the process with SIGTERM when the bus goes away.
    /// An alarm library has no business ending its application (its calls fail with
    /// `agentUnavailable` instead), and a process that talked to a short-lived private bus — a
    /// test's — must outlive it.
    private static func keepProcessAlive(_ connection: OpaquePointer) {
        g_dbus_connection_set_exit_on_close(connection, 0)
    }

    /// A connection pointer kept across threads: GDBus connections are thread-safe.
    private struct UnsafeSendableConnection: @unchecked Sendable {
        let connection: OpaquePointer
    }
}
