import Foundation

/// xscreensaver 6.06 as the session runs it: as the desktop user (`DesktopUser`; xscreensaver
/// refuses to lock as root), allowed onto the X display with `xhost`, in its `blank` mode with
/// nothing of its own timing (no fade, no DPMS, no idle blanking within the hour), locked with
/// `xscreensaver-command -lock`. Anyone on the display, the agent included, reaches it with
/// `xscreensaver-command`, which speaks through properties of the X root window.
enum XScreenSaverLocker {
    /// `~/.xscreensaver`: a black screen when locked, nothing that changes by itself while a test
    /// looks, the password dialog up for 27 s when woken (xscreensaver's own default is 30 s).
    /// 27, not 30: a multiple of the agent's 10 s re-wake made whether the screen stayed lit a
    /// race between the dialog's timeout and the next wake, decided a different way each run.
    static let configuration = """
        mode: blank
        lock: True
        lockTimeout: 0:00:00
        timeout: 1:00:00
        fade: False
        unfade: False
        dpmsEnabled: False
        splash: False
        passwdTimeout: 0:00:27

        """

    static func lock(_ session: HeadlessSession) throws -> ScreenLock {
        let started = ContinuousClock.now
        let launcher = session.launcher
        let layout = launcher.layout
        let user = try DesktopUser.resolve(launcher: launcher, environment: session.environment)
        let home = layout.shared.appendingPathComponent("xscreensaver-home")
        let runtime = layout.shared.appendingPathComponent("xscreensaver-runtime")
        do {
            // The desktop user must pass through the session's directory to its home in it.
            let reachable: [FileAttributeKey: Any] = [.posixPermissions: 0o711]
            try FileManager.default.createDirectory(at: layout.shared, withIntermediateDirectories: true, attributes: reachable)
            for directory in [layout.root, layout.shared] { try FileManager.default.setAttributes(reachable, ofItemAtPath: directory.path) }
            try user.makePrivateDirectories([home, runtime])
            let file = home.appendingPathComponent(".xscreensaver")
            try configuration.write(to: file, atomically: true, encoding: .utf8)
            try user.own(file)
        } catch {
            throw HeadlessSessionError.componentFailed(component: "xscreensaver", reason: "cannot prepare its home: \(error)", stderrTail: "")
        }
        if user.isOtherUser {
            try launcher.runChecked("xhost", ["+SI:localuser:\(user.name)"], environment: session.environment)
        }
        let daemon = try user.launch(name: "xscreensaver", "xscreensaver", ["-no-splash"], launcher: launcher, environment: session.environment,
                                     with: user.environment(home: home, runtime: runtime, session: session.environment).merging(["DISPLAY": session.display]) { $1 })
        // xscreensaver-command answers once the daemon has claimed the screen.
        try LockerStartup.wait(for: "answering xscreensaver-command", locker: "xscreensaver", process: daemon) {
            try command("-time", launcher: launcher, environment: session.environment).contains("XScreenSaver")
        }
        try launcher.runChecked("xscreensaver-command", ["-lock"], environment: session.environment)
        let locked = { try isLocked(launcher: launcher, environment: session.environment) }
        try LockerStartup.wait(for: "saying the screen is locked", locker: "xscreensaver", process: daemon, until: locked)
        try LockerStartup.wait(for: "blanking the screen", locker: "xscreensaver", process: daemon) { try session.screenOverview().isDark }
        return ScreenLock(locker: .xscreensaver, lockingDuration: ContinuousClock.now - started, processes: [daemon], probe: locked)
    }

    /// Whether xscreensaver says the screen is locked (`-time`: "screen locked since …"; it says
    /// "blanked" or "non-blanked" otherwise), also while its password dialog is up.
    static func isLocked(launcher: ChildLauncher, environment: [String: String]) throws -> Bool {
        try command("-time", launcher: launcher, environment: environment).contains("screen locked since")
    }

    /// `xscreensaver-command ARGUMENT`'s output; empty when it fails (no daemon yet).
    static func command(_ argument: String, launcher: ChildLauncher, environment: [String: String]) throws -> String {
        let result = try launcher.run(name: "xscreensaver-command", executable: try ExecutableLocator.find("xscreensaver-command", environment: environment),
                                      arguments: [argument], environment: environment, timeout: .seconds(10))
        return result.succeeded ? result.stdout : ""
    }
}
