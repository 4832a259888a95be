import CGLib
import GLibSupport
import TocsinEdge

/// Tells the agent when Plasma's lock screen comes up and goes, from its locker on the session
/// bus: `org.kde.screensaver` (ksmserver's kscreenlocker), its `org.freedesktop.ScreenSaver`
/// interface's `ActiveChanged` signal, and `GetActive` when the locker appears.
///
/// Plasma 5.27's greeter shows no media player that comes after the last one left the bus, so
/// while it is up Tocsin's player stays between rings (`AgentInput.lockScreenKeepingPlayerChanged`).
/// Only Plasma's locker is followed: elsewhere a player waiting on the bus would be picked by
/// media keys and `playerctl` instead of the user's music, for no gain.
///
/// The player comes already when the locker says `AboutToLock` (`org.kde.screensaver`), before
/// the lock screen is up: at `locked`, kscreenlocker asks kglobalaccel once which media keys to
/// pass on while locked, and Plasma's media controller has them registered only while a media
/// player is on the bus (it is loaded and unloaded with the players; tried with Plasma 5.27.5: a
/// player that came after the lock never got the keys, one there before it did). Here the
/// greeter took 1.7 s from `AboutToLock` to `ActiveChanged`; the controller registers the keys
/// 0.15 s after a player comes. A lock that never comes after `AboutToLock` lets go after
/// `lockDeadline` (its `GetActive` asked then).
///
/// Nothing waits: the signals are subscribed to, `GetActive` is asked asynchronously (5 s), and
/// an answer that comes after the locker went, or after it said something newer, is dropped.
/// Lives on the thread-default context it was made on (the agent's main context).
final class PlasmaLockWatcher {
    private let log: AgentLog
    private let onChange: (Bool) -> Void
    private var connection: OpaquePointer?
    private var subscriptions: [BusSignalSubscription] = []
    private var nameWatch: guint = 0
    /// The context callbacks come on, where the lock's deadline is set too.
    private let context: OpaquePointer?
    /// How long a lock announced by `AboutToLock` may take to come up before the player lets go.
    private let lockDeadline: Double
    /// The check of a lock announced and not come yet.
    private var pendingLockCheck: TimeoutHandle?
    /// Counts what the locker said (a change, `AboutToLock`, coming or leaving): a `GetActive`
    /// asked before any of it answers for a state gone.
    private var lockerChanges = 0
    /// The locker's unique name while it is on the bus: a `GetActive` answer counts only if it
    /// comes from the locker still there.
    private var lockerOwner: String?
    /// What was last told, so that each change is told once.
    private var isUp = false

    static let lockerName = "org.kde.screensaver"
    private static let interface = "org.freedesktop.ScreenSaver"
    /// kscreenlocker's own interface, where `AboutToLock` is said.
    private static let kdeInterface = "org.kde.screensaver"
    private static let path = "/ScreenSaver"

    /// Follows Plasma's locker on `connection` (the agent's session bus), calling `onChange` with
    /// `true` when its lock screen is about to come up and `false` when it goes, the locker
    /// leaves, or a lock it announced is not up `lockDeadline` seconds later. Signals whose body
    /// is not what kscreenlocker sends are said once through `faults` and ignored.
    init(log: AgentLog, faults: NeighbourFaults, connection: OpaquePointer?, lockDeadline: Double = 30, onChange: @escaping (Bool) -> Void) {
        self.log = log
        self.onChange = onChange
        self.lockDeadline = lockDeadline
        context = g_main_context_ref_thread_default()
        guard let connection else { return }
        self.connection = connection
        g_object_ref(UnsafeMutableRawPointer(connection))
        let wrongBody = { (signal: String, expected: String) in
            { (sender: String, type: String) in
                faults.recordWrongSignal(from: "Plasma's locker (\(sender))", signal: signal, type: type, expected: expected)
            }
        }
        // kscreenlocker says it on /ScreenSaver and /org/freedesktop/ScreenSaver: any path will do.
        subscriptions.append(BusSignalSubscription(
            on: connection, sender: Self.lockerName, interface: Self.interface, member: "ActiveChanged", path: nil, bodyType: "(b)",
            received: { [weak self] _, _, body in self?.activeChanged(Variant.bool(in: body, at: 0)) },
            wrongBody: wrongBody("ActiveChanged", "(b)")))
        subscriptions.append(BusSignalSubscription(
            on: connection, sender: Self.lockerName, interface: Self.kdeInterface, member: "AboutToLock", path: nil, bodyType: "()",
            received: { [weak self] _, _, _ in self?.aboutToLock() },
            wrongBody: wrongBody("AboutToLock", "()")))
        let userData = Unmanaged.passUnretained(self).toOpaque()
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
        pendingLockCheck?.cancel()
        if let connection {
            g_bus_unwatch_name(nameWatch)
            subscriptions.removeAll()
            g_object_unref(UnsafeMutableRawPointer(connection))
        }
        if let context { g_main_context_unref(context) }
    }

