import CGLib
import GLibSupport

/// The process's shared session-bus connection — the one every `TocsinClient` uses — for the few
/// things `TocsinClient` does not offer (the `AuthorizationChanged` signal, watching the agent's
/// name with a way to stop).
enum SessionBus {
    /// The shared connection (+1: the caller unrefs it), or `nil` when there is no session bus.
    static func sharedConnection() -> OpaquePointer? {
        // No bus: the callers report the agent as out of reach.
        guard let connection = try? GLibError.check({ g_bus_get_sync(G_BUS_TYPE_SESSION, nil, $0) }) else { return nil }
        // GLib sets the shared connection to end the process with SIGTERM when the bus goes away.
        // An alarm library has no business ending its application (its calls fail with
        // `agentUnavailable` instead), and a process that talked to a short-lived private bus —
        // a test's — must outlive it.
        g_dbus_connection_set_exit_on_close(connection, 0)
        return connection
    }

    /// Makes sure the shared connection (which a `TocsinClient` has just opened) does not end the
    /// process when the bus closes; see `sharedConnection()`.
    static func keepProcessAliveWhenTheBusCloses() {
        if let connection = sharedConnection() {
            g_object_unref(UnsafeMutableRawPointer(connection))
        }
    }
}
