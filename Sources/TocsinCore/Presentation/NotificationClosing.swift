/// What a notification closed "dismissed by the user" (reason 2) is taken for: not every such
/// closing is the user's dismissal, and each reading asks something else of the agent.
public enum NotificationClosing: Equatable, Sendable {
    /// The server's own close right after a button press: xfce4-notifyd closes a notification
    /// after every press, within milliseconds of ActionInvoked. What the alarm shows now, after
    /// the press, is shown anew.
    case afterPress
    /// A press the server lost to an update: it rebuilt the buttons between the press and the
    /// release, and took the release on the bubble for a dismissal. Shown again, for the user to
    /// press once more.
    case pressLostToUpdate
    /// The user closed it.
    case dismissedByUser

    /// A closing this soon after a press is the server's, not the user's.
    public static let afterPressWindow: Duration = .seconds(2)
    /// Within this of a closing read as a lost press, a second one is the user's: a person who
    /// dismissed a countdown just as it was updated, and dismisses it again, means it.
    public static let repeatedDismissalWindow: Duration = .seconds(10)

    /// Reads a dismissal that came `sincePress` after the notification's last press,
    /// `sinceUpdate` after its last update (the server's answer to it), and `sinceLostPress`
    /// after its last closing read as a lost press (each `nil` when there was none), on a server
    /// that loses presses to updates within `lostPressWindow` (`nil` where none does:
    /// `NotificationServerProfile.pressesLostToUpdates`).
    public static func reading(sincePress: Duration?, sinceUpdate: Duration?, sinceLostPress: Duration?,
                               lostPressWindow: Duration?) -> NotificationClosing {
        if let sincePress, sincePress < afterPressWindow { return .afterPress }
        if let lostPressWindow, let sinceUpdate, sinceUpdate < lostPressWindow,
           !(sinceLostPress.map { $0 < repeatedDismissalWindow } ?? false) {
            return .pressLostToUpdate
        }
        return .dismissedByUser
    }
}
