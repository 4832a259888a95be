import Foundation

/// gtklock 4 from the trixie tree, locking the session's sway 1.10 through ext-session-lock-v1,
/// with its playerctl module, as a person's sway runs it (`gtklock -m …/playerctl-module.so`).
/// gtklock runs its lock command once the compositor has said the session is locked (the
/// protocol's `locked` event) and its unlock command once it has unlocked: both leave a file
/// behind, so the session knows what the compositor said.
enum GtklockLocker {
    /// Where trixie's gtklock-playerctl-module keeps the module, in the tree.
    static let playerctlModules = ["usr/lib/x86_64-linux-gnu/gtklock/playerctl-module.so", "usr/lib/aarch64-linux-gnu/gtklock/playerctl-module.so"]

    /// Starts gtklock with the module as the session's own user, on sway's Wayland display, and
    /// returns once sway said it is locked and gtklock has drawn its screen; throws naming
    /// gtklock in a session without trixie's sway, or when it exits or takes longer than 30 s.
    static func lock(_ session: HeadlessSession) throws -> ScreenLock {
        guard session.notificationServer == .mako, session.swayRelease == .trixie, let wayland = session.waylandEnvironment else {
            throw HeadlessSessionError.componentFailed(
                component: "gtklock", reason: "it locks trixie's sway 1.10, which only a session with mako in it runs (notificationServer: .mako, swayRelease: .trixie)",
                stderrTail: "")
        }
        try DebianTree.trixie.require("usr/bin/gtklock", component: "gtklock")
        guard let module = playerctlModules.first(where: { FileManager.default.fileExists(atPath: DebianTree.trixie.root.appendingPathComponent($0).path) }) else {
            throw HeadlessSessionError.componentFailed(component: "gtklock", reason: "its playerctl module is not installed in \(DebianTree.trixie.root.path) "
                                                       + "(scripts/install-gnome-shell-tree trixie installs it)", stderrTail: "")
        }
        let notes = session.layout.shared.appendingPathComponent("gtklock")
        let locked = notes.appendingPathComponent("locked"), unlocked = notes.appendingPathComponent("unlocked")
        do {
            try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        } catch {
            throw HeadlessSessionError.componentFailed(component: "gtklock", reason: "cannot make its directory: \(error)", stderrTail: "")
        }
        let started = ContinuousClock.now
        // A program the user starts in sway has its WAYLAND_DISPLAY and XDG_RUNTIME_DIR (so
        // `tocsin doctor` finds gtklock as this session's); GTK is kept off the X display.
        let environment = session.environment.merging(wayland) { $1 }.merging(["GDK_BACKEND": "wayland"]) { $1 }
        let (bwrap, arguments) = try DebianTree.trixie.command("gtklock", ["-m", "/" + module, "-L", "touch '\(locked.path)'", "-U", "touch '\(unlocked.path)'"],
                                                        environment: environment)
        let gtklock = try session.launcher.launch(name: "gtklock", executable: bwrap, arguments: arguments, environment: environment)
        try LockerStartup.wait(for: "the compositor saying it is locked (its lock command run)", locker: "gtklock", process: gtklock) {
            FileManager.default.fileExists(atPath: locked.path)
        }
        // Then drawn: its clock and password field on light grey, where sway showed black.
        try LockerStartup.wait(for: "drawing its screen", locker: "gtklock", process: gtklock) {
            let overview = try session.screenOverview()
            return !overview.isDark && !overview.isOneColour
        }
        return ScreenLock(locker: .gtklock, lockingDuration: ContinuousClock.now - started, processes: [gtklock]) {
            guard gtklock.isRunning, FileManager.default.fileExists(atPath: locked.path), !FileManager.default.fileExists(atPath: unlocked.path) else {
                return false
            }
            return try compositorRefusesAnotherLock(session, environment: environment)
        }
    }

    /// Whether sway holds a lock now, as sway itself says: a second gtklock asks it to lock, and
    /// is refused at once ("Failed to lock session": the protocol's `finished`) only while the
    /// session is locked. Should it lock instead, it is ended after 10 s, which unlocks again.
    static func compositorRefusesAnotherLock(_ session: HeadlessSession, environment: [String: String]) throws -> Bool {
        let (bwrap, arguments) = try DebianTree.trixie.command("gtklock", [], environment: environment)
        let result: CommandResult
        do {
            result = try session.launcher.run(name: "gtklock-second", executable: bwrap, arguments: arguments, environment: environment, timeout: .seconds(10))
        } catch HeadlessSessionError.commandTimedOut {
            return false
        }
        guard result.status != 0, result.stderr.contains("Failed to lock session") else {
            throw HeadlessSessionError.componentFailed(component: "gtklock", reason: "a second gtklock, asked whether sway is locked, exited with status \(result.status)",
                                                       stderrTail: LogTail.of(result.stderr))
        }
        return true
    }
}
