import Foundation

/// The lockers that draw one flat colour and nothing else, and lock as long as they run: i3lock
/// 2.14 on the X display, swaylock 1.7 in the session's sway. Neither can be asked whether it is
/// locked; it is while it runs (each exits only once unlocked). Each is started in a colour of
/// its own, so the screen shows when it is drawn, and whether anything shows above it.
enum FlatColourLocker {
    /// The colour each draws here (`RRGGBB`): nothing else on these screens is of it.
    static let i3lockColour = "203a5c"
    static let swaylockColour = "5c203a"

    /// `i3lock -n` (it stays in the foreground, so the session ends it) as the session's own user.
    static func lockWithI3lock(_ session: HeadlessSession) throws -> ScreenLock {
        let started = ContinuousClock.now
        let i3lock = try session.launcher.launch(name: "i3lock", executable: try ExecutableLocator.find("i3lock", environment: session.environment),
                                                 arguments: ["-n", "-c", i3lockColour], environment: session.environment)
        try waitForColour(i3lockColour, of: "i3lock", process: i3lock, in: session)
        return ScreenLock(locker: .i3lock, lockingDuration: ContinuousClock.now - started, processes: [i3lock]) { i3lock.isRunning }
    }

    /// swaylock on the session's sway output, as the desktop user sway runs as.
    static func lockWithSwaylock(_ session: HeadlessSession) throws -> ScreenLock {
        guard let wayland = session.waylandEnvironment, let runtime = wayland["XDG_RUNTIME_DIR"] else {
            throw HeadlessSessionError.componentFailed(component: "swaylock", reason: "it locks sway, which only a session with mako (notificationServer: .mako) runs",
                                                       stderrTail: "")
        }
        let started = ContinuousClock.now
        let launcher = session.launcher
        let user = try DesktopUser.resolve(launcher: launcher, environment: session.environment)
        let environment = user.environment(home: launcher.layout.shared.appendingPathComponent("home"), runtime: URL(fileURLWithPath: runtime),
                                           session: session.environment).merging(wayland) { $1 }
        let swaylock = try user.launch(name: "swaylock", "swaylock", ["--color", swaylockColour], launcher: launcher,
                                       environment: session.environment, with: environment)
        try waitForColour(swaylockColour, of: "swaylock", process: swaylock, in: session)
        return ScreenLock(locker: .swaylock, lockingDuration: ContinuousClock.now - started, processes: [swaylock]) { swaylock.isRunning }
    }

    /// Waits until the whole screen is `colour` (and nothing else), or throws.
    static func waitForColour(_ colour: String, of locker: String, process: SessionProcess, in session: HeadlessSession) throws {
        try LockerStartup.wait(for: "covering the screen in #\(colour)", locker: locker, process: process) {
            let overview = try session.screenOverview()
            return overview.isOneColour && overview.pixels.colours.first.map { isColour($0, colour) } == true
        }
    }

    /// Whether `pixel` is `hex` (`RRGGBB`), give or take 2 a channel (rounding in the screenshot).
    static func isColour(_ pixel: ScreenPixels.Colour, _ hex: String) -> Bool {
        guard let value = Int(hex, radix: 16) else { return false }
        let wanted = [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff]
        return zip([Int(pixel.red), Int(pixel.green), Int(pixel.blue)], wanted).allSatisfy { abs($0 - $1) <= 2 }
    }
}
