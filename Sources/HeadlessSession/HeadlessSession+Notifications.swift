import Foundation

extension HeadlessSession {
    /// Every Notify call the notification server answered, in the order they were sent, with the
    /// id it returned. An update (replaces id) appears as a further entry with the same id.
    public func notifications() -> [ObservedNotification] {
        monitor.read(\.notifications)
    }

    /// Waits for a notification matching `predicate` — including one that arrived before the call —
    /// and returns the earliest such. Throws `notificationTimedOut` listing what was seen.
    public func waitForNotification(
        timeout: Duration,
        where predicate: (ObservedNotification) -> Bool
    ) throws -> ObservedNotification {
        var match: ObservedNotification?
        _ = Polling.until(timeout: timeout) {
            match = monitor.read { $0.notifications.first(where: predicate) }
            return match != nil
        }
        if let match { return match }
        throw HeadlessSessionError.notificationTimedOut(
            timeout: timeout, observedSummaries: notifications().map { "#\($0.id) \($0.summary)" })
    }

    /// Ids of notifications that went away — closed by a `CloseNotification` call or reported by
    /// a `NotificationClosed` signal — each once, in the order first seen.
    public func closedNotificationIDs() -> [UInt32] {
        var seen = Set<UInt32>()
        return notificationClosures().map(\.id).filter { seen.insert($0).inserted }
    }

    /// Every `CloseNotification` call and `NotificationClosed` signal, in order, with the reason.
    public func notificationClosures() -> [NotificationClosure] {
        monitor.read(\.closures)
    }

    /// Waits until notification `id` has gone away (call or signal) and returns the first sign of it.
    public func waitForNotificationClosed(id: UInt32, timeout: Duration) throws -> NotificationClosure {
        var closure: NotificationClosure?
        _ = Polling.until(timeout: timeout) {
            closure = monitor.read { $0.closures.first { $0.id == id } }
            return closure != nil
        }
        if let closure { return closure }
        throw HeadlessSessionError.notificationNotClosed(id: id, timeout: timeout)
    }

    /// Every `ActionInvoked` signal the notification server sent, in order.
    public func invokedActions() -> [InvokedAction] {
        monitor.read(\.invokedActions)
    }

    /// Notify calls the server answered with an error (normally none).
    public func rejectedNotifications() -> [String] {
        monitor.read(\.rejectedCalls)
    }

    /// Clicks the action button labelled `label` (e.g. "Pause") on notification `id`, as a user
    /// would, through dunst's context menu; works with any number of notifications on screen.
    /// Returns once dunst has sent `ActionInvoked`. Throws `actionNotClickable` with what dunst
    /// offered when the action is not on screen (unknown label, notification closed or expired,
    /// notifications paused).
    @discardableResult
    public func clickAction(label: String, onNotification id: UInt32, timeout: Duration = .seconds(5)) throws -> InvokedAction {
        try ensureRunning()
        guard let clicker else {
            throw HeadlessSessionError.actionNotClickable(
                label: label, notificationID: id, reason: "\(notificationServer.rawValue) has no context menu: use clickOnScreen", offered: [])
        }
        return try clicker.click(label: label, notificationID: id, timeout: timeout)
    }

    /// Turns the notification server's own do-not-disturb on or off, as its user would: dunst
    /// paused, xfce4-notifyd's `/do-not-disturb` setting.
    public func setDoNotDisturb(_ on: Bool) throws {
        try ensureRunning()
        try NotificationServer.setDoNotDisturb(on, kind: notificationServer, launcher: launcher, environment: environment)
    }

    /// Starts dunst again, with the session's configuration, once the one the session started
    /// has been ended (a notification server that comes after its clients); returns when it owns
    /// org.freedesktop.Notifications. Only for a dunst session: its clicker drives dunst's menu.
    public func startDunstAgain() throws {
        try ensureRunning()
        guard notificationServer == .dunst else {
            throw HeadlessSessionError.componentFailed(component: notificationServer.rawValue,
                                                       reason: "only dunst can be started again", stderrTail: "")
        }
        _ = try NotificationServer.start(.dunst, launcher: launcher, environment: environment)
    }

    /// Pauses (do-not-disturb) or resumes dunst (`dunstctl set-paused`). While paused dunst hides
    /// every notification, critical ones included, but still answers Notify with an id.
    public func setNotificationsPaused(_ paused: Bool) throws {
        try ensureRunning()
        try NotificationServer.setPaused(paused, launcher: launcher, environment: environment)
    }

    /// Whether dunst is paused.
    public func notificationsPaused() throws -> Bool {
        try ensureRunning()
        return try NotificationServer.isPaused(launcher: launcher, environment: environment)
    }

    /// How many notifications dunst shows right now (0 while paused).
    public func displayedNotificationCount() throws -> Int {
        try ensureRunning()
        return try NotificationServer.displayedCount(launcher: launcher, environment: environment)
    }
}
