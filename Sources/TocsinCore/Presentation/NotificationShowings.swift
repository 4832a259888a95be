/// How long each notification has been on the server, under the server's current profile: what
/// tells a payload's first showing from an update (`NotificationPayload(shownFor:)`).
///
/// A notification shown under an earlier profile counts as not shown: when the agent learns of
/// its server only after a countdown was first sent (GNOME Shell's notification service answers
/// seconds after it takes its name), the countdown must get a first showing on the server it now
/// knows — a banner on GNOME Shell, a popup with its full timeout on Plasma — not the quiet
/// updates that follow one.
public struct NotificationShowings<Key: Hashable & Sendable>: Sendable {
    private var first: [Key: (generation: Int, at: ContinuousClock.Instant)] = [:]

    /// An empty record.
    public init() {}

    /// Records that `key`'s notification is shown at `now` under profile `generation`, and
    /// returns how long it has been shown under that generation; `nil` for a first showing.
    public mutating func show(_ key: Key, generation: Int, at now: ContinuousClock.Instant) -> Duration? {
        if let earlier = first[key], earlier.generation == generation {
            return now - earlier.at
        }
        first[key] = (generation, now)
        return nil
    }

    /// Forgets `key`'s notification: it is gone from the server, and its next showing is a first one.
    public mutating func forget(_ key: Key) {
        first[key] = nil
    }
}
