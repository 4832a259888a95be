import Foundation

/// mako, the notification server of sway and other wlroots desktops, as the session runs it: sway
/// 1.7 headless (no GPU, no input devices, a 1280×800 output), or trixie's sway 1.10 in an X
/// window filling the session's X screen (`SwayRelease`), and mako on it. sway refuses to run
/// as root ("Unable to drop root"), so when the tests run as root both run as an unprivileged
/// user made for the purpose (`DesktopUser`), which reaches the session's bus through its shared
/// directory. Both come up in about 0.2 s.
///
/// mako is started here rather than by sway's `exec`: sway gives what it execs a session of its
/// own, which would outlive the session's process-group kill.
enum SwayMako {
    /// Starts sway of `release`, waits for its Wayland socket, starts mako on it and waits until
    /// it owns org.freedesktop.Notifications.
    static func start(launcher: ChildLauncher, environment: [String: String], release: SwayRelease = .system) throws -> NotificationServer {
        if release == .trixie { try DebianTree.trixie.require("usr/bin/sway", component: "sway 1.10") }
        let layout = launcher.layout
        let user = try DesktopUser.resolve(launcher: launcher, environment: environment)
        let runtime = layout.shared.appendingPathComponent("wayland-runtime")
        let home = layout.shared.appendingPathComponent("home")
        let swayConfig = layout.shared.appendingPathComponent("sway.conf")
        let makoConfig = layout.shared.appendingPathComponent("mako.conf")
        do {
            let manager = FileManager.default
            try user.makePrivateDirectories([runtime, home])
            try Self.swayConfiguration(output: release == .trixie ? "X11-1" : "HEADLESS-1").write(to: swayConfig, atomically: true, encoding: .utf8)
            try Self.makoConfiguration.write(to: makoConfig, atomically: true, encoding: .utf8)
            for file in [swayConfig, makoConfig] { try manager.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path) }
        } catch {
            throw HeadlessSessionError.componentFailed(component: "sway", reason: "cannot prepare its files: \(error)", stderrTail: "")
        }

        let common = user.environment(home: home, runtime: runtime, session: environment)
        let sway: SessionProcess
        switch release {
        case .system:
            sway = try user.launch(
                name: "sway", "sway", ["-c", swayConfig.path], launcher: launcher, environment: environment,
                with: common.merging(["WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1", "WLR_RENDERER": "pixman"]) { $1 })
        case .trixie:
            // Its X window draws through shared memory (pixman), Xvfb having no GPU; the X server
            // lets the desktop user on (the session opens it to other users for this).
            sway = try user.launch(
                name: "sway", "bwrap", DebianTree.trixie.bwrapArguments("sway", ["-c", swayConfig.path], environment: common),
                launcher: launcher, environment: environment,
                with: common.merging(["WLR_BACKENDS": "x11", "WLR_RENDERER": "pixman", "DISPLAY": environment["DISPLAY"] ?? ""]) { $1 })
        }
        var socket: String?
        let appeared = Polling.until(timeout: .seconds(10), interval: .milliseconds(20)) {
            socket = (try? FileManager.default.contentsOfDirectory(atPath: runtime.path))?.first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
            return socket != nil || !sway.isRunning
        }
        guard appeared, let socket, sway.isRunning else {
            throw HeadlessSessionError.componentFailed(
                component: "sway", reason: sway.isRunning ? "made no Wayland socket within 10 s" : "exited with status \(sway.terminationStatus ?? -1)",
                stderrTail: sway.standardErrorTail())
        }
        let wayland = ["WAYLAND_DISPLAY": socket, "XDG_RUNTIME_DIR": runtime.path]
        let mako = try user.launch(name: "mako", "mako", ["--config", makoConfig.path], launcher: launcher, environment: environment,
                                   with: common.merging(wayland) { $1 })
        try NotificationServer.waitForName("org.freedesktop.Notifications", ownedBy: mako, component: "mako",
                                           launcher: launcher, environment: environment)
        return NotificationServer(kind: .mako, process: mako, picker: nil, wayland: wayland)
    }

    /// Starts waybar on sway's output as the desktop user, with `configuration` (its JSON) and
    /// `style` (its CSS) written beside sway's files. waybar is also a StatusNotifierItem host:
    /// with a "tray" module it owns org.kde.StatusNotifierWatcher on the session's bus.
    static func launchWaybar(configuration: String, style: String, launcher: ChildLauncher, environment: [String: String],
                             wayland: [String: String]) throws -> SessionProcess {
        let layout = launcher.layout
        let user = try DesktopUser.resolve(launcher: launcher, environment: environment)
        let configFile = layout.shared.appendingPathComponent("waybar-config.json")
        let styleFile = layout.shared.appendingPathComponent("waybar-style.css")
        do {
            try configuration.write(to: configFile, atomically: true, encoding: .utf8)
            try style.write(to: styleFile, atomically: true, encoding: .utf8)
            for file in [configFile, styleFile] { try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path) }
        } catch {
            throw HeadlessSessionError.componentFailed(component: "waybar", reason: "cannot write its files: \(error)", stderrTail: "")
        }
        let common = user.environment(home: layout.shared.appendingPathComponent("home"), runtime: URL(fileURLWithPath: wayland["XDG_RUNTIME_DIR"] ?? ""),
                                      session: environment)
        return try user.launch(name: "waybar", "waybar", ["-c", configFile.path, "-s", styleFile.path], launcher: launcher,
                               environment: environment, with: common.merging(wayland) { $1 })
    }

    /// mako's do-not-disturb mode on or off (`SetModes`, what `makoctl mode -a/-r` does, without
    /// makoctl's need for jq). In it mako shows nothing, critical notifications included.
    static func setDoNotDisturb(_ on: Bool, launcher: ChildLauncher, environment: [String: String]) throws {
        let modes = on ? ["2", "default", "do-not-disturb"] : ["1", "default"]
        _ = try launcher.runChecked("busctl", ["--user", "call", "org.freedesktop.Notifications", "/fr/emersion/Mako", "fr.emersion.Mako",
                                                "SetModes", "as"] + modes, environment: environment)
    }

    /// One output, `output` (HEADLESS-1 or X11-1), the size of the X screen, nothing drawn but
    /// notifications.
    static func swayConfiguration(output: String) -> String {
        """
        xwayland disable
        output \(output) resolution 1280x800 position 0 0
        default_border none

        """
    }

    /// Black on white in 16 pt DejaVu Sans, top left, never expiring, with a pale progress fill:
    /// tesseract reads it (a saturated fill made it read nothing). Do-not-disturb is the mode
    /// mako's documentation suggests, `invisible`.
    static let makoConfiguration = """
        font=DejaVu Sans 16
        width=600
        height=300
        margin=10
        padding=15
        border-size=2
        background-color=#FFFFFFFF
        text-color=#000000FF
        border-color=#000000FF
        progress-color=over #DDEEFFFF
        default-timeout=0
        ignore-timeout=0
        max-visible=10
        anchor=top-left
        layer=overlay
        icons=0

        [mode=do-not-disturb]
        invisible=1

        """
}

