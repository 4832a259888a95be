import FoundationEssentials
import TocsinCore

/// Shows alarms as desktop notifications, through libnotify: one notification per alarm,
/// replaced in place each time its content changes, and reports button presses back.
///
/// Every libnotify call is made by `NotificationWorker` on its own thread; this is the main
/// loop's side, which hands content over and never waits. What a slow or frozen server gets is
/// `NotificationTraffic`'s rule: only the newest content of each alarm, an alert before state
/// changes before countdown ticks. A missing or crashed notification server never stops the
/// agent: the failure is logged once, and the next content tries again.
final class NotificationPresenter {
    /// Called with the alarm's id and the action key when a button is pressed.
    var onAction: (UUID, String) -> Void = { _, _ in }
    /// Called when the user dismissed an alarm's notification (closed it without a button).
    var onDismissed: (UUID) -> Void = { _ in }
    /// Called when the server closed a notification right after a button press on it.
    var onClosedAfterButton: (UUID) -> Void = { _ in }
    /// Called when the server closed a notification as dismissed just after an update: most
    /// likely a press it lost to the update (xfce4-notifyd), not the user's dismissal.
    var onPressLostToUpdate: (UUID) -> Void = { _ in }
    /// Called when GNOME Shell 48 let a notification's banner go, and took the notification with
    /// it: what the alarm shows now is shown anew, quietly, in the message list.
    var onBannerGone: (UUID) -> Void = { _ in }
    /// How the current notification server is best shown to (`NotificationServerMonitor` keeps
    /// it up to date): what `NotificationPayload` sends it follows this.
    var serverProfile = NotificationServerProfile.unknown {
        didSet { worker.setProfile(serverProfile) }
    }

    private var worker: NotificationWorker!

    /// A presenter showing notifications as `appName`.
    init(appName: String, log: AgentLog) {
        worker = NotificationWorker(
            appName: appName, log: log,
            onAction: { [unowned self] id, key in onAction(id, key) },
            onDismissed: { [unowned self] id in onDismissed(id) },
            onClosedAfterButton: { [unowned self] id in onClosedAfterButton(id) },
            onPressLostToUpdate: { [unowned self] id in onPressLostToUpdate(id) },
            onBannerGone: { [unowned self] id in onBannerGone(id) })
    }

    /// Shows `content` for alarm `id`, replacing what it showed before; a ringing alarm's goes
    /// ahead of everything waiting.
    func show(_ content: NotificationContent, for id: UUID) {
        worker.show(content, for: id, priority: content.urgency == .critical ? .alert : .change)
    }

    /// Shows a countdown's per-second `content`, behind every change that waits.
    func showCountdown(_ content: NotificationContent, for id: UUID) {
        worker.show(content, for: id, priority: .tick)
    }

    /// Removes alarm `id`'s notification from the screen.
    func withdraw(_ id: UUID) {
        worker.withdraw(id)
    }

    /// Shows a one-off notice that belongs to no alarm (it expires as the server decides).
    func announce(_ content: NotificationContent) {
        worker.announce(content)
    }
}
