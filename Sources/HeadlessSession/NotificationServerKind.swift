/// The notification servers a session can run (`HeadlessSession(notificationServer:)`): the real
/// server of each desktop, started headless.
public enum NotificationServerKind: String, Sendable, CaseIterable {
    /// dunst 1.9 on Xvfb; its buttons are reached through its context menu (`clickAction`).
    case dunst
    /// xfce4-notifyd 0.7 (with its settings daemon, xfconfd) on Xvfb; its buttons are clicked on
    /// screen (`clickOnScreen`).
    case xfce4Notifyd = "xfce4-notifyd"
}
