import CGLib
import CNotify
import FoundationEssentials
import Glibc
import GLibSupport
import Synchronization
import TocsinCore

/// Makes every libnotify call, on a thread of its own, so the agent's main loop never waits on
/// the notification server.
///
/// libnotify has no asynchronous call: `notify_notification_show` and `_close` block until the
/// server answers (its own source says `TODO: make this nonblocking`), and a server redrawing many
/// countdowns, or a frozen one, answers late or not at all (libnotify then gives up after GDBus's
/// 25 s). Its D-Bus proxy is one process-wide object created by the first call, and its signals
/// (buttons, closings) arrive in the thread-default main context of the thread that created it.
/// So one thread, with a GMainContext of its own pushed before its first libnotify call, makes
/// every call and receives every signal; nothing else in the agent calls libnotify.
///
/// The main loop hands over content and returns at once. What waits is `NotificationTraffic`'s
/// business: only the newest content per notification, alerts first. The thread makes one call
/// per turn of its context, so a button pressed during a burst of countdown updates is
/// dispatched between two of them, not after the burst. A countdown's tick (only its text,
/// progress and expiry changed since it was last sent in full) does not wait for the server:
/// it goes out as the recorded call with those parts replaced (`NotificationTick`), and the next
/// notification's call follows at once; its answer finishes the job when it comes.
///
/// The main loop wakes the thread by writing to a pipe the thread's context watches, not by
/// attaching a GLib source to that context: attaching takes the context's lock and wakes the
/// thread while holding it, and the thread, woken, then slept again on that lock — one wake-up
/// more per second per countdown, seen with strace (futex waits on the context's mutex).
///
/// What differs between servers (a new notification for an alert on GNOME Shell, the payload)
/// is `NotificationServerProfile`'s; two things hold for every server: a press echoed within a
/// second is dropped, and a close right after a press is not the user's dismissal
/// (`NotificationClosing` reads each dismissal, with a press lost to an update on xfce4-notifyd).
/// On GNOME Shell 48 a notification keeps its urgency, and a countdown's banner is handed over to
/// a quiet notification once the shell lets it go (`BannerHandover`).
///
/// `@unchecked Sendable`: `shared` is behind its mutex; `notifications`, `lastPressed`,
/// `lastUpdated`, `lastLostPress`, `closedObjects`, `shownRoles`, `showings`, `serverIDsToKeep`,
/// `handover`, `serverFailing`, `connection`, `recorder` and `fullCalls` are touched on the worker
/// thread only; the rest is immutable.
final class NotificationWorker: @unchecked Sendable {
    /// What the main loop and the worker share.
    private struct Shared {
        var traffic = NotificationTraffic<UUID>()
        /// How the server is best shown to, for the payloads.
        var profile = NotificationServerProfile.unknown
        /// Counts the profile's changes: a notification shown under an earlier profile is shown
        /// under the new one as if for the first time (on GNOME Shell, a first showing pops a
        /// banner; an update, at low urgency, would not).
        var profileGeneration = 0
        /// Keys of one-off notices, forgotten once shown.
        var notices: Set<UUID> = []
        /// An idle source is attached to the worker's context and will look at the traffic.
        var scheduled = false
    }

