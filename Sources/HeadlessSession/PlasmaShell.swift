import Foundation

/// KDE Plasma 5.27's notification server, plasmashell, as the session runs it: on the X display,
/// with a private system bus, after kglobalaccel5, kded5 and kactivitymanagerd (without the
/// activity manager plasmashell hangs, saying nothing), as an unprivileged user (`DesktopUser`)
/// when the tests run as root. It owns org.freedesktop.Notifications 2–4 s after it starts and
/// holds about 400 MB.
enum PlasmaShell {
    /// The desktop user's XDG_CONFIG_HOME in this session, where plasmanotifyrc is.
    static func configHome(_ layout: SessionLayout) -> URL { layout.shared.appendingPathComponent("plasma-home/.config") }

    static func start(launcher: ChildLauncher, environment: [String: String]) throws -> NotificationServer {
        let layout = launcher.layout
        let user = try DesktopUser.resolve(launcher: launcher, environment: environment)
        let systemBus = try BusDaemon.startSystemBus(launcher: launcher, environment: environment)
        let home = layout.shared.appendingPathComponent("plasma-home")
        let runtime = layout.shared.appendingPathComponent("plasma-runtime")
        do {
            try user.makePrivateDirectories([home, configHome(layout), home.appendingPathComponent(".local/share"),
                                             home.appendingPathComponent(".cache"), runtime])
        } catch {
            throw HeadlessSessionError.componentFailed(component: "plasmashell", reason: "cannot prepare its home: \(error)", stderrTail: "")
        }
        let plasmaEnvironment = user.environment(home: home, runtime: runtime, session: environment).merging([
            "XDG_CONFIG_HOME": configHome(layout).path, "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
            "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path,
            "XDG_DATA_DIRS": environment["XDG_DATA_DIRS"] ?? "/usr/local/share:/usr/share", "DISPLAY": environment["DISPLAY"] ?? "",
            "DBUS_SYSTEM_BUS_ADDRESS": systemBus.address, "QT_QPA_PLATFORM": "xcb", "XDG_CURRENT_DESKTOP": "KDE",
            "KDE_FULL_SESSION": "true", "KDE_SESSION_VERSION": "5", "XDG_SESSION_TYPE": "x11", "DESKTOP_SESSION": "plasma",
        ]) { $1 }
        func start(_ name: String, _ program: String, _ arguments: [String] = []) throws -> SessionProcess {
            try user.launch(name: name, program, arguments, launcher: launcher, environment: environment, with: plasmaEnvironment)
        }
        _ = try start("kglobalaccel5", "kglobalaccel5")
        _ = try start("kded5", "kded5")
        let activities = try start("kactivitymanagerd", "kactivitymanagerd")
        try NotificationServer.waitForName("org.kde.ActivityManager", ownedBy: activities, component: "kactivitymanagerd",
                                           launcher: launcher, environment: environment)
        let shell = try start("plasmashell", "plasmashell", ["--no-respawn"])
        try NotificationServer.waitForName("org.freedesktop.Notifications", ownedBy: shell, component: "plasmashell",
                                           launcher: launcher, environment: environment, timeout: .seconds(30))
        return NotificationServer(kind: .plasma, process: shell, picker: nil)
    }

    /// Plasma's own do-not-disturb, as its switch sets it: `[DoNotDisturb] Until=` in
    /// plasmanotifyrc (a day from now, or empty), then KConfig's change signal, on which
    /// plasmashell reads it again.
    static func setDoNotDisturb(_ on: Bool, launcher: ChildLauncher, environment: [String: String]) throws {
        let file = configHome(launcher.layout).appendingPathComponent("plasmanotifyrc")
        var until = ""
        if on {
            let tomorrow = Calendar.current.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date().addingTimeInterval(86_400))
            until = [tomorrow.year, tomorrow.month, tomorrow.day, tomorrow.hour, tomorrow.minute, tomorrow.second].map { String($0 ?? 0) }.joined(separator: ",")
        }
        do {
            try "[DoNotDisturb]\nUntil=\(until)\n".write(to: file, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        } catch {
            throw HeadlessSessionError.componentFailed(component: "plasmashell", reason: "cannot write \(file.path): \(error)", stderrTail: "")
        }
        _ = try launcher.runChecked("gdbus", ["emit", "--session", "--object-path", "/plasmanotifyrc", "--signal",
                                              "org.kde.kconfig.notify.ConfigChanged", "{'DoNotDisturb': [b'Until']}"], environment: environment)
    }
}