    /// `ActiveChanged(b)`: the lock screen came up or went.
    private func activeChanged(_ active: Bool) {
        settleAnnouncedLock()
        tell(active)
    }

    /// `AboutToLock`: the locker starts its greeter; the lock screen is up in a second or two.
    private func aboutToLock() {
        lockerChanges += 1
        guard !isUp else { return }
        log.info("Plasma's screen is about to lock: Tocsin's media player comes now, so that the locker passes the media keys on to it.")
        tell(true)
        pendingLockCheck = MainLoop.after(seconds: lockDeadline, on: context) { [weak self] in self?.checkAnnouncedLock() }
    }

    /// The lock announced `lockDeadline` ago has not said it is up: asks whether it is.
    private func checkAnnouncedLock() {
        pendingLockCheck = nil
        guard let owner = lockerOwner else { return }
        let changes = lockerChanges
        askActive(owner) { [self] active, error in
            guard lockerChanges == changes, isUp, active != true else { return }
            log.info("Plasma's locker said it would lock the screen \(Int(lockDeadline)) s ago and has not (\(error.map { "\($0)" } ?? "GetActive says false")): Tocsin's media player shows only while an alarm rings.")
            tell(false)
        }
    }

    /// A change from the locker settles whether the lock it announced came.
    private func settleAnnouncedLock() {
        lockerChanges += 1
        pendingLockCheck?.cancel()
        pendingLockCheck = nil
    }

    /// The locker is on the bus: whether its screen is locked already (the agent started under
    /// a locked screen, or the locker restarted) is asked, not waited for.
    private func lockerAppeared(_ owner: String?) {
        lockerOwner = owner
        lockerChanges += 1
        guard let owner else { return }
        let changes = lockerChanges
        askActive(owner) { [self] active, error in
            // The locker said something newer before answering (the screen locked as the agent
            // started): that is what holds.
            guard lockerChanges == changes else { return }
            guard let active else {
                log.info("Plasma's locker did not say whether the screen is locked (\(error.map { "\($0)" } ?? "no answer")); its next change will tell.")
                return
            }
            tell(active)
        }
    }

    /// Asks the locker `owner` whether its screen is locked (`GetActive`, 5 s), not waiting:
    /// `answer` gets its `b` (`nil` for no answer, or one of another type) and the error, only
    /// while `owner` is still the locker and this watcher is alive.
    private func askActive(_ owner: String, _ answer: @escaping (_ active: Bool?, _ failure: BusCallFailure?) -> Void) {
        guard let connection else { return }
        BusCall.start(connection, destination: owner, path: Self.path, interface: Self.interface, method: "GetActive",
                      arguments: nil, replyType: "(b)", flags: G_DBUS_CALL_FLAGS_NO_AUTO_START, timeoutMilliseconds: 5000) { [weak self] result in
            guard let self, lockerOwner == owner else { return }
            switch result {
            case .success(let reply): answer(Variant.bool(in: reply, at: 0), nil)
            case .failure(let failure): answer(nil, failure)
            }
        }
    }

    /// The locker left the bus: no lock screen of its is up any more.
    private func lockerVanished() {
        lockerOwner = nil
        settleAnnouncedLock()
        tell(false)
    }

    private func tell(_ up: Bool) {
        guard up != isUp else { return }
        isUp = up
        onChange(up)
    }
}