    /// Called on the main loop with the alarm's id and the action key when a button is pressed.
    private let onAction: MainThreadOnly<(UUID, String) -> Void>
    /// Called on the main loop when the user dismissed a notification.
    private let onDismissed: MainThreadOnly<(UUID) -> Void>
    /// Called on the main loop when the server closed a notification right after one of its
    /// buttons was pressed (xfce4-notifyd does, resident or not): not the user's dismissal, but
    /// the notification is gone, and whatever it should show now must be shown anew.
    private let onClosedAfterButton: MainThreadOnly<(UUID) -> Void>
    /// Called on the main loop when the server closed a notification as dismissed just after an
    /// update, most likely on a press it lost to the update (`NotificationClosing.pressLostToUpdate`).
    private let onPressLostToUpdate: MainThreadOnly<(UUID) -> Void>
    /// Called on the main loop when GNOME Shell 48 let a notification's banner go (its transient
    /// first showing expired, `BannerHandover`): what the alarm shows now must be shown anew.
    private let onBannerGone: MainThreadOnly<(UUID) -> Void>
    /// The installed colour icon's `file://` URI, for servers that draw `app_icon` in one colour.
    private let iconFile: String?
    private let log: AgentLog
    private let appName: String
    private let context: OpaquePointer
    /// A pipe: the main loop writes a byte into the first to wake the worker, whose context
    /// watches the second.
    private let wakePipe: (write: Int32, read: Int32)
    private let shared = Mutex(Shared())
    /// Each key's libnotify notification, while it exists (worker thread only).
    private var notifications: [UUID: UnsafeMutablePointer<NotifyNotification>] = [:]
    /// When a button of each key's notification was last pressed (worker thread only).
    private var lastPressed: [UUID: ContinuousClock.Instant] = [:]
    /// When the server last answered a show of each key's notification (worker thread only).
    private var lastUpdated: [UUID: ContinuousClock.Instant] = [:]
    /// When each key's notification was last closed on a press lost to an update (worker thread only).
    private var lastLostPress: [UUID: ContinuousClock.Instant] = [:]
    /// What each key's notification was last shown as (worker thread only).
    private var shownRoles: [UUID: NotificationContent.Role] = [:]
    /// How long each key's notification has been shown under the current profile (worker thread only).
    private var showings = NotificationShowings<UUID>()
    /// The server's id of each notification the server closed right after a press, or let
    /// expire, which libnotify forgets (it sets its id to 0 after the closed signal), while the
    /// server may still show it, or show the next content under it: Plasma keeps an expired
    /// countdown in its history, where the next update must land (worker thread only).
    private var serverIDsToKeep: [UUID: Int32] = [:]
    /// Keys whose notification object libnotify has reported closed. libnotify 0.8.1 reports one
    /// closing per object: it keeps the first `closed_reason` for good and drops every later
    /// NotificationClosed (found on xfce4-notifyd, where every close after the first went
    /// unheard: a dismissal hid nothing, a lost press was never shown again). The next show of
    /// such a key makes a new object, under the server id kept for it (worker thread only).
    private var closedObjects: Set<UUID> = []
    /// The last call failed; logged once until one succeeds again (worker thread only).
    private var serverFailing = false
    /// GNOME Shell 48's banners and the quiet notifications that follow them (worker thread only).
    private var handover = BannerHandover<UUID>()
    /// The session bus connection libnotify uses, for ticks; `nil` when it could not be had
    /// (worker thread only).
    private var connection: OpaquePointer?
    /// Records the calls libnotify makes, for ticks (worker thread only).
    private var recorder: NotifyCallRecorder?
    /// Each key's last call sent in full through libnotify, and the payload it was for: what its
    /// ticks replay (worker thread only).
    private var fullCalls: [UUID: (payload: NotificationPayload, arguments: NotifyCallRecorder.Arguments)] = [:]

    /// A second press on the same notification this soon after the first is the server's echo,
    /// not a person: GNOME Shell 43 sends ActionInvoked("default") once for every Notify the
    /// notification ever got (29 signals for one click after 29 updates).
    private static let repeatedPressWindow = Duration.seconds(1)

    /// Starts the worker thread; the callbacks are called on the main loop.
    init(appName: String, log: AgentLog, onAction: @escaping (UUID, String) -> Void, onDismissed: @escaping (UUID) -> Void,
         onClosedAfterButton: @escaping (UUID) -> Void, onPressLostToUpdate: @escaping (UUID) -> Void,
         onBannerGone: @escaping (UUID) -> Void) {
        self.appName = appName
        self.log = log
        self.onAction = MainThreadOnly(onAction)
        self.onDismissed = MainThreadOnly(onDismissed)
        self.onClosedAfterButton = MainThreadOnly(onClosedAfterButton)
        self.onPressLostToUpdate = MainThreadOnly(onPressLostToUpdate)
        self.onBannerGone = MainThreadOnly(onBannerGone)
        iconFile = AppIconFile.find()
        context = g_main_context_new()
        var ends: [Int32] = [-1, -1]
        if g_unix_open_pipe(&ends, FD_CLOEXEC, nil) == 0 {
            // Out of descriptors: nothing is shown, alarms still ring.
            log.error("Notifications cannot be shown: no pipe for the notification thread (\(String(cString: strerror(errno)))).")
        }
        g_unix_set_fd_nonblocking(ends[0], 1, nil)
        g_unix_set_fd_nonblocking(ends[1], 1, nil)
        wakePipe = (write: ends[1], read: ends[0])
        let source = g_unix_fd_source_new(wakePipe.read, G_IO_IN)!
        let turn: GUnixFDSourceFunc = { _, _, userData in
            Unmanaged<NotificationWorker>.fromOpaque(userData!).takeUnretainedValue().turn()
            return SourceResult.keep
        }
        g_source_set_callback(source, unsafeBitCast(turn, to: GSourceFunc.self), Unmanaged.passUnretained(self).toOpaque(), nil)
        g_source_attach(source, context)
        g_source_unref(source)
        let thread = g_thread_new("tocsin-notify", { userData in
            Unmanaged<NotificationWorker>.fromOpaque(userData!).takeUnretainedValue().run()
            return nil
        }, Unmanaged.passRetained(self).toOpaque())
        g_thread_unref(thread)
    }

