import FoundationEssentials

extension NotificationPayload {
    /// Whether this payload changes only what a countdown's every second changes since
    /// `previous`, the payload last sent in full for the same notification: the summary, the
    /// body, the progress's value and the expiry. Such a payload is a tick, which the presenter
    /// sends without waiting for the server's answer, by replacing these parts in the call last
    /// made in full (`NotificationTick`); anything else (the buttons, the urgency, a hint that
    /// comes or goes) is sent in full.
    public func isTick(following previous: NotificationPayload) -> Bool {
        role == previous.role
            && actions == previous.actions
            && defaultAction == previous.defaultAction
            && urgency == previous.urgency
            && category == previous.category
            && isPersistent == previous.isPersistent
            && isTransient == previous.isTransient
            && imagePath == previous.imagePath
            && privacyScope == previous.privacyScope
            && (progress == nil) == (previous.progress == nil)
    }
}
