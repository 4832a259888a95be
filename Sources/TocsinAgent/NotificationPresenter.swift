import CGLib
import FoundationEssentials
import GLibSupport
import TocsinCore

/// Shows alarms as desktop notifications: one notification per alarm, replaced in place (same
/// server id) each time its content changes, and reports button presses back.
///
/// It speaks the freedesktop Notifications protocol *asynchronously*, on a `DirectBusConnection`
/// of its own. libnotify's `notify_notification_show` waits for the server's reply, and a server
/// redrawing dozens of live countdowns answers slowly: with sixty countdowns on dunst the agent
/// spent whole seconds per second waiting, and D-Bus clients timed out. Here the main loop never
/// waits: a notification's first Notify call asks for the server's id, and while it is in flight
/// only the newest content is kept to send next; once the id is known, updates replace it without
/// asking for a reply — the per-second countdown updates wake neither the agent nor a thread.
///
/// A server that forgets a notification says so (NotificationClosed), and a new server is seen
/// by its name changing owner; either way the next update asks for a new id.
///
/// Updates without replies need another brake for a slow server, or they would pile up in the
/// bus daemon's queue to it — ahead of the alert of a timer that rings. After each batch of
/// countdown updates the presenter asks the server a cheap question on a second connection whose
/// input it does not watch, and reads the answer at the next batch: until it is in, the server is
/// behind, and countdown updates wait (only the newest kept). So a slow server gets fewer
/// updates, and the answer costs no wake-up.
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
    private let connection: DirectBusConnection?
    /// Carries the question after each batch; read only at the next batch (see above).
    private let probe: DirectBusConnection?
    /// When the last question was sent, while its answer is not in: the server is behind.
    private var probeSentAt: Date?
    /// Countdown updates held back while the server is behind, newest only.
    private var deferredCountdowns: [UUID: NotificationContent] = [:]
    /// Whether the current batch sent any update, so a question is worth asking.
    private var batchSentUpdates = false
    /// How long an unanswered question holds updates back before the presenter stops waiting.
    static let probePatience = 10.0
    private var entries: [UUID: Entry] = [:]
    private var alarmsByServerID: [UInt32: UUID] = [:]
    /// The unique bus name of the notification server, the only sender whose signals count.
    private var serverOwner: String?
    private var serverFailing = false

    private static let name = "org.freedesktop.Notifications"
    private static let path = "/org/freedesktop/Notifications"
    /// Reason code the Notifications spec gives a notification the user dismissed.
    private static let dismissedByUser: UInt32 = 2

    /// A presenter showing notifications as `appName`.
    init(appName: String, log: AgentLog) {
        self.appName = appName
        self.log = log
        do {
            connection = try DirectBusConnection()
        } catch {
            log.warning("Notifications cannot be shown: \(error.message)")
            connection = nil
            probe = nil
            return
        }
        // Without it updates simply go unbraked, as they would with a fast server.
        probe = try? DirectBusConnection(watchInput: false)
        connection?.onSignal = { [unowned self] signal in received(signal) }
        connection?.addMatch("type='signal',sender='\(Self.name)',interface='\(Self.name)',path='\(Self.path)'")
        connection?.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.name)'")
        connection?.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner",
                         Variant.tuple([g_variant_new_string(Self.name)])) { [weak self] result in
            guard case .success(let reply?) = result else { return }
            defer { g_variant_unref(reply) }
            // A NameOwnerChanged that came first already knows better.
            if self?.serverOwner == nil { self?.serverOwner = Variant.string(in: reply, at: 0) }
        }
    }

    // MARK: Countdown batches

    /// Starts a batch of per-second countdown updates: reads the answer to the last batch's
    /// question, to know whether the server has caught up.
    func beginCountdownBatch(now: Date = Date()) {
        batchSentUpdates = false
        probe?.readPending()
        if let sent = probeSentAt, now.timeIntervalSince(sent) > Self.probePatience || probe?.failure != nil {
            // Lost with a server that went away, or a server that never answers: stop waiting.
            probeSentAt = nil
        }
    }

    /// Shows a countdown's per-second `content`: at once while the server keeps up, else held
    /// back (replacing what was held) until it has caught up.
    func showCountdown(_ content: NotificationContent, for id: UUID) {
        guard probeSentAt == nil else {
            deferredCountdowns[id] = content
            return
        }
        batchSentUpdates = true
        show(content, for: id)
    }

    /// Ends a batch: once the server has caught up, sends what was held back and not replaced
    /// in this batch, then asks the question whose answer the next batch reads.
    func endCountdownBatch(now: Date = Date()) {
        guard probeSentAt == nil else { return }
        let held = deferredCountdowns
        for (id, content) in held { showCountdown(content, for: id) }
        guard batchSentUpdates, let probe else { return }
        probeSentAt = now
        // No timer: the answer is read at the next batch, and `probePatience` covers one that
        // never comes; a timer would wake the agent after the last countdown ended.
        probe.call(Self.name, Self.path, Self.name, "GetServerInformation", nil, timeout: nil) { [weak self] result in
            if case .success(let reply?) = result { g_variant_unref(reply) }
            self?.probeSentAt = nil
        }
    }

    // MARK: Showing

    /// Shows `content` for alarm `id`, replacing what it showed before (and any countdown update
    /// held back for it).
    func show(_ content: NotificationContent, for id: UUID) {
        deferredCountdowns[id] = nil
        var entry = entries[id] ?? Entry()
        entry.withdrawn = false
        if entry.inFlight {
            entry.pending = content
            entries[id] = entry
            return
        }
        if let serverID = entry.serverID {
            entries[id] = entry
            connection?.call(Self.name, Self.path, Self.name, "Notify", arguments(for: content, replacing: serverID))
            return
        }
        entry.inFlight = true
        entries[id] = entry
        send(content, replacing: 0, alarm: id)
    }

    /// Removes alarm `id`'s notification from the screen.
    func withdraw(_ id: UUID) {
        deferredCountdowns[id] = nil
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

    /// Sends a Notify call that asks for the server's id.
    private func send(_ content: NotificationContent, replacing serverID: UInt32, alarm: UUID?) {
        guard let connection else { return }
        connection.call(Self.name, Self.path, Self.name, "Notify", arguments(for: content, replacing: serverID)) { [weak self] result in
            self?.notified(alarm, result: result)
        }
    }

    /// A Notify call returned: record the id, then send what waited, or close what was withdrawn.
    private func notified(_ alarm: UUID?, result: Result<OpaquePointer?, GLibError>) {
        var serverID: UInt32?
        switch result {
        case .success(let reply?) where g_variant_is_of_type(reply, Variant.type("(u)")) != 0:
            let value = Variant.child(reply, 0)
            serverID = g_variant_get_uint32(value)
            g_variant_unref(value)
            g_variant_unref(reply)
            if serverFailing {
                serverFailing = false
                log.info("The notification server answers again.")
            }
        case .success(let reply):
            if let reply { g_variant_unref(reply) }
            if !serverFailing {
                log.warning("Could not show a notification: the server's answer to Notify was not an id. Alarms still ring; stop them with “tocsin stop”.")
            }
            serverFailing = true
        case .failure(let error):
            let message = error.message
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
        // No reply wanted: a server that is gone took the notification with it.
        connection?.call(Self.name, Self.path, Self.name, "CloseNotification", Variant.tuple([g_variant_new_uint32(serverID)]))
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

    private func received(_ signal: DirectBusConnection.Signal) {
        guard let parameters = signal.body else { return }
        // The bus daemon stamps every message with its true sender, so a signal claiming to be
        // the bus's, or the server's, from anyone else is ignored: it could otherwise press Stop.
        if signal.member == "NameOwnerChanged", signal.interface == "org.freedesktop.DBus" {
            guard signal.sender == "org.freedesktop.DBus" else { return }
            guard g_variant_is_of_type(parameters, Variant.type("(sss)")) != 0, Variant.string(in: parameters, at: 0) == Self.name else { return }
            let newOwner = Variant.string(in: parameters, at: 2)
            serverOwner = newOwner.isEmpty ? nil : newOwner
            // Another server (or none) knows none of the ids: the next update of each asks anew.
            alarmsByServerID = [:]
            for id in entries.keys { entries[id]?.serverID = nil }
            probeSentAt = nil
            return
        }
        // Only the server's own signals count: anyone could send this connection an ActionInvoked.
        guard signal.interface == Self.name, signal.sender == serverOwner,
              g_variant_is_of_type(parameters, Variant.type(signal.member == "ActionInvoked" ? "(us)" : "(uu)")) != 0 else { return }
        let idValue = Variant.child(parameters, 0)
        let serverID = g_variant_get_uint32(idValue)
        g_variant_unref(idValue)
        guard let alarm = alarmsByServerID[serverID] else { return }
        switch signal.member {
        case "ActionInvoked":
            onAction(alarm, Variant.string(in: parameters, at: 1))
        case "NotificationClosed":
            let reasonValue = Variant.child(parameters, 1)
            let reason = g_variant_get_uint32(reasonValue)
            g_variant_unref(reasonValue)
            // The server forgot it: the next update creates a new notification.
            alarmsByServerID[serverID] = nil
            if entries[alarm]?.serverID == serverID { entries[alarm]?.serverID = nil }
            if reason == Self.dismissedByUser { onDismissed(alarm) }
        default:
            break
        }
    }
}