    // MARK: The main loop's side

    /// How the server is best shown to; payloads made from now on follow it.
    func setProfile(_ profile: NotificationServerProfile) {
        shared.withLock { state in
            guard state.profile != profile else { return }
            state.profile = profile
            state.profileGeneration += 1
        }
    }

    /// Shows `content` as key `id`'s notification, at `priority` among what waits.
    func show(_ content: NotificationContent, for id: UUID, priority: NotificationTraffic<UUID>.Priority) {
        submit { $0.traffic.show(content, for: id, priority: priority) }
    }

    /// Closes key `id`'s notification.
    func withdraw(_ id: UUID) {
        submit { $0.traffic.withdraw(id) }
    }

    /// Shows a one-off notice that belongs to no alarm.
    func announce(_ content: NotificationContent) {
        let id = UUID()
        submit {
            $0.notices.insert(id)
            $0.traffic.show(content, for: id, priority: .change)
        }
    }

    /// Changes the traffic and, when the worker is not already on its way, wakes it.
    private func submit(_ change: (inout Shared) -> Void) {
        let wake = shared.withLock { state -> Bool in
            change(&state)
            guard !state.scheduled, state.traffic.hasWork else { return false }
            state.scheduled = true
            return true
        }
        if wake { self.wake() }
    }

