import Foundation

/// xfce4-notifyd, Xfce's notification server, as the session runs it: its settings daemon
/// (xfconfd) first, on the session's bus, then the server itself, both about 0.1 s to come up.
/// Its settings (do-not-disturb among them) live in the session's XDG_CONFIG_HOME.
enum XfceNotifyd {
    /// Starts xfconfd, waits for org.xfce.Xfconf, starts xfce4-notifyd and waits until it owns
    /// org.freedesktop.Notifications. The bus activates nothing, so both are started here.
    static func start(launcher: ChildLauncher, environment: [String: String]) throws -> NotificationServer {
        let settings = try launcher.launch(
            name: "xfconfd", executable: try ExecutableLocator.find("xfconfd", environment: environment),
            arguments: [], environment: environment)
        try NotificationServer.waitForName("org.xfce.Xfconf", ownedBy: settings, component: "xfconfd",
                                           launcher: launcher, environment: environment)
        let server = try launcher.launch(
            name: "xfce4-notifyd", executable: try ExecutableLocator.find("xfce4-notifyd", environment: environment),
            arguments: [], environment: environment)
        try NotificationServer.waitForName("org.freedesktop.Notifications", ownedBy: server, component: "xfce4-notifyd",
                                           launcher: launcher, environment: environment)
        return NotificationServer(kind: .xfce4Notifyd, process: server, picker: nil)
    }

    /// Sets xfce4-notifyd's `/do-not-disturb` property, as its settings dialog does.
    static func setDoNotDisturb(_ on: Bool, launcher: ChildLauncher, environment: [String: String]) throws {
        _ = try launcher.runChecked("xfconf-query", ["-c", "xfce4-notifyd", "-p", "/do-not-disturb", "-n", "-t", "bool", "-s", on ? "true" : "false"],
                                    environment: environment)
    }
}
