import Foundation

/// GNOME Shell 43 on the session's X display (`--x11`), as the session runs it: a private system
/// bus for the shell alone (its login-manager code fails without one), dconf activatable on the
/// session bus (GNOME's settings, do-not-disturb among them, go through it), the shell, and then
/// GNOME 43's separate notification service, a gjs program nothing activates here. About 3 s.
enum GnomeShell {
    /// The environment every program of a GNOME session gets: settings through dconf.
    static let sessionVariables = ["GSETTINGS_BACKEND": "dconf"]

    /// dconf, the one service the session bus may start for GNOME.
    static let activatable = ["ca.desrt.dconf": "[D-BUS Service]\nName=ca.desrt.dconf\nExec=/usr/libexec/dconf-service\n"]

    static func start(launcher: ChildLauncher, environment: [String: String], extensions: [URL] = []) throws -> NotificationServer {
        try install(extensions, launcher: launcher, environment: environment)
        let systemBus = try BusDaemon.startSystemBus(launcher: launcher, environment: environment)
        var shellEnvironment = environment
        shellEnvironment["DBUS_SYSTEM_BUS_ADDRESS"] = systemBus.address
        shellEnvironment["XDG_SESSION_TYPE"] = "x11"
        shellEnvironment["XDG_CURRENT_DESKTOP"] = "GNOME"
        shellEnvironment["NO_AT_BRIDGE"] = "1"
        let shell = try launcher.launch(name: "gnome-shell", executable: try ExecutableLocator.find("gnome-shell", environment: environment),
                                        arguments: ["--x11", "--replace"], environment: shellEnvironment)
        try NotificationServer.waitForName("org.gnome.Shell", ownedBy: shell, component: "gnome-shell", launcher: launcher, environment: environment)

        // Started right after the shell it sometimes never got its name: tried again, up to 5 times.
        let program = "/usr/share/gnome-shell/org.gnome.Shell.Notifications"
        var lastFailure = ""
        for _ in 1...5 {
            let service = try launcher.launch(name: "gnome-shell-notifications", executable: try ExecutableLocator.find("gjs", environment: environment),
                                              arguments: [program], environment: shellEnvironment)
            do {
                try NotificationServer.waitForName("org.freedesktop.Notifications", ownedBy: service, component: "gnome-shell's notification service",
                                                   launcher: launcher, environment: environment, timeout: .seconds(3))
                // It owns the name a moment before it serves the object.
                let answers = Polling.until(timeout: .seconds(5), interval: .milliseconds(50)) {
                    (try? launcher.runChecked("busctl", ["--user", "call", "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                                         "org.freedesktop.Notifications", "GetServerInformation"], environment: environment)) != nil
                }
                guard answers else { throw HeadlessSessionError.componentFailed(component: "gnome-shell's notification service",
                                                                                reason: "owns its name but does not answer", stderrTail: service.standardErrorTail()) }
                leaveTheOverview(launcher: launcher, environment: environment)
                return NotificationServer(kind: .gnomeShell, process: service, picker: nil)
            } catch {
                lastFailure = "\(error)"
                service.terminate()
                Thread.sleep(forTimeInterval: 0.5)
            }
        }
        throw HeadlessSessionError.componentFailed(component: "gnome-shell's notification service", reason: "did not come up in 5 tries: \(lastFailure)",
                                                   stderrTail: shell.standardErrorTail())
    }

    /// Copies each extension directory (named after its uuid) into the user's extensions and
    /// enables them: the shell reads both only as it starts.
    private static func install(_ extensions: [URL], launcher: ChildLauncher, environment: [String: String]) throws {
        guard !extensions.isEmpty else { return }
        let installed = launcher.layout.data.appendingPathComponent("gnome-shell/extensions")
        do {
            try FileManager.default.createDirectory(at: installed, withIntermediateDirectories: true)
            for directory in extensions {
                try FileManager.default.copyItem(at: directory, to: installed.appendingPathComponent(directory.lastPathComponent))
            }
        } catch {
            throw HeadlessSessionError.componentFailed(component: "gnome-shell", reason: "cannot install its extensions: \(error)", stderrTail: "")
        }
        let uuids = extensions.map { "'\($0.lastPathComponent)'" }.joined(separator: ", ")
        _ = try launcher.runChecked("gsettings", ["set", "org.gnome.shell", "enabled-extensions", "[\(uuids)]"], environment: environment)
    }

    /// The shell starts in the overview (after its start-up animation, so an early Escape is
    /// lost), with a start-up banner that stays while no input comes: the overview is closed
    /// through the shell's own `OverviewActive` property until it stays closed, and the pointer
    /// moves, as a person logging in moves it.
    private static func leaveTheOverview(launcher: ChildLauncher, environment: [String: String]) {
        let property = ["--user", "org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell", "OverviewActive"]
        var closedReadings = 0
        _ = Polling.until(timeout: .seconds(10), interval: .milliseconds(250)) {
            let active = (try? launcher.runChecked("busctl", ["get-property"] + property, environment: environment))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            if active == "b true" {
                closedReadings = 0
                _ = try? launcher.runChecked("busctl", ["set-property"] + property + ["b", "false"], environment: environment)
            } else if active == "b false" {
                closedReadings += 1
            }
            return closedReadings >= 4
        }
        _ = try? launcher.runChecked("xdotool", ["mousemove", "1000", "600", "sleep", "0.2", "mousemove", "1001", "600"], environment: environment)
    }

    /// GNOME's do-not-disturb: banners off (`show-banners`), what its switch in the message list sets.
    static func setDoNotDisturb(_ on: Bool, launcher: ChildLauncher, environment: [String: String]) throws {
        _ = try launcher.runChecked("gsettings", ["set", "org.gnome.desktop.notifications", "show-banners", on ? "false" : "true"],
                                    environment: environment)
    }
}
