import CGLibNotify
import Foundation
import GLibSupport
import TocsinCore

/// Shows alarms as desktop notifications through libnotify: one notification per alarm, replaced
/// in place (same server id) each time its content changes, and reports button presses back.
///
/// A missing or crashed notification server never stops the agent: the failure is logged once,
/// and the next update tries again.
final class NotificationPresenter {
    /// Called with the alarm's id and the action key when a button is pressed.
    var onAction: (UUID, String) -> Void = { _, _ in }
    /// Called when the user dismissed an alarm's notification (closed it without a button).
    var onDismissed: (UUID) -> Void = { _ in }

    private let log: AgentLog
    private var notifications: [UUID: UnsafeMutablePointer<NotifyNotification>] = [:]
    private var serverFailing = false
    /// What the current notification server can do (`NotificationServerMonitor` keeps it up to
    /// date): servers that read markup get bodies escaped, servers without buttons get the
    /// command-line hint instead.
    var serverCapabilities: Set<String> = ["actions", "body-markup"]

    /// Reason code the Notifications spec gives a notification the user dismissed.
    private static let dismissedByUser: gint = 2

    /// A presenter for the application name `appName`.
    init(appName: String, log: AgentLog) {
        self.log = log
        notify_init(appName)
    }

    deinit {
        for notification in notifications.values {
            g_object_unref(UnsafeMutableRawPointer(notification))
        }
        notify_uninit()
    }

    /// Shows `content` for alarm `id`, replacing what it showed before.
    func show(_ content: NotificationContent, for id: UUID) {
        let notification = notifications[id] ?? makeNotification(for: id)
        apply(content, to: notification)
        display(notification, what: "the notification of \(id.uuidString.lowercased())")
    }

    /// Removes alarm `id`'s notification from the screen.
    func withdraw(_ id: UUID) {
        guard let notification = notifications.removeValue(forKey: id) else { return }
        var error: UnsafeMutablePointer<GError>?
        notify_notification_close(notification, &error)
        if let error {
            // Typically the server is gone, which took the notification with it.
            log.info("Closing a notification failed: \(GLibError(consuming: error).message)")
        }
        g_object_unref(UnsafeMutableRawPointer(notification))
    }

    /// Shows a one-off notice that belongs to no alarm (it expires as the server decides).
    func announce(_ content: NotificationContent) {
        let notification = notify_notification_new(content.summary, nil, nil)!
        apply(content, to: notification)
        display(notification, what: "a notice")
        g_object_unref(UnsafeMutableRawPointer(notification))
    }

    private func makeNotification(for id: UUID) -> UnsafeMutablePointer<NotifyNotification> {
        let notification = notify_notification_new("", nil, nil)!
        notifications[id] = notification
        g_signal_connect_data(
            UnsafeMutableRawPointer(notification), "closed",
            unsafeBitCast(Self.closedCallback, to: GCallback.self),
            Unmanaged.passUnretained(self).toOpaque(), nil, GConnectFlags(rawValue: 0))
        return notification
    }

    private func apply(_ content: NotificationContent, to notification: UnsafeMutablePointer<NotifyNotification>) {
        var body = content.body
        if !serverCapabilities.contains("actions"), !content.actions.isEmpty, let hint = content.commandLineHint {
            body += "\n" + hint
        }
        notify_notification_update(notification, content.summary, bodyText(body), nil)
        notify_notification_clear_hints(notification)
        notify_notification_clear_actions(notification)
        notify_notification_set_urgency(notification, NotifyUrgency(rawValue: UInt32(content.urgency.rawValue)))
        notify_notification_set_timeout(notification, content.isPersistent ? 0 : -1) // NOTIFY_EXPIRES_NEVER / _DEFAULT
        // Tocsin rings itself through libcanberra; a server sound on top would double it.
        notify_notification_set_hint(notification, "suppress-sound", g_variant_new_boolean(1))
        if content.isPersistent {
            notify_notification_set_hint(notification, "resident", g_variant_new_boolean(1))
        }
        if let progress = content.progress {
            notify_notification_set_hint(notification, "value", g_variant_new_int32(Int32(progress)))
        }
        notify_notification_set_category(notification, content.urgency == .critical ? "x-tocsin.alarm" : "x-tocsin.timer")
        for action in content.actions {
            notify_notification_add_action(
                notification, action.key, action.label, Self.actionCallback,
                Unmanaged.passUnretained(self).toOpaque(), nil)
        }
    }

    private func display(_ notification: UnsafeMutablePointer<NotifyNotification>, what: String) {
        var error: UnsafeMutablePointer<GError>?
        notify_notification_show(notification, &error)
        if let error {
            let message = GLibError(consuming: error).message
            if !serverFailing {
                log.warning("Could not show \(what): \(message). Alarms still ring; stop them with “tocsin stop”.")
            }
            serverFailing = true
        } else if serverFailing {
            serverFailing = false
            log.info("The notification server answers again.")
        }
    }

    /// The body as the server should receive it: servers that read markup get it escaped, so a
    /// title such as "<b>Tea</b>" is shown as written.
    private func bodyText(_ text: String) -> String {
        guard serverCapabilities.contains("body-markup"), let escaped = g_markup_escape_text(text, -1) else { return text }
        defer { g_free(escaped) }
        return String(cString: escaped)
    }

    private func alarmID(of notification: UnsafeMutablePointer<NotifyNotification>?) -> UUID? {
        notifications.first { $0.value == notification }?.key
    }

    private static let actionCallback: NotifyActionCallback = { notification, action, userData in
        let presenter = Unmanaged<NotificationPresenter>.fromOpaque(userData!).takeUnretainedValue()
        guard let id = presenter.alarmID(of: notification), let action else { return }
        presenter.onAction(id, String(cString: action))
    }

    private static let closedCallback: @convention(c) (UnsafeMutablePointer<NotifyNotification>?, gpointer?) -> Void = { notification, userData in
        let presenter = Unmanaged<NotificationPresenter>.fromOpaque(userData!).takeUnretainedValue()
        guard let notification, let id = presenter.alarmID(of: notification),
              notify_notification_get_closed_reason(notification) == dismissedByUser else { return }
        presenter.onDismissed(id)
    }
}