    /// Makes the worker's context dispatch `turn`: from any thread, without a GLib lock.
    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakePipe.write, &byte, 1)
    }

    // MARK: The worker thread

    private func run() {
        g_main_context_push_thread_default(context)
        if notify_init(appName) == 0 {
            log.warning("Notifications cannot be shown: libnotify could not be initialised.")
        }
        // The connection libnotify's proxy is on (both are the process's one session bus
        // connection); without it every update goes through libnotify, as ticks did before.
        if let bus = try? GLibError.check({ g_bus_get_sync(G_BUS_TYPE_SESSION, nil, $0) }) {
            connection = bus
            recorder = NotifyCallRecorder(watching: bus)
        }
        let loop = g_main_loop_new(context, 0)
        g_main_loop_run(loop)
    }

    /// Makes one call, if one waits, and wakes itself again while more wait — after the context
    /// has dispatched whatever else is ready (a button's signal).
    private func turn() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(wakePipe.read, &bytes, bytes.count) > 0 {}
        let next = shared.withLock { state -> (job: NotificationTraffic<UUID>.Job, profile: NotificationServerProfile, generation: Int)? in
            guard let job = state.traffic.next() else {
                state.scheduled = false
                return nil
            }
            return (job, state.profile, state.profileGeneration)
        }
        guard let (job, profile, generation) = next else { return }
        let sent: Sending
        switch job {
        case .show(let id, let content):
            if content.role == .alert, profile.alertNeedsNewNotification, notifications[id] != nil, shownRoles[id] != .alert {
                // Closed before the alert is shown, so the server never sees it replaced.
                _ = close(id)
            }
            let shownFor = showings.show(id, generation: generation, at: .now)
            var payload = NotificationPayload(content, profile: profile, shownFor: shownFor, iconFile: iconFile)
            guard let limit = profile.bannerHandover else {
                sent = send(payload, as: id, for: job)
                break
            }
            let live = notifications[id] != nil && !closedObjects.contains(id)
            switch handover.step(content, for: id, live: live, limit: limit, now: .now) {
            case .withhold:
                sent = .answered(succeeded: true)
            case .send(let urgency, let transient):
                payload.urgency = urgency
                payload.isTransient = transient
                sent = send(payload, as: id, for: job)
            case .replace(let urgency):
                _ = close(id)
                payload.urgency = urgency
                sent = .answered(succeeded: show(payload, as: id))
            }
        case .close(let id):
            handover.forget(id)
            sent = .answered(succeeded: close(id))
        }
        switch sent {
        case .answered(let succeeded):
            finish(job, succeeded: succeeded)
        case .awaitingAnswer:
            // The next job goes out now; this one finishes when its answer comes.
            wake()
        }
    }

    /// How a job's call went out.
    private enum Sending {
        /// The server answered (or nothing needed sending): whether it succeeded.
        case answered(succeeded: Bool)
        /// A tick is on its way; `tickAnswered` finishes the job.
        case awaitingAnswer
    }

    /// The traffic learns that `job` is done, and the worker is woken again while more waits.
    private func finish(_ job: NotificationTraffic<UUID>.Job, succeeded: Bool) {
        let (wasNotice, more) = shared.withLock { state -> (Bool, Bool) in
            state.traffic.finished(job, succeeded: succeeded)
            // A notice is not followed up: shown, it is the server's to expire.
            let wasNotice = state.notices.remove(job.key) != nil
            if wasNotice { state.traffic.forget(job.key) }
            if state.traffic.hasWork { return (wasNotice, true) }
            state.scheduled = false
            return (wasNotice, false)
        }
        if wasNotice {
            handover.forget(job.key)
            release(job.key)
        }
        if more { wake() }
    }

    /// Sends `payload` as key `id`'s notification for `job`: as a tick when it is one, else in
    /// full through libnotify.
    private func send(_ payload: NotificationPayload, as id: UUID, for job: NotificationTraffic<UUID>.Job) -> Sending {
        guard let connection, let notification = notifications[id], !closedObjects.contains(id),
              serverIDsToKeep[id] == nil, let full = fullCalls[id], payload.isTick(following: full.payload) else {
            return .answered(succeeded: show(payload, as: id))
        }
        let serverID = UInt32(bitPattern: Self.serverID(of: notification))
        guard serverID != 0,
              let arguments = NotificationTick.arguments(replaying: full.arguments, of: full.payload, as: payload, serverID: serverID) else {
            return .answered(succeeded: show(payload, as: id))
        }
        NotificationTick.send(arguments, on: connection) { [self] answer in
            tickAnswered(answer, job: job, replacing: serverID)
        }
        return .awaitingAnswer
    }

    /// The server answered key `job.key`'s tick, which replaced its notification `serverID`.
    private func tickAnswered(_ answer: Result<UInt32, BusCallFailure>, job: NotificationTraffic<UUID>.Job, replacing serverID: UInt32) {
        let id = job.key
        switch answer {
        case .success(serverID):
            lastUpdated[id] = ContinuousClock.now
            report(nil)
            finish(job, succeeded: true)
        case .success(let newID):
            report(nil)
            if let notification = notifications[id], !closedObjects.contains(id) {
                // A server that no longer knew the id (one that took over) made a new
                // notification: libnotify's show would take its id, and so does the tick, so the
                // buttons' signals still reach this notification.
                Self.setServerID(Int32(bitPattern: newID), of: notification)
                lastUpdated[id] = ContinuousClock.now
                finish(job, succeeded: true)
            } else {
                // Closed while the tick was on its way: the server made a new notification of
                // it. Where the next content was to land under the old id, it lands on this one;
                // otherwise (the user dismissed it) nothing asked for it, and it goes.
                if serverIDsToKeep[id] != nil {
                    serverIDsToKeep[id] = Int32(bitPattern: newID)
                } else {
                    BusCall.start(connection!, destination: NotificationTick.destination, path: NotificationTick.path,
                                  interface: NotificationTick.interface, method: "CloseNotification",
                                  arguments: Variant.tuple([g_variant_new_uint32(newID)]), replyType: "()", flags: G_DBUS_CALL_FLAGS_NONE,
                                  timeoutMilliseconds: NotificationTick.timeoutMilliseconds) { _ in }
                }
                finish(job, succeeded: false)
            }
        case .failure(let failure):
            // The next content goes in full, through libnotify, which says whether the server is back.
            fullCalls[id] = nil
            report(failure.description)
            finish(job, succeeded: false)
        }
    }

    /// Creates or updates key `id`'s notification to `payload` and shows it; false on failure.
    private func show(_ payload: NotificationPayload, as id: UUID) -> Bool {
        let notification: UnsafeMutablePointer<NotifyNotification>
        if closedObjects.remove(id) != nil, let closed = notifications.removeValue(forKey: id) {
            g_object_unref(closed)
        }
        if let existing = notifications[id] {
            notification = existing
            notify_notification_update(notification, payload.summary, payload.body, NotificationPayload.iconName)
        } else {
            // The icon argument is what the server gets as app_icon (libnotify 0.8.1 has no
            // notify_notification_set_app_icon yet).
            notification = notify_notification_new(payload.summary, payload.body, NotificationPayload.iconName)
            notifications[id] = notification
            let box = Unmanaged.passRetained(KeyBox(id: id, worker: self)).toOpaque()
            g_signal_connect_data(notification, "closed", unsafeBitCast(Self.closed, to: GCallback.self), box, { box, _ in
                Unmanaged<KeyBox>.fromOpaque(box!).release()
            }, GConnectFlags(rawValue: 0))
        }
        if let serverID = serverIDsToKeep.removeValue(forKey: id) {
            // Replaced under its old id, so the server keeps one notification for it.
            Self.setServerID(serverID, of: notification)
        }
        notify_notification_clear_hints(notification)
        notify_notification_clear_actions(notification)
        notify_notification_set_hint(notification, "desktop-entry", g_variant_new_string(NotificationPayload.desktopEntry))
        notify_notification_set_urgency(notification, NotifyUrgency(UInt32(payload.urgency.rawValue)))
        notify_notification_set_category(notification, payload.category)
        notify_notification_set_hint(notification, "suppress-sound", g_variant_new_boolean(payload.suppressesSound ? 1 : 0))
        if payload.isPersistent { notify_notification_set_hint(notification, "resident", g_variant_new_boolean(1)) }
        if payload.isTransient { notify_notification_set_hint(notification, "transient", g_variant_new_boolean(1)) }
        if let scope = payload.privacyScope { notify_notification_set_hint(notification, "x-gnome-privacy-scope", g_variant_new_string(scope)) }
        if let image = payload.imagePath { notify_notification_set_hint(notification, "image-path", g_variant_new_string(image)) }
        if let progress = payload.progress { notify_notification_set_hint(notification, "value", g_variant_new_int32(Int32(progress))) }
        notify_notification_set_timeout(notification, payload.expiry.timeout)
        // The click on the notification itself comes back as "default"; reported as its intent.
        let clickAndButtons = (payload.defaultAction.map { [(NotificationContent.defaultActionKey, $0)] } ?? [])
            + payload.actions.map { ($0.key, $0) }
        for (sentKey, action) in clickAndButtons {
            let box = Unmanaged.passRetained(KeyBox(id: id, worker: self, reportedKey: action.key)).toOpaque()
            notify_notification_add_action(notification, sentKey, action.label, Self.actionInvoked, box, { box in
                Unmanaged<KeyBox>.fromOpaque(box!).release()
            })
        }
        shownRoles[id] = payload.role
        let (failure, recorded) = recordingCalls { () -> String? in
            do throws(GLibError) {
                return try GLibError.check { notify_notification_show(notification, $0) } != 0 ? nil : "no reason given"
            } catch {
                return error.message
            }
        }
        let shown = failure == nil
        fullCalls[id] = shown ? recorded.map { (payload, $0) } : nil
        if shown { lastUpdated[id] = ContinuousClock.now }
        report(failure)
        return shown
    }

    /// Calls `call`, recording the `Notify` call libnotify makes during it, if the recorder runs.
    private func recordingCalls<Result>(_ call: () -> Result) -> (Result, NotifyCallRecorder.Arguments?) {
        guard let recorder else { return (call(), nil) }
        return recorder.recording(call)
    }

    /// Closes key `id`'s notification and lets it go.
    private func close(_ id: UUID) -> Bool {
        guard let notification = notifications[id] else { return true }
        // A failure (the server is gone) takes the notification along all the same.
        _ = try? GLibError.check { notify_notification_close(notification, $0) }
        release(id)
        return true
    }

    /// Drops key `id`'s notification object (its signal handlers go with it).
    private func release(_ id: UUID) {
        lastPressed[id] = nil
        lastUpdated[id] = nil
        lastLostPress[id] = nil
        serverIDsToKeep[id] = nil
        closedObjects.remove(id)
        shownRoles[id] = nil
        fullCalls[id] = nil
        showings.forget(id)
        guard let notification = notifications.removeValue(forKey: id) else { return }
        g_object_unref(notification)
    }

    private func report(_ failure: String?) {
        if let failure {
            if !serverFailing {
                log.warning("Could not show a notification: \(failure). Alarms still ring; stop them with “tocsin stop”.")
            }
            serverFailing = true
        } else if serverFailing {
            serverFailing = false
            log.info("The notification server answers again.")
        }
    }

    /// A button was pressed (libnotify calls this on the worker thread).
    private static let actionInvoked: NotifyActionCallback = { _, _, userData in
        let box = Unmanaged<KeyBox>.fromOpaque(userData!).takeUnretainedValue()
        let (id, key, onAction) = (box.id, box.reportedKey, box.worker.onAction)
        let now = ContinuousClock.now
        if let previous = box.worker.lastPressed[id], now - previous < repeatedPressWindow { return }
        box.worker.lastPressed[id] = now
        MainLoop.post { onAction.value(id, key) }
    }

    /// The server closed a notification: the user dismissed it, it expired, or Tocsin closed it.
    private static let closed: @convention(c) (UnsafeMutablePointer<NotifyNotification>?, gpointer?) -> Void = { notification, userData in
        let box = Unmanaged<KeyBox>.fromOpaque(userData!).takeUnretainedValue()
        let worker = box.worker, id = box.id
        let reason = notify_notification_get_closed_reason(notification)
        worker.shared.withLock { $0.traffic.forget(id) }
        worker.closedObjects.insert(id)
        let expired = reason == Int32(NOTIFY_CLOSED_REASON_EXPIRED.rawValue)
        if worker.handover.gone(id), expired {
            // GNOME Shell 48 let the banner go: shown anew, quietly, as a new notification.
            let onBannerGone = worker.onBannerGone
            MainLoop.post { onBannerGone.value(id) }
            return
        }
        if expired {
            worker.serverIDsToKeep[id] = serverID(of: notification)
        }
        guard reason == Int32(NOTIFY_CLOSED_REASON_DISMISSED.rawValue) else { return }
        let now = ContinuousClock.now
        let reading = NotificationClosing.reading(
            sincePress: worker.lastPressed.removeValue(forKey: id).map { now - $0 },
            sinceUpdate: worker.lastUpdated[id].map { now - $0 },
            sinceLostPress: worker.lastLostPress[id].map { now - $0 },
            lostPressWindow: worker.shared.withLock { $0.profile.pressesLostToUpdates })
        switch reading {
        case .afterPress:
            worker.serverIDsToKeep[id] = serverID(of: notification)
            // The action's own effects are posted first: this follows them.
            let onClosedAfterButton = worker.onClosedAfterButton
            MainLoop.post { onClosedAfterButton.value(id) }
        case .pressLostToUpdate:
            worker.lastLostPress[id] = now
            worker.serverIDsToKeep[id] = serverID(of: notification)
            let onPressLostToUpdate = worker.onPressLostToUpdate
            MainLoop.post { onPressLostToUpdate.value(id) }
        case .dismissedByUser:
            let onDismissed = worker.onDismissed
            MainLoop.post { onDismissed.value(id) }
        }
    }
}

