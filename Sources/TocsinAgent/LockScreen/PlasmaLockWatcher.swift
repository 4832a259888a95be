import CGLib
import GLibSupport

/// Tells the agent when Plasma's lock screen comes up and goes, from its locker on the session
/// bus: `org.kde.screensaver` (ksmserver's kscreenlocker), its `org.freedesktop.ScreenSaver`
/// interface's `ActiveChanged` signal, and `GetActive` when the locker appears.
///
/// Plasma 5.27's greeter shows no media player that comes after the last one left the bus, so
/// while it is up Tocsin's player stays between rings (`AgentInput.lockScreenKeepingPlayerChanged`).
/// Only Plasma's locker is followed: elsewhere a player waiting on the bus would be picked by
/// media keys and `playerctl` instead of the user's music, for no gain.
///
/// Nothing waits: the signal is subscribed to, `GetActive` is asked asynchronously (5 s), and
/// an answer that comes after the locker went is dropped. Lives on the main context.
final class PlasmaLockWatcher {
    private let log: AgentLog
    private let onChange: (Bool) -> Void
    private var connection: OpaquePointer?
    private var subscription: guint = 0
    private var nameWatch: guint = 0
    /// The locker's unique name while it is on the bus: a `GetActive` answer counts only if it
    /// comes from the locker still there.
    private var lockerOwner: String?
    /// What was last told, so that each change is told once.
    private var isUp = false

    static let lockerName = "org.kde.screensaver"
    private static let interface = "org.freedesktop.ScreenSaver"
    private static let path = "/ScreenSaver"

    /// Follows Plasma's locker on `connection` (the agent's session bus), calling `onChange` with
    /// `true` when its lock screen comes up and `false` when it goes or the locker leaves.
    init(log: AgentLog, connection: OpaquePointer?, onChange: @escaping (Bool) -> Void) {
        self.log = log
        self.onChange = onChange
        guard let connection else { return }
        self.connection = connection
        g_object_ref(UnsafeMutableRawPointer(connection))
        let userData = Unmanaged.passUnretained(self).toOpaque()
        // kscreenlocker says it on /ScreenSaver and /org/freedesktop/ScreenSaver: any path will do.
        subscription = g_dbus_connection_signal_subscribe(
            connection, Self.lockerName, Self.interface, "ActiveChanged", nil, nil, G_DBUS_SIGNAL_FLAGS_NONE,
            { _, _, _, _, _, parameters, userData in
                Unmanaged<PlasmaLockWatcher>.fromOpaque(userData!).takeUnretainedValue().activeChanged(parameters!)
            },
            userData, nil)
        nameWatch = g_bus_watch_name_on_connection(
            connection, Self.lockerName, G_BUS_NAME_WATCHER_FLAGS_NONE,
            { _, _, owner, userData in
                Unmanaged<PlasmaLockWatcher>.fromOpaque(userData!).takeUnretainedValue().lockerAppeared(owner.map { String(cString: $0) })
            },
            { _, _, userData in
                Unmanaged<PlasmaLockWatcher>.fromOpaque(userData!).takeUnretainedValue().lockerVanished()
            },
            userData, nil)
    }

    deinit {
        guard let connection else { return }
        g_bus_unwatch_name(nameWatch)
        g_dbus_connection_signal_unsubscribe(connection, subscription)
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    /// `ActiveChanged(b)`: the lock screen came up or went.
    private func activeChanged(_ parameters: OpaquePointer) {
        if let active = Self.active(in: parameters) { tell(active) }
    }

    /// The `b` of `ActiveChanged`'s arguments or `GetActive`'s reply; `nil` for another type.
    private static func active(in tuple: OpaquePointer) -> Bool? {
        String(cString: g_variant_get_type_string(tuple)) == "(b)" ? Variant.bool(in: tuple, at: 0) : nil
    }

    /// The locker is on the bus: whether its screen is locked already (the agent started under
    /// a locked screen, or the locker restarted) is asked, not waited for.
    private func lockerAppeared(_ owner: String?) {
        lockerOwner = owner
        guard let connection, let owner else { return }
        AsyncBusCall.start(connection, destination: owner, path: Self.path, interface: Self.interface, method: "GetActive",
                           arguments: nil, flags: G_DBUS_CALL_FLAGS_NO_AUTO_START, timeoutMilliseconds: 5000) { [weak self] reply, error in
            guard let self, lockerOwner == owner else { return }
            guard let active = reply.flatMap(Self.active) else {
                log.info("Plasma's locker did not say whether the screen is locked (\(error?.message ?? "an answer of another type")); its next change will tell.")
                return
            }
            tell(active)
        }
    }

    /// The locker left the bus: no lock screen of its is up any more.
    private func lockerVanished() {
        lockerOwner = nil
        tell(false)
    }

    private func tell(_ up: Bool) {
        guard up != isUp else { return }
        isUp = up
        onChange(up)
    }
}
