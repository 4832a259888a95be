import Foundation

/// KDE Plasma 5.27's screen locker as the session runs it: `ksmserver` alone (it holds
/// kscreenlocker and serves org.freedesktop.ScreenSaver; no KWin, no plasmashell needed) with
/// the variables that make it a Plasma session on the X display, and a private bus of its own as
/// its system bus (UPower and logind are asked for there, and must not be the machine's). It
/// runs as the session's own user: the greeter it starts is then a program of the agent's user,
/// whose media-player controls the agent obeys.
enum PlasmaScreenLocker {
    /// What makes ksmserver and its greeter a Plasma session on X (as `kscreenlocker_greet
    /// --testing` needs too).
    static let sessionVariables = [
        "QT_QPA_PLATFORM": "xcb", "XDG_CURRENT_DESKTOP": "KDE", "KDE_FULL_SESSION": "true", "KDE_SESSION_VERSION": "5",
        "XDG_SESSION_TYPE": "x11", "DESKTOP_SESSION": "plasma",
    ]

    static func lock(_ session: HeadlessSession) throws -> ScreenLock {
        let started = ContinuousClock.now
        let launcher = session.launcher
        let systemBus = try BusDaemon.startPrivate(name: "dbus-system-ksmserver", socket: launcher.layout.runtime.appendingPathComponent("ksmserver-system-bus"),
                                                   launcher: launcher, environment: session.environment)
        let environment = session.environment.merging(sessionVariables.merging(["DBUS_SYSTEM_BUS_ADDRESS": systemBus.address]) { $1 }) { $1 }
        let ksmserver = try launcher.launch(name: "ksmserver", executable: try ExecutableLocator.find("ksmserver", environment: environment),
                                            arguments: [], environment: environment)
        try NotificationServer.waitForName("org.freedesktop.ScreenSaver", ownedBy: ksmserver, component: "ksmserver",
                                           launcher: launcher, environment: session.environment, timeout: .seconds(30))
        try launcher.runChecked("gdbus", call("Lock"), environment: session.environment, timeout: .seconds(30))
        let active = { try isActive(launcher: launcher, environment: session.environment) }
        try LockerStartup.wait(for: "GetActive saying true", locker: "ksmserver", process: ksmserver, until: active)
        // GetActive is true before the greeter has drawn anything: wait for its wallpaper over
        // the screen, which was dark before (no desktop is drawn in these sessions but Plasma's).
        try LockerStartup.wait(for: "the greeter drawing the lock screen", locker: "ksmserver", process: ksmserver) {
            try session.screenOverview().meanBrightness > 20
        }
        return ScreenLock(locker: .plasma, lockingDuration: ContinuousClock.now - started, processes: [ksmserver, systemBus.process], probe: active)
    }

    /// Whether kscreenlocker says the screen is locked (`GetActive`).
    static func isActive(launcher: ChildLauncher, environment: [String: String]) throws -> Bool {
        try launcher.runChecked("gdbus", call("GetActive"), environment: environment).trimmingCharacters(in: .whitespacesAndNewlines) == "(true,)"
    }

    /// gdbus's arguments for calling `method` of org.freedesktop.ScreenSaver on `/ScreenSaver`,
    /// where kscreenlocker serves it (not the spec's `/org/freedesktop/ScreenSaver` alone).
    static func call(_ method: String) -> [String] {
        ["call", "--session", "--dest", "org.freedesktop.ScreenSaver", "--object-path", "/ScreenSaver", "--method", "org.freedesktop.ScreenSaver.\(method)"]
    }
}
