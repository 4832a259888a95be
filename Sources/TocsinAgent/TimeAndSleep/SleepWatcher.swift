import CGLib
import GLibSupport

/// Tells the agent when the machine goes to sleep and when it wakes, from logind's
/// `PrepareForSleep` signal on the system bus.
///
/// The wall-clock timer already fires after a resume for whatever came due during sleep; this
/// makes the agent act at the moment of resume instead of whenever the kernel gets round to the
/// timer, and lets it check again what may have changed meanwhile (the time zone of a laptop that
/// travelled). Without a system bus or without logind it logs one line and does nothing else.
/// No sleep inhibitor is taken. Lives on the thread and main context that are thread-default when
/// it is made.
final class SleepWatcher {
    private let log: AgentLog
    private let onSuspend: () -> Void
    private let onResume: () -> Void
    private var connection: OpaquePointer?
    /// A connection of our own (a test's bus) is closed on release; the shared system bus is not.
    private var connectionIsPrivate = false
    private var subscription: guint = 0
    private var nameWatch: guint = 0
    /// Whether logind's presence has been established, so its absence is logged once at most.
    private var logindSeen = false

    private static let logindName = "org.freedesktop.login1"

    /// Starts listening. `onSuspend` runs just before the machine sleeps (logind's `true`),
    /// `onResume` just after it wakes (`false`). `systemBusAddress` is `nil` for the system bus;
    /// tests pass a private bus's address.
    init(systemBusAddress: String? = nil, log: AgentLog, onSuspend: @escaping () -> Void = {}, onResume: @escaping () -> Void) {
        self.log = log
        self.onSuspend = onSuspend
        self.onResume = onResume
        do {
            connection = try GLibError.check { error in
                if let systemBusAddress {
                    let flags = GDBusConnectionFlags(G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
                    return g_dbus_connection_new_for_address_sync(systemBusAddress, flags, nil, nil, error)
                }
                return g_bus_get_sync(G_BUS_TYPE_SYSTEM, nil, error)
            }
        } catch {
            log.info("No system bus (\(error.message)); after a resume from sleep, alarms that came due ring when the wall-clock timer fires.")
            return
        }
        guard let connection else { return }
        connectionIsPrivate = systemBusAddress != nil
        // The shared system bus connection would otherwise end the agent if the bus went away.
        g_dbus_connection_set_exit_on_close(connection, 0)
        let userData = Unmanaged.passUnretained(self).toOpaque()
        subscription = g_dbus_connection_signal_subscribe(
            connection, Self.logindName, "org.freedesktop.login1.Manager", "PrepareForSleep",
            "/org/freedesktop/login1", nil, G_DBUS_SIGNAL_FLAGS_NONE,
            { _, _, _, _, _, parameters, userData in
                Unmanaged<SleepWatcher>.fromOpaque(userData!).takeUnretainedValue().prepareForSleep(parameters!)
            },
            userData, nil)
        // Only to say in the log whether anyone will send the signal; the subscription stands either way.
        nameWatch = g_bus_watch_name_on_connection(
            connection, Self.logindName, G_BUS_NAME_WATCHER_FLAGS_NONE,
            { _, _, _, userData in
                Unmanaged<SleepWatcher>.fromOpaque(userData!).takeUnretainedValue().logindPresent(true)
            },
            { _, _, userData in
                Unmanaged<SleepWatcher>.fromOpaque(userData!).takeUnretainedValue().logindPresent(false)
            },
            userData, nil)
    }

    deinit {
        guard let connection else { return }
        g_bus_unwatch_name(nameWatch)
        g_dbus_connection_signal_unsubscribe(connection, subscription)
        if connectionIsPrivate { g_dbus_connection_close(connection, nil, nil, nil) }
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    /// logind's `PrepareForSleep(b start)`: `true` before sleeping, `false` after waking.
    private func prepareForSleep(_ parameters: OpaquePointer) {
        guard String(cString: g_variant_get_type_string(parameters)) == "(b)" else { return }
        if Variant.bool(in: parameters, at: 0) {
            log.info("The machine is going to sleep.")
            onSuspend()
        } else {
            log.info("The machine woke from sleep; checking every alarm.")
            onResume()
        }
    }

    /// Whether logind owns its name; says so in the log once if it does not.
    private func logindPresent(_ present: Bool) {
        switch (present, logindSeen) {
        case (true, false):
            logindSeen = true
        case (false, false):
            // Logged once: without logind there is nothing more to say, and it rarely comes later.
            logindSeen = true
            log.info("logind (\(Self.logindName)) is not on the system bus; after a resume from sleep, alarms that came due ring when the wall-clock timer fires.")
        default:
            break
        }
    }
}
