import FoundationEssentials

/// How an alarm's notification goes from its banner to the message list on GNOME Shell 48 and
/// later, where a notification must never change its urgency between low and normal.
///
/// GNOME Shell pops a banner for a notification shown at normal urgency, and again for every
/// update at normal urgency (an update re-arms the banner's timeout, so a countdown updated each
/// second keeps its banner up for its whole run); it pops none for low urgency. On GNOME 43 a
/// countdown is therefore first shown at normal urgency and updated at low. GNOME 48 groups the
/// message list by application, and its group miscounts a change between low and normal (it
/// counts every change away from critical as one urgent notification fewer): the entry is moved
/// out of place and shrunk to nothing, a JavaScript error is logged, and Tocsin's entry is gone
/// from the message list for as long as Tocsin has a notification there (seen in 48.7).
///
/// So on 48 each notification keeps the urgency it was created with. A countdown's first showing
/// is normal and `transient` (the shell destroys it when its banner goes, and says so as
/// "expired"), and it is not updated while its banner may show: its per-second ticks are held
/// back. Once the shell let it go (`gone(_:)` says so), or after a limit (banners off, the
/// pointer resting on it, an idle session), it is shown anew as a new notification at low urgency,
/// which counts down in the message list. A change of state (paused, resumed) is sent at once at
/// the urgency the notification has, and the limit counts from it. An alert is critical, a new notification on GNOME anyway;
/// what follows it on the same notification (a snooze's countdown) goes low, a change from
/// critical that the shell counts right.
public struct BannerHandover<Key: Hashable & Sendable>: Sendable {
    /// What to do with one piece of content.
    public enum Step: Sendable, Equatable {
        /// Send it at `urgency`; `transient`: with the `transient` hint (a first showing's banner).
        case send(NotificationContent.Urgency, transient: Bool)
        /// Send nothing: a tick while the banner may show.
        case withhold
        /// Close the notification and send the content as a new one at `urgency`: the banner
        /// outstayed its limit.
        case replace(NotificationContent.Urgency)
    }

    /// What is known of one key's notification.
    private struct Entry {
        /// The urgency the notification on the server has; `nil` when none is there.
        var urgency: NotificationContent.Urgency?
        /// What it shows.
        var role: NotificationContent.Role
        /// When its banner showing began, while it is in one.
        var bannerSince: ContinuousClock.Instant?
    }

    private var entries: [Key: Entry] = [:]

    /// Nothing shown yet.
    public init() {}

    /// What to do with `content` for `key` at `now`. `live`: the key's notification is on the
    /// server (shown, and not closed since). `limit`: how long a banner showing lasts at most
    /// (`NotificationServerProfile.bannerHandover`). Only an alarm's notifications (countdown,
    /// paused, alert) are handed over; a notice or a question is sent as it is.
    public mutating func step(_ content: NotificationContent, for key: Key, live: Bool, limit: Duration,
                              now: ContinuousClock.Instant) -> Step {
        guard [.countdown, .paused, .alert].contains(content.role) else { return .send(content.urgency, transient: false) }
        let entry = entries[key]
        if content.urgency == .critical {
            entries[key] = Entry(urgency: .critical, role: content.role)
            return .send(.critical, transient: false)
        }
        guard live, let entry, let urgency = entry.urgency else {
            if entry == nil, content.urgency == .normal {
                // Its first showing: a banner.
                entries[key] = Entry(urgency: content.urgency, role: content.role, bannerSince: now)
                return .send(content.urgency, transient: true)
            }
            entries[key] = Entry(urgency: .low, role: content.role)
            return .send(.low, transient: false)
        }
        guard let since = entry.bannerSince else {
            // After an alert (critical to low is counted right), or in the message list already.
            entries[key] = Entry(urgency: .low, role: content.role)
            return .send(.low, transient: false)
        }
        let isTick = content.role == .countdown && entry.role == .countdown
        guard isTick else {
            // A change the user made, or sees: the shell shows it on the banner and keeps the
            // banner its time again, so the limit counts from it.
            entries[key] = Entry(urgency: urgency, role: content.role, bannerSince: now)
            return .send(urgency, transient: true)
        }
        guard now - since >= limit else { return .withhold }
        entries[key] = Entry(urgency: .low, role: content.role)
        return .replace(.low)
    }

    /// The key's notification is gone from the server (closed by the shell, the user or Tocsin):
    /// its next showing is a new notification, at low urgency. Returns whether it went during its
    /// banner showing: when the shell let it expire, its banner went, and what the alarm shows
    /// now is to be shown anew.
    public mutating func gone(_ key: Key) -> Bool {
        guard let entry = entries[key] else { return false }
        entries[key] = Entry(urgency: nil, role: entry.role)
        return entry.urgency != nil && entry.bannerSince != nil
    }

    /// Forgets `key`: its alarm's notification was withdrawn, and a later one starts with a banner.
    public mutating func forget(_ key: Key) {
        entries[key] = nil
    }
}
