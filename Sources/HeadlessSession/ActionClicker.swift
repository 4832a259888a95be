import Foundation

/// Clicks a notification's action button the way a user would: through dunst's own context menu
/// (`dunstctl context`), with the session's picker script standing in for dmenu. dunst then sends
/// `ActionInvoked` itself, exactly as for a mouse click, so the application under test cannot tell
/// the difference.
///
/// `@unchecked Sendable`: clicks may come from any thread, and the picker's request files are
/// shared, so `lock` allows one click at a time; everything else is immutable.
final class ActionClicker: @unchecked Sendable {
    private let picker: ActionPickerScript
    private let launcher: ChildLauncher
    private let environment: [String: String]
    private let monitor: BusMonitor
    private let lock = NSLock()

    init(picker: ActionPickerScript, launcher: ChildLauncher, environment: [String: String], monitor: BusMonitor) {
        self.picker = picker
        self.launcher = launcher
        self.environment = environment
        self.monitor = monitor
    }

    /// Chooses the action labelled `label` on notification `id` and waits until dunst has sent
    /// the corresponding `ActionInvoked` signal.
    func click(label: String, notificationID id: UInt32, timeout: Duration) throws -> InvokedAction {
        lock.lock()
        defer { lock.unlock() }

        func failure(_ reason: String, offered: [String] = []) -> HeadlessSessionError {
            .actionNotClickable(label: label, notificationID: id, reason: reason, offered: offered)
        }

        // The latest Notify for this id is what is on screen (an update replaces the actions).
        let (shown, invokedBefore) = monitor.read { ($0.notifications.last { $0.id == id }, $0.invokedActions.count) }
        guard let shown else {
            throw failure("no notification with this id was observed on the bus")
        }
        guard let action = shown.action(labeled: label) else {
            let labels = shown.actions.map { "\"\($0.label)\"" }.joined(separator: ", ")
            throw failure("the notification's actions are [\(labels)]")
        }
        if try NotificationServer.isPaused(launcher: launcher, environment: environment) {
            throw failure("notifications are paused, so dunst displays none and offers no actions")
        }

        picker.reset()
        try picker.request(prefix: "#\(action.label) (", suffix: " [\(id),\(action.key)]")
        try launcher.runChecked("dunstctl", ["context"], environment: environment)

        // dunst runs the picker asynchronously, and not at all when no displayed notification
        // has an action, hence the bounded wait.
        let menuShown = Polling.until(timeout: timeout) {
            FileManager.default.fileExists(atPath: picker.doneURL.path)
        }
        guard menuShown else {
            let displayed = (try? NotificationServer.displayedCount(launcher: launcher, environment: environment))
                .map(String.init) ?? "unknown"
            throw failure("dunst did not open its context menu within \(timeout) (displayed notifications: "
                          + "\(displayed); none with actions, or the notification expired or was closed)")
        }
        let offered = (try? String(contentsOf: picker.offeredURL, encoding: .utf8))?
            .split(separator: "\n").map(String.init) ?? []
        let picked = (try? String(contentsOf: picker.pickedURL, encoding: .utf8)) ?? ""
        guard !picked.isEmpty else {
            throw failure("dunst's menu has no such line for this notification (closed or expired?)", offered: offered)
        }

        var invoked: InvokedAction?
        _ = Polling.until(timeout: timeout) {
            invoked = monitor.read { traffic in
                traffic.invokedActions.dropFirst(invokedBefore)
                    .first { $0.notificationID == id && $0.actionKey == action.key }
            }
            return invoked != nil
        }
        guard let invoked else {
            throw failure("dunst picked \"\(picked)\" but sent no ActionInvoked signal within \(timeout)",
                          offered: offered)
        }
        return invoked
    }
}
