import Foundation

/// KDE Plasma 5.27's notification server, plasmashell, as the session runs it: on the X display,
/// with a private system bus, after kglobalaccel5, kded5 and kactivitymanagerd (without the
/// activity manager plasmashell hangs, saying nothing), as an unprivileged user (`DesktopUser`)
/// when the tests run as root. It owns org.freedesktop.Notifications 2–4 s after it starts and
/// holds about 400 MB. Beside another notification server it runs as the session's own user,
/// for its media controller and the media keys (`startBesideNotificationServer`).
enum PlasmaShell {
    /// The desktop user's XDG_CONFIG_HOME in this session, where plasmanotifyrc is.
    static func configHome(_ layout: SessionLayout) -> URL { layout.shared.appendingPathComponent("plasma-home/.config") }

    /// Starts it as the session's notification server, and returns once it owns the name.
    static func start(launcher: ChildLauncher, environment: [String: String]) throws -> NotificationServer {
        let shell = try launch(as: try DesktopUser.resolve(launcher: launcher, environment: environment), launcher: launcher, environment: environment)
        try NotificationServer.waitForName("org.freedesktop.Notifications", ownedBy: shell, component: "plasmashell",
                                           launcher: launcher, environment: environment, timeout: .seconds(30))
        return NotificationServer(kind: .plasma, process: shell, picker: nil)
    }

    /// Starts plasmashell beside the session's own notification server (which keeps
    /// org.freedesktop.Notifications; Plasma's notifications applet says it could not have it),
    /// as the session's own user, and returns once its system tray is up (it owns a
    /// `org.kde.StatusNotifierHost-…` name) and it has settled: no more than 30 ms of processor
    /// time in 3 s. For what Plasma's shell does besides notifications: its media controller,
    /// which the tray loads while a media player is on the bus and which then registers the
    /// media keys with kglobalaccel (`mediaKeysAreRegistered`).
    ///
    /// Settled, as a desktop is long before its screen locks: the tray starts following media
    /// players only once its first listing of the bus's names is back (5.27's
    /// `DBusServiceObserver`), and the shell goes on working for about 5 s after its tray is up
    /// (1.0 s of processor time at the tray, 1.7 s when settled). Seen, and left to Plasma: with
    /// a fresh configuration, a test player that came and quit left the media controller loaded,
    /// its keys registered and sent to no player after (three runs in a row in the tests'
    /// session, once in a dozen by hand; read in its code, the observer lists the names again
    /// when the tray's settings change, counting a player it knows once more). The tests
    /// therefore let the agent's player be the first.
    static func startBesideNotificationServer(launcher: ChildLauncher, environment: [String: String]) throws -> SessionProcess {
        let shell = try launch(as: DesktopUser.sessionUser, launcher: launcher, environment: environment)
        // The tray's host name carries plasmashell's process id (`env -i` execs it: the same).
        try NotificationServer.waitForName("org.kde.StatusNotifierHost-\(shell.pid)", ownedBy: shell, component: "plasmashell",
                                           launcher: launcher, environment: environment, timeout: .seconds(30))
        // Four readings a second apart: the processor time used over 3 s.
        var window: [UInt64] = []
        let settled = Polling.until(timeout: .seconds(60), interval: .seconds(1)) {
            window = Array((window + [ProcStat.read(pid: shell.pid)?.cpuTicks ?? 0]).suffix(4))
            return !shell.isRunning || (window.count == 4 && window[3] <= window[0] + 3)
        }
        guard settled, shell.isRunning else {
            throw HeadlessSessionError.componentFailed(
                component: "plasmashell", reason: shell.isRunning ? "it was still busy 60 s after its tray came up" : "exited with status \(shell.terminationStatus ?? -1)",
                stderrTail: shell.standardErrorTail())
        }
        return shell
    }

    /// Whether Plasma's media controller has the media keys registered with kglobalaccel now (its
    /// `mediacontrol` component is active): the component Plasma's locker passes the media keys
    /// to while the screen is locked, if it was active when the screen locked.
    static func mediaKeysAreRegistered(launcher: ChildLauncher, environment: [String: String]) throws -> Bool {
        let answer = try launcher.run(name: "gdbus", executable: try ExecutableLocator.find("gdbus", environment: environment),
                                      arguments: ["call", "--session", "--dest", "org.kde.kglobalaccel", "--object-path", "/component/mediacontrol",
                                                  "--method", "org.kde.kglobalaccel.Component.isActive"],
                                      environment: environment, timeout: .seconds(10), keepLogs: false)
        // A component never registered is no object at all: not active.
        return answer.status == 0 && answer.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "(true,)"
    }

    /// Starts kglobalaccel5, kded5, kactivitymanagerd and then plasmashell as `user`, with a home
    /// of their own in the session and a private system bus.
    private static func launch(as user: DesktopUser, launcher: ChildLauncher, environment: [String: String]) throws -> SessionProcess {
        let layout = launcher.layout
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
        return try start("plasmashell", "plasmashell", ["--no-respawn"])
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