extension NotificationWorker {
    /// The `id` property of a libnotify notification: the server's id (0 before it was shown).
    fileprivate static func serverID(of notification: UnsafeMutablePointer<NotifyNotification>?) -> Int32 {
        var value = GValue()
        g_value_init(&value, gIntType)
        defer { g_value_unset(&value) }
        g_object_get_property(UnsafeMutableRawPointer(notification)?.assumingMemoryBound(to: GObject.self), "id", &value)
        return g_value_get_int(&value)
    }

    fileprivate static func setServerID(_ id: Int32, of notification: UnsafeMutablePointer<NotifyNotification>) {
        var value = GValue()
        g_value_init(&value, gIntType)
        defer { g_value_unset(&value) }
        g_value_set_int(&value, id)
        g_object_set_property(UnsafeMutableRawPointer(notification).assumingMemoryBound(to: GObject.self), "id", &value)
    }

    /// G_TYPE_INT, a macro Swift does not import: fundamental type 6, shifted by G_TYPE_FUNDAMENTAL_SHIFT.
    private static let gIntType = GType(6 << 2)
}

/// The key a libnotify callback is about, the worker it reports to, and (for an action) the
/// key it reports.
private final class KeyBox {
    let id: UUID
    unowned let worker: NotificationWorker
    let reportedKey: String
    init(id: UUID, worker: NotificationWorker, reportedKey: String = "") {
        self.id = id
        self.worker = worker
        self.reportedKey = reportedKey
    }
}
