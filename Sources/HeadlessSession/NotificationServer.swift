import Foundation

/// The session's notification server: dunst 1.9, drawing on the session's X display and owning
/// org.freedesktop.Notifications on the session's bus.
struct NotificationServer {
    let process: SessionProcess
    let picker: ActionPickerScript

    /// Writes the dunstrc and the action-picker script, starts dunst and waits until it owns
    /// org.freedesktop.Notifications.
    static func start(launcher: ChildLauncher, environment: [String: String]) throws -> NotificationServer {
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

        let ready = try Polling.until(timeout: .seconds(10), interval: .milliseconds(20)) {
            guard process.isRunning else { return true }
            return try BusDaemon.nameHasOwner("org.freedesktop.Notifications", launcher: launcher, environment: environment)
        }
        guard ready, process.isRunning else {
            throw HeadlessSessionError.componentFailed(
                component: "dunst",
                reason: process.isRunning
                    ? "did not own org.freedesktop.Notifications within 10 s"
                    : "exited with status \(process.terminationStatus ?? -1)",
                stderrTail: process.standardErrorTail())
        }
        return NotificationServer(process: process, picker: picker)
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
