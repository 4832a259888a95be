import Foundation

extension HeadlessSession {
    /// Locks the session's screen with `locker`, for real, and returns once the locker says it
    /// is locked and has drawn its screen: Plasma's greeter its wallpaper, xscreensaver a black
    /// screen, i3lock and swaylock their flat colour over everything, gtklock its clock. The
    /// locker's processes end with the session (or with `ScreenLock.unlock()`).
    ///
    /// GNOME Shell sessions lock with GNOME's own lock instead, `lockScreen(timeout:)`.
    /// `.swaylock` needs a session whose notification server is `.mako` (it locks that sway),
    /// `.gtklock` one with `.mako` in trixie's sway; the others lock the X display. xscreensaver
    /// and swaylock run as the session's desktop user (xscreensaver refuses to lock as root, sway
    /// runs as that user), Plasma's locker, i3lock and gtklock as the session's own user.
    /// - Throws: `componentFailed` naming the locker, with its stderr, when it does not start or
    ///   does not lock in time (30 s; a loaded machine takes several to start Plasma's greeter).
    public func lockScreen(with locker: Locker) throws -> ScreenLock {
        try ensureRunning()
        switch locker {
        case .plasma: return try PlasmaScreenLocker.lock(self)
        case .xscreensaver: return try XScreenSaverLocker.lock(self)
        case .i3lock: return try FlatColourLocker.lockWithI3lock(self)
        case .swaylock: return try FlatColourLocker.lockWithSwaylock(self)
        case .gtklock: return try GtklockLocker.lock(self)
        }
    }

    /// Starts Plasma 5.27's shell beside the session's notification server, as the session's own
    /// user (the agent's, whose media-player commands the agent obeys), for the media keys of a
    /// Plasma session: its media controller registers them with kglobalaccel while a media player
    /// is on the bus, and Plasma's locker passes them on while locked. Returns once its system
    /// tray is up and it has settled; the shell ends with the session.
    public func startPlasmaShellForMediaKeys() throws {
        try ensureRunning()
        _ = try PlasmaShell.startBesideNotificationServer(launcher: launcher, environment: environment)
    }

    /// Whether Plasma's media controller has the media keys registered with kglobalaccel now (its
    /// `mediacontrol` component active), as Plasma's locker sees it when the screen locks.
    public func plasmaMediaKeysAreRegistered() throws -> Bool {
        try ensureRunning()
        return try PlasmaShell.mediaKeysAreRegistered(launcher: launcher, environment: environment)
    }
}

/// What the lockers' start-ups share: waiting for a locker that is either ready or gone.
enum LockerStartup {
    /// Waits up to `timeout` for `ready`, polling every 100 ms, and throws naming `locker` (with
    /// `process`'s stderr) when `process` exits first or time runs out.
    static func wait(for what: String, locker: String, process: SessionProcess, timeout: Duration = .seconds(30),
                     until ready: () throws -> Bool) throws {
        var lastError: Error?
        let done = Polling.until(timeout: timeout, interval: .milliseconds(100)) {
            guard process.isRunning else { return true }
            do { return try ready() } catch { lastError = error; return false }
        }
        guard done, process.isRunning else {
            let reason = process.isRunning ? "\(what) did not happen within \(timeout)" : "exited with status \(process.terminationStatus ?? -1) before \(what)"
            throw HeadlessSessionError.componentFailed(component: locker, reason: reason + (lastError.map { "; last check: \($0)" } ?? ""),
                                                       stderrTail: process.standardErrorTail())
        }
    }
}
