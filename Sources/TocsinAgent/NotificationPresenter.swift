import CGLib
import Foundation
import GLibSupport
import TocsinCore

/// Shows alarms as desktop notifications: one notification per alarm, replaced in place (same
/// server id) each time its content changes, and reports button presses back.
///
/// It speaks the freedesktop Notifications protocol over GDBus *asynchronously*. libnotify's
/// `notify_notification_show` waits for the server's reply, and a server redrawing dozens of
/// live countdowns answers slowly: with sixty countdowns on dunst the agent spent whole seconds
/// per second waiting, and D-Bus clients timed out. Here the main loop never waits: each
/// notification has at most one call in flight, and while it is, only the newest content is kept
/// to send next — a slow server sees fewer updates instead of slowing the agent.
///
/// A missing or crashed notification server never stops the agent: the failure is logged once,
/// and the next update tries again.
final class NotificationPresenter {
    /// Called with the alarm's id and the action key when a button is pressed.
    var onAction: (UUID, String) -> Void = { _, _ in }
    /// Called when the user dismissed an alarm's notification (closed it without a button).
    var onDismissed: (UUID) -> Void = { _ in }
    /// What the current notification server can do (`NotificationServerMonitor` keeps it up to
    /// date): servers that read markup get bodies escaped, servers without buttons get the
    /// command-line hint instead.
    var serverCapabilities: Set<String> = ["actions", "body-markup"]

    /// One alarm's notification and the call traffic for it.
    private struct Entry {
        /// The id the server gave it, once known.
        var serverID: UInt32?
        /// A Notify call is on its way.
        var inFlight = false
        /// The newest content not sent yet (sent when the call in flight returns).
        var pending: NotificationContent?
        /// The alarm's notification should go: close it once its id is known.
        var withdrawn = false
    }

    private let log: AgentLog
    private let appName: String
    private let connection: OpaquePointer?
    private var entries: [UUID: Entry] = [:]
    private var alarmsByServerID: [UInt32: UUID] = [:]
    private var subscriptions: [guint] = []
    private var serverFailing = false

    private static let name = "org.freedesktop.Notifications"
    private static let path = "/org/freedesktop/Notifications"
    /// Reason code the Notifications spec gives a notification the user dismissed.
    private static let dismissedByUser: UInt32 = 2