/// The unprivileged user the session runs sway and mako as when the tests run as root (sway
/// refuses root), created on first use; when they do not run as root, the tests' own user.
struct DesktopUser {
    /// The name of the user made for the purpose.
    static let createdName = "tocsin-desktop"

    let name: String
    let uid: uid_t
    let gid: gid_t
    /// Whether programs must be started as it with runuser (false: it is this process's user).
    let isOtherUser: Bool

    static func resolve(launcher: ChildLauncher, environment: [String: String]) throws -> DesktopUser {
        guard getuid() == 0 else { return sessionUser }
        if getpwnam(createdName) == nil {
            // Two sessions at once may both try; whichever loses finds the user made.
            _ = try? launcher.runChecked("useradd", ["--create-home", "--shell", "/bin/bash", createdName], environment: environment,
                                         timeout: .seconds(30))
        }
        guard let entry = getpwnam(createdName) else {
            throw HeadlessSessionError.componentFailed(
                component: "sway", reason: "sway does not run as root, and the user \(createdName) could not be created (useradd)", stderrTail: "")
        }
        return DesktopUser(name: createdName, uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid, isOtherUser: true)
    }

    /// The session's own user (this process's, the agent's), for programs that must run as the
    /// same user as the agent: a user's desktop does, and the agent obeys its own user only.
    static var sessionUser: DesktopUser {
        let name = getpwuid(getuid()).map { String(cString: $0.pointee.pw_name) } ?? "\(getuid())"
        return DesktopUser(name: name, uid: getuid(), gid: getgid(), isOtherUser: false)
    }

    /// Creates `directories` (mode 0700) and makes them the user's.
    func makePrivateDirectories(_ directories: [URL]) throws {
        for directory in directories {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try own(directory)
        }
    }

    /// What every program started as the user gets, and nothing of this process's environment
    /// beyond the session's bus: its HOME and XDG_RUNTIME_DIR in the session, its names, PATH, LANG.
    func environment(home: URL, runtime: URL, session: [String: String]) -> [String: String] {
        ["HOME": home.path, "USER": name, "LOGNAME": name, "PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
         "XDG_RUNTIME_DIR": runtime.path, "DBUS_SESSION_BUS_ADDRESS": session["DBUS_SESSION_BUS_ADDRESS"] ?? ""]
    }

    /// Makes `url` the user's.
    func own(_ url: URL) throws {
        guard isOtherUser else { return }
        try FileManager.default.setAttributes([.ownerAccountID: NSNumber(value: uid), .groupOwnerAccountID: NSNumber(value: gid)],
                                              ofItemAtPath: url.path)
    }

    /// Starts `program` as the user with exactly `userEnvironment` (runuser, which stays in the
    /// child's process group, so the session ends both).
    func launch(name: String, _ program: String, _ arguments: [String], launcher: ChildLauncher, environment: [String: String],
                with userEnvironment: [String: String]) throws -> SessionProcess {
        let executable = try ExecutableLocator.find(program, environment: environment)
        let assignments = userEnvironment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        if isOtherUser {
            return try launcher.launch(name: name, executable: try ExecutableLocator.find("runuser", environment: environment),
                                       arguments: ["-u", self.name, "--", "/usr/bin/env", "-i"] + assignments + [executable.path] + arguments,
                                       environment: environment)
        }
        return try launcher.launch(name: name, executable: URL(fileURLWithPath: "/usr/bin/env"),
                                   arguments: ["-i"] + assignments + [executable.path] + arguments, environment: environment)
    }
}
