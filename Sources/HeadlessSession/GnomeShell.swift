import Foundation

/// Which GNOME Shell a session runs.
public enum GnomeShellRelease: String, Sendable, CaseIterable {
    /// The system's: GNOME Shell 43 on Debian 12, which loads extensions as scripts.
    case system
    /// Debian 13's GNOME Shell 48, which loads extensions as ES modules: installed beside the
    /// system by `scripts/install-gnome-shell-tree trixie` and run from there with bubblewrap, its
    /// directory as `/`, the machine's /dev, /proc, /sys and /tmp (the sessions, their buses and
    /// the X server's socket) shared, so it joins the session as the system's shell does.
    case trixie
    /// Debian testing's GNOME Shell 50, installed and run as trixie's
    /// (`scripts/install-gnome-shell-tree forky`). Wayland only (mutter 50 has no X11 backend):
    /// it runs headless with a virtual monitor of Xvfb's size, and its screen is read and clicked
    /// through the shell itself (`GnomeShellScreen`), not the X display. The first with media
    /// controls on its lock screen (49).
    case forky

    /// The releases on the session's X display (`--x11`), which every test of the shell's
    /// notifications, top bar and extension runs on; `.forky` runs only where a test needs 49
    /// or later.
    public static let onX11: [GnomeShellRelease] = [.system, .trixie]

    /// The shell's major version.
    public var version: Int {
        switch self {
        case .system: 43
        case .trixie: 48
        case .forky: 50
        }
    }

    /// Whether it runs as a Wayland compositor of its own, headless, rather than on Xvfb.
    public var isWaylandOnly: Bool { self == .forky }

    /// Where `scripts/install-gnome-shell-tree trixie` installs it.
    public static let trixieRoot = URL(fileURLWithPath: ProcessInfo.processInfo.environment["TOCSIN_GNOME_SHELL_TRIXIE"]
                                       ?? "/var/lib/tocsin-tests/gnome-shell-trixie")
    /// Where `scripts/install-gnome-shell-tree forky` installs it.
    public static let forkyRoot = URL(fileURLWithPath: ProcessInfo.processInfo.environment["TOCSIN_GNOME_SHELL_FORKY"]
                                      ?? "/var/lib/tocsin-tests/gnome-shell-forky")

    /// The tree the release's shell is installed in and run from; `nil` for the system's.
    var tree: DebianTree? {
        switch self {
        case .system: nil
        case .trixie: .trixie
        case .forky: .forky
        }
    }
}

/// GNOME Shell (43, or 48: `GnomeShellRelease`) on the session's X display (`--x11`), or 50
/// headless on a Wayland display of its own (`GnomeShellScreen`), as the session runs it: a
/// private system bus for the shell alone (its login-manager code fails without one) with a
/// display manager's stand-in on it, so the session can lock
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
        if release != .system { try settleTheFirstStart(programs: programs, launcher: launcher, environment: environment) }
        let systemBus = try BusDaemon.startSystemBus(launcher: launcher, environment: environment)
        try GnomeLocking.startDisplayManager(systemBusAddress: systemBus.address, launcher: launcher, environment: environment)
        var shellEnvironment = environment
        shellEnvironment["DBUS_SYSTEM_BUS_ADDRESS"] = systemBus.address
        shellEnvironment["XDG_CURRENT_DESKTOP"] = "GNOME"
        shellEnvironment["NO_AT_BRIDGE"] = "1"
        var display = ["--x11", "--replace"]
        if release.isWaylandOnly {
            // Its own Wayland display in the session's runtime directory, without Xwayland; a
            // monitor of Xvfb's size, so every place on the screen is where it is on the others.
            shellEnvironment.merge(GnomeShellScreen.waylandEnvironment) { $1 }
            shellEnvironment["DISPLAY"] = nil
            display = ["--wayland", "--headless", "--no-x11", "--wayland-display", GnomeShellScreen.waylandDisplay,
                       "--virtual-monitor", GnomeShellScreen.monitorSize]
        } else {
            shellEnvironment["XDG_SESSION_TYPE"] = "x11"
        }
        let (shellProgram, shellArguments) = try programs.command("gnome-shell", display)
        let shell = try launcher.launch(name: "gnome-shell", executable: shellProgram, arguments: shellArguments, environment: shellEnvironment)
        try NotificationServer.waitForName("org.gnome.Shell", ownedBy: shell, component: "gnome-shell", launcher: launcher, environment: environment)
        // 50's screen, seen and clicked through the shell (its pointer held from now on, as a mouse).
        let screen = release.isWaylandOnly ? try GnomeShellScreen(launcher: launcher, environment: environment) : nil

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
                leaveTheOverview(launcher: launcher, environment: environment, screen: screen)
                return NotificationServer(kind: .gnomeShell, process: service, picker: nil, gnomeShellScreen: screen)
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

    /// GNOME 48 and 50 greet a new user with a tour dialog, and show "Screen Lock disabled" once they
    /// can note that they did: both would cover the top bar, and neither comes at a real login
    /// after the first.
    private static func settleTheFirstStart(programs: Programs, launcher: ChildLauncher, environment: [String: String]) throws {
        try programs.gsettings(["set", "org.gnome.shell", "welcome-dialog-last-shown-version", "999"], launcher: launcher, environment: environment)
        let shellData = launcher.layout.data.appendingPathComponent("gnome-shell")
        try? FileManager.default.createDirectory(at: shellData, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: shellData.appendingPathComponent("lock-warning-shown").path, contents: nil)
    }

    /// How the release's programs are started: the system's from PATH; trixie's and forky's
    /// through bubblewrap, in their directories.
    struct Programs {
        let release: GnomeShellRelease
        let environment: [String: String]

        init(release: GnomeShellRelease, environment: [String: String]) throws {
            self.release = release
            self.environment = environment
            if let tree = release.tree { try tree.require("usr/bin/gnome-shell", component: "gnome-shell \(release.version)") }
        }

        /// The executable and arguments that run `program` with `arguments`.
        func command(_ program: String, _ arguments: [String]) throws -> (URL, [String]) {
            guard let tree = release.tree else { return (try ExecutableLocator.find(program, environment: environment), arguments) }
            return try tree.command(program, arguments, environment: environment)
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
    /// moves, as a person logging in moves it (on 50, through the shell: `GnomeShellScreen`).
    private static func leaveTheOverview(launcher: ChildLauncher, environment: [String: String], screen: GnomeShellScreen?) {
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
        if let screen {
            try? screen.movePointer(x: 1000, y: 600, environment: environment)
            Thread.sleep(forTimeInterval: 0.2)
            try? screen.movePointer(x: 1001, y: 600, environment: environment)
        } else {
            _ = try? launcher.runChecked("xdotool", ["mousemove", "1000", "600", "sleep", "0.2", "mousemove", "1001", "600"], environment: environment)
        }
    }

    /// GNOME's do-not-disturb: banners off (`show-banners`), what its switch in the message list sets.
    static func setDoNotDisturb(_ on: Bool, launcher: ChildLauncher, environment: [String: String]) throws {
        _ = try launcher.runChecked("gsettings", ["set", "org.gnome.desktop.notifications", "show-banners", on ? "false" : "true"],
                                    environment: environment)
    }
}