    /// A presenter showing notifications as `appName`.
    init(appName: String, log: AgentLog) {
        self.appName = appName
        self.log = log
        var error: UnsafeMutablePointer<GError>?
        connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error)
        if let error {
            log.warning("Notifications cannot be shown: \(GLibError(consuming: error).message)")
            return
        }
        let userData = Unmanaged.passUnretained(self).toOpaque()
        for signal in ["ActionInvoked", "NotificationClosed"] {
            subscriptions.append(g_dbus_connection_signal_subscribe(
                connection, Self.name, Self.name, signal, Self.path, nil, G_DBUS_SIGNAL_FLAGS_NONE,
                { _, _, _, _, signalName, parameters, userData in
                    let presenter = Unmanaged<NotificationPresenter>.fromOpaque(userData!).takeUnretainedValue()
                    presenter.received(String(cString: signalName!), parameters!)
                }, userData, nil))
        }
    }

    deinit {
        for subscription in subscriptions { g_dbus_connection_signal_unsubscribe(connection, subscription) }
    }

    /// Shows `content` for alarm `id`, replacing what it showed before.
    func show(_ content: NotificationContent, for id: UUID) {
        var entry = entries[id] ?? Entry()
        entry.withdrawn = false
        if entry.inFlight {
            entry.pending = content
            entries[id] = entry
            return
        }
        entry.inFlight = true
        entries[id] = entry
        send(content, replacing: entry.serverID ?? 0, alarm: id)
    }

    /// Removes alarm `id`'s notification from the screen.
    func withdraw(_ id: UUID) {
        guard var entry = entries[id] else { return }
        if entry.inFlight {
            // Its id is not known yet: close it when the Notify call returns.
            entry.withdrawn = true
            entry.pending = nil
            entries[id] = entry
            return
        }
        entries[id] = nil
        if let serverID = entry.serverID {
            alarmsByServerID[serverID] = nil
            close(serverID)
        }
    }

    /// Shows a one-off notice that belongs to no alarm (it expires as the server decides).
    func announce(_ content: NotificationContent) {
        send(content, replacing: 0, alarm: nil)
    }

    // MARK: Calls

    private func send(_ content: NotificationContent, replacing serverID: UInt32, alarm: UUID?) {
        guard let connection else { return }
        let reply = Box(alarm: alarm, presenter: self)
        g_dbus_connection_call(
            connection, Self.name, Self.path, Self.name, "Notify", arguments(for: content, replacing: serverID),
            Variant.type("(u)"), G_DBUS_CALL_FLAGS_NONE, 10_000, nil,
            { source, result, userData in
                let box = Unmanaged<Box>.fromOpaque(userData!).takeRetainedValue()
                var error: UnsafeMutablePointer<GError>?
                let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error)
                box.presenter.notified(box.alarm, reply: reply, error: error)
            }, Unmanaged.passRetained(reply).toOpaque())
    }

    /// A Notify call returned: record the id, then send what waited, or close what was withdrawn.
    private func notified(_ alarm: UUID?, reply: OpaquePointer?, error: UnsafeMutablePointer<GError>?) {
        var serverID: UInt32?
        if let reply {
            let value = Variant.child(reply, 0)
            serverID = g_variant_get_uint32(value)
            g_variant_unref(value)
            g_variant_unref(reply)
            if serverFailing {
                serverFailing = false
                log.info("The notification server answers again.")
            }
        } else {
            let message = error.map { GLibError(consuming: $0).message } ?? "no reply"
            if !serverFailing {
                log.warning("Could not show a notification: \(message). Alarms still ring; stop them with “tocsin stop”.")
            }
            serverFailing = true
        }
        guard let alarm, var entry = entries[alarm] else {
            // A notice, or an alarm withdrawn meanwhile and already forgotten.
            return
        }
        entry.inFlight = false
        if let serverID {
            if let old = entry.serverID, old != serverID { alarmsByServerID[old] = nil }
            entry.serverID = serverID
            alarmsByServerID[serverID] = alarm
        }
        if entry.withdrawn {
            entries[alarm] = Entry(inFlight: false, withdrawn: true)
            withdraw(alarm)
            return
        }
        entries[alarm] = entry
        if let pending = entry.pending {
            entries[alarm]?.pending = nil
            show(pending, for: alarm)
        }
    }

    private func close(_ serverID: UInt32) {
        guard let connection else { return }
        g_dbus_connection_call(connection, Self.name, Self.path, Self.name, "CloseNotification",
                               Variant.tuple([g_variant_new_uint32(serverID)]), nil, G_DBUS_CALL_FLAGS_NONE, 10_000, nil,
                               { source, result, _ in
                                   // The server may be gone, which took the notification with it.
                                   var error: UnsafeMutablePointer<GError>?
                                   if let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, &error) { g_variant_unref(reply) }
                                   if let error { g_error_free(error) }
                               }, nil)
    }

    /// The `Notify` arguments: `(susssasa{sv}i)`.
    private func arguments(for content: NotificationContent, replacing serverID: UInt32) -> OpaquePointer {
        var body = content.body
        if !serverCapabilities.contains("actions"), !content.actions.isEmpty, let hint = content.commandLineHint {
            body += "\n" + hint
        }
        let actions: [OpaquePointer?] = content.actions.flatMap { [g_variant_new_string($0.key), g_variant_new_string($0.label)] }
        let actionArray = actions.withUnsafeBufferPointer { g_variant_new_array(Variant.type("s"), $0.baseAddress, gsize($0.count))! }
        var hints: [(String, OpaquePointer)] = [
            ("urgency", g_variant_new_byte(guchar(content.urgency.rawValue))),
            // Tocsin rings itself through libcanberra; a server sound on top would double it.
            ("suppress-sound", g_variant_new_boolean(1)),
            ("category", g_variant_new_string(content.urgency == .critical ? "x-tocsin.alarm" : "x-tocsin.timer")),
        ]
        if content.isPersistent { hints.append(("resident", g_variant_new_boolean(1))) }
        if let progress = content.progress { hints.append(("value", g_variant_new_int32(Int32(progress)))) }
        let entries: [OpaquePointer?] = hints.map { g_variant_new_dict_entry(g_variant_new_string($0.0), g_variant_new_variant($0.1)) }
        let hintDictionary = entries.withUnsafeBufferPointer { g_variant_new_array(Variant.type("{sv}"), $0.baseAddress, gsize($0.count))! }
        return Variant.tuple([
            g_variant_new_string(appName), g_variant_new_uint32(serverID), g_variant_new_string(""),
            g_variant_new_string(content.summary), g_variant_new_string(bodyText(body)),
            actionArray, hintDictionary,
            g_variant_new_int32(content.isPersistent ? 0 : -1),  // 0: never expires; -1: the server decides
        ])
    }

    /// The body as the server should receive it: servers that read markup get it escaped, so a
    /// title such as "<b>Tea</b>" is shown as written.
    private func bodyText(_ text: String) -> String {
        guard serverCapabilities.contains("body-markup"), let escaped = g_markup_escape_text(text, -1) else { return text }
        defer { g_free(escaped) }
        return String(cString: escaped)
    }

    // MARK: Signals

    private func received(_ signal: String, _ parameters: OpaquePointer) {
        let idValue = Variant.child(parameters, 0)
        let serverID = g_variant_get_uint32(idValue)
        g_variant_unref(idValue)
        guard let alarm = alarmsByServerID[serverID] else { return }
        switch signal {
        case "ActionInvoked":
            onAction(alarm, Variant.string(in: parameters, at: 1))
        default:
            let reasonValue = Variant.child(parameters, 1)
            let reason = g_variant_get_uint32(reasonValue)
            g_variant_unref(reasonValue)
            // The server forgot it: the next update creates a new notification.
            alarmsByServerID[serverID] = nil
            if entries[alarm]?.serverID == serverID { entries[alarm]?.serverID = nil }
            if reason == Self.dismissedByUser { onDismissed(alarm) }
        }
    }

    /// Carries a call's alarm to its reply callback.
    private final class Box {
        let alarm: UUID?
        let presenter: NotificationPresenter
        init(alarm: UUID?, presenter: NotificationPresenter) {
            self.alarm = alarm
            self.presenter = presenter
        }
    }
}
