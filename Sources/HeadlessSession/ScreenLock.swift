import Foundation

/// A session's screen locked by a real locker (`HeadlessSession.lockScreen(with:)`): whether it
/// is still locked, as the locker itself says, and the way to end it.
///
/// `@unchecked Sendable`: everything is immutable after `init`; the processes guard their own state.
public final class ScreenLock: @unchecked Sendable {
    /// The locker that locked the screen.
    public let locker: Locker
    /// How long from starting the locker to the screen locked and drawn.
    public let lockingDuration: Duration
    /// The locker's processes, started by the session (its daemon, or the locker itself).
    public let processes: [SessionProcess]
    private let probe: () throws -> Bool

    init(locker: Locker, lockingDuration: Duration, processes: [SessionProcess], probe: @escaping () throws -> Bool) {
        self.locker = locker
        self.lockingDuration = lockingDuration
        self.processes = processes
        self.probe = probe
    }

    /// Whether the screen is locked now, as the locker says: Plasma's `GetActive`,
    /// `xscreensaver-command -time` saying "locked", i3lock or swaylock still running (neither
    /// has anything else to ask, and neither exits while locked unless ended); gtklock running,
    /// locked and not unlocked by its own account, and sway refusing a second lock.
    public var isLocked: Bool {
        get throws { try probe() }
    }

    /// Ends the locker's processes, which ends the lock: none of these lockers can be unlocked
    /// headless otherwise (no password is ever typed here). The session's `stop()` does the same.
    public func unlock() {
        for process in processes.reversed() { process.terminate(grace: .seconds(2)) }
    }
}
