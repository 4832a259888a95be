/// The notification servers a session can run (`HeadlessSession(notificationServer:)`): the real
/// server of each desktop, started headless.
public enum NotificationServerKind: String, Sendable, CaseIterable {
    /// dunst 1.9 on Xvfb; its buttons are reached through its context menu (`clickAction`).
    case dunst
    /// xfce4-notifyd 0.7 (with its settings daemon, xfconfd) on Xvfb; its buttons are clicked on
    /// screen (`clickOnScreen`).
    case xfce4Notifyd = "xfce4-notifyd"
    /// mako 1.7 in headless sway 1.7, or in trixie's sway 1.10 on the X display (`SwayRelease`),
    /// as an unprivileged user when the tests run as root; its screen is taken with grim, and its
    /// actions are invoked with `makoctl` (mako draws no buttons).
    case mako
    /// GNOME Shell 43 on Xvfb (`--x11`) with its notification service; its banners are read
    /// and clicked on screen, its message list opened with Super+V.
    case gnomeShell = "gnome-shell"
    /// KDE Plasma 5.27's notification server (plasmashell, with kactivitymanagerd, kded5 and
    /// kglobalaccel5) on Xvfb, as an unprivileged user when the tests run as root; its popups
    /// are read and clicked on screen.
    case plasma
}
