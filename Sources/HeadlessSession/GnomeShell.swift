import Foundation

/// Which GNOME Shell a session runs.
public enum GnomeShellRelease: String, Sendable, CaseIterable {
    /// The system's: GNOME Shell 43 on Debian 12, which loads extensions as scripts.
    case system
    /// Debian 13's GNOME Shell 48, which loads extensions as ES modules: installed beside the
    /// system by `scripts/install-gnome-shell-trixie` and run from there with bubblewrap, its
    /// directory as `/`, the machine's /dev, /proc, /sys and /tmp (the sessions, their buses and
    /// the X server's socket) shared, so it joins the session as the system's shell does.
    case trixie

    /// Where `scripts/install-gnome-shell-trixie` installs it.
    public static let trixieRoot = URL(fileURLWithPath: ProcessInfo.processInfo.environment["TOCSIN_GNOME_SHELL_TRIXIE"]
                                       ?? "/var/lib/tocsin-tests/gnome-shell-trixie")
}

/// GNOME Shell (43, or 48: `GnomeShellRelease`) on the session's X display (`--x11`), as the
/// session runs it: a private system bus for the shell alone (its login-manager code fails
/// without one) with a display manager's stand-in on it, so the session can lock
/// (`GnomeLocking`), dconf activatable on the session bus (GNOME's settings, do-not-disturb among
/// them, go through it), the shell, and then its separate notification and screen saver
/// services, gjs programs nothing activates here. About 3 s (43) or 5 s (48).
enum GnomeShell {
    /// The environment every program of a GNOME session gets: settings through dconf.
    static let sessionVariables = ["GSETTINGS_BACKEND": "dconf"]

    /// dconf, the one service the session bus may start for GNOME.
    static let activatable = ["ca.desrt.dconf": "[D-BUS Service]\nName=ca.desrt.dconf\nExec=/usr/libexec/dconf-service\n"]

    static func start(launcher: ChildLauncher, environment: [String: String], extensions: [URL] = [],
                      release: GnomeShellRelease = .system) throws -> NotificationServer {
        let programs = try Programs(release: release, environment: environment)
        try install(extensions, programs: programs, launcher: launcher, environment: environment)
        if release == .trixie { try settleTheFirstStart(programs: programs, launcher: launcher, environment: environment) }
        let systemBus = try BusDaemon.startSystemBus(launcher: launcher, environment: environment)
        try GnomeLocking.startDisplayManager(systemBusAddress: systemBus.address, launcher: launcher, environment: environment)
        var shellEnvironment = environment
        shellEnvironment["DBUS_SYSTEM_BUS_ADDRESS"] = systemBus.address
        shellEnvironment["XDG_SESSION_TYPE"] = "x11"
        shellEnvironment["XDG_CURRENT_DESKTOP"] = "GNOME"
        shellEnvironment["NO_AT_BRIDGE"] = "1"
        let (shellProgram, shellArguments) = try programs.command("gnome-shell", ["--x11", "--replace"])
        let shell = try launcher.launch(name: "gnome-shell", executable: shellProgram, arguments: shellArguments, environment: shellEnvironment)
        try NotificationServer.waitForName("org.gnome.Shell", ownedBy: shell, component: "gnome-shell", launcher: launcher, environment: environment)

        // Started right after the shell it sometimes never got its name: tried again, up to 5 times.
        // An ES module from GNOME 45 on (gjs -m).
        let program = "/usr/share/gnome-shell/org.gnome.Shell.Notifications"
        let (serviceProgram, serviceArguments) = try programs.command("gjs", release == .system ? [program] : ["-m", program])
        var lastFailure = ""
        for _ in 1...5 {
            let service = try launcher.launch(name: "gnome-shell-notifications", executable: serviceProgram,
                                              arguments: serviceArguments, environment: shellEnvironment)
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
                let screenSaver = try programs.command("gjs", release == .system ? [GnomeLocking.screenSaverProgram] : ["-m", GnomeLocking.screenSaverProgram])
                try GnomeLocking.startScreenSaverService(program: screenSaver, launcher: launcher, environment: shellEnvironment, sessionEnvironment: environment)
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
    private static func install(_ extensions: [URL], programs: Programs, launcher: ChildLauncher, environment: [String: String]) throws {
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
        try programs.gsettings(["set", "org.gnome.shell", "enabled-extensions", "[\(uuids)]"], launcher: launcher, environment: environment)
    }

    /// GNOME 48 greets a new user with a tour dialog, and shows "Screen Lock disabled" once it
    /// can note that it did: both would cover the top bar, and neither comes at a real login
    /// after the first.
    private static func settleTheFirstStart(programs: Programs, launcher: ChildLauncher, environment: [String: String]) throws {
        try programs.gsettings(["set", "org.gnome.shell", "welcome-dialog-last-shown-version", "999"], launcher: launcher, environment: environment)
        let shellData = launcher.layout.data.appendingPathComponent("gnome-shell")
        try? FileManager.default.createDirectory(at: shellData, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: shellData.appendingPathComponent("lock-warning-shown").path, contents: nil)
    }

    /// How the release's programs are started: the system's from PATH; trixie's through
    /// bubblewrap, in its directory.
    struct Programs {
        let release: GnomeShellRelease
        let environment: [String: String]

        init(release: GnomeShellRelease, environment: [String: String]) throws {
            self.release = release
            self.environment = environment
            if release == .trixie { try TrixieTree.require("usr/bin/gnome-shell", component: "gnome-shell 48") }
        }

        /// The executable and arguments that run `program` with `arguments`.
        func command(_ program: String, _ arguments: [String]) throws -> (URL, [String]) {
            guard release == .trixie else { return (try ExecutableLocator.find(program, environment: environment), arguments) }
            return try TrixieTree.command(program, arguments, environment: environment)
        }

        /// Runs the release's gsettings (its schemas) with `arguments`.
        func gsettings(_ arguments: [String], launcher: ChildLauncher, environment: [String: String]) throws {
            let (program, all) = try command("gsettings", arguments)
            _ = try launcher.runChecked(program.lastPathComponent, all, environment: environment)
        }
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
