import Foundation

/// The session's notification server, drawing on the session's X display and owning
/// org.freedesktop.Notifications on the session's bus: dunst 1.9, or xfce4-notifyd.
struct NotificationServer {
    let kind: NotificationServerKind
    let process: SessionProcess
    /// dunst's action picker (its context menu's dmenu); `nil` for other servers.
    let picker: ActionPickerScript?
    /// WAYLAND_DISPLAY and XDG_RUNTIME_DIR of the compositor it draws on, for a Wayland server
    /// (mako); `nil` for those that draw on the X display.
    var wayland: [String: String]? = nil
    /// GNOME Shell 50's screen, photographed and clicked through the shell; `nil` for a server
    /// on the X display (or in sway).
    var gnomeShellScreen: GnomeShellScreen? = nil

    /// Starts the server of `kind` and waits until it owns org.freedesktop.Notifications.
    static func start(_ kind: NotificationServerKind, launcher: ChildLauncher, environment: [String: String],
                      gnomeShellExtensions: [URL] = [], gnomeShellRelease: GnomeShellRelease = .system,
                      swayRelease: SwayRelease = .system) throws -> NotificationServer {
        switch kind {
        case .dunst: try startDunst(launcher: launcher, environment: environment)
        case .xfce4Notifyd: try XfceNotifyd.start(launcher: launcher, environment: environment)
        case .mako: try SwayMako.start(launcher: launcher, environment: environment, release: swayRelease)
        case .gnomeShell: try GnomeShell.start(launcher: launcher, environment: environment, extensions: gnomeShellExtensions, release: gnomeShellRelease)
        case .plasma: try PlasmaShell.start(launcher: launcher, environment: environment)
        }
    }

    /// Turns the server's do-not-disturb on or off: dunst paused (which hides every
    /// notification), xfce4-notifyd's own (which lets critical ones through), or mako's
    /// do-not-disturb mode (which hides everything).
    static func setDoNotDisturb(_ on: Bool, kind: NotificationServerKind, launcher: ChildLauncher, environment: [String: String]) throws {
        switch kind {
        case .dunst: try setPaused(on, launcher: launcher, environment: environment)
        case .xfce4Notifyd: try XfceNotifyd.setDoNotDisturb(on, launcher: launcher, environment: environment)
        case .mako: try SwayMako.setDoNotDisturb(on, launcher: launcher, environment: environment)
        case .gnomeShell: try GnomeShell.setDoNotDisturb(on, launcher: launcher, environment: environment)
        case .plasma: try PlasmaShell.setDoNotDisturb(on, launcher: launcher, environment: environment)
        }
    }

    /// Writes the dunstrc and the action-picker script, starts dunst and waits until it owns
    /// org.freedesktop.Notifications.
    private static func startDunst(launcher: ChildLauncher, environment: [String: String]) throws -> NotificationServer {
        let layout = launcher.layout
        let picker = ActionPickerScript(directory: layout.actionPicker)
        do {
            try picker.install()
            try DunstConfig.text(actionPickerScript: picker.scriptURL)
                .write(to: layout.dunstConfig, atomically: true, encoding: .utf8)
        } catch {
            throw HeadlessSessionError.componentFailed(
                component: "dunst", reason: "cannot write its configuration: \(error)", stderrTail: "")
        }
        // -print logs every notification dunst receives to stdout, which helps when debugging a test.
        let process = try launcher.launch(
            name: "dunst",
            executable: try ExecutableLocator.find("dunst", environment: environment),
            arguments: ["-config", layout.dunstConfig.path, "-print"],
            environment: environment)

        try waitForName("org.freedesktop.Notifications", ownedBy: process, component: "dunst", launcher: launcher, environment: environment)
        return NotificationServer(kind: .dunst, process: process, picker: picker)
    }

    /// Waits until `name` has an owner on the session bus, or throws naming `component` (with
    /// its stderr) when `process` exits first or 10 s pass.
    static func waitForName(_ name: String, ownedBy process: SessionProcess, component: String,
                            launcher: ChildLauncher, environment: [String: String], timeout: Duration = .seconds(10)) throws {
        let ready = try Polling.until(timeout: timeout, interval: .milliseconds(20)) {
            guard process.isRunning else { return true }
            return try BusDaemon.nameHasOwner(name, launcher: launcher, environment: environment)
        }
        guard ready, process.isRunning else {
            throw HeadlessSessionError.componentFailed(
                component: component,
                reason: process.isRunning ? "did not own \(name) within \(timeout)" : "exited with status \(process.terminationStatus ?? -1)",
                stderrTail: process.standardErrorTail())
        }
    }

    /// Pauses or resumes showing notifications (do-not-disturb). While paused dunst 1.9 hides every
    /// notification, critical ones included, yet still answers Notify with an id.
    static func setPaused(_ paused: Bool, launcher: ChildLauncher, environment: [String: String]) throws {
        try launcher.runChecked("dunstctl", ["set-paused", paused ? "true" : "false"], environment: environment)
    }

    /// Whether dunst is paused.
    static func isPaused(launcher: ChildLauncher, environment: [String: String]) throws -> Bool {
        try launcher.runChecked("dunstctl", ["is-paused"], environment: environment)
            .trimmingCharacters(in: .whitespacesAndNewlines) == "true"
    }

    /// How many notifications dunst currently displays.
    static func displayedCount(launcher: ChildLauncher, environment: [String: String]) throws -> Int {
        let output = try launcher.runChecked("dunstctl", ["count", "displayed"], environment: environment)
        return Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }
}
