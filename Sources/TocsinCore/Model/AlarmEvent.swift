import FoundationEssentials

/// Something that happened to an alarm, produced by `AlarmBook`; the agent turns each into effects
/// (a saved state, a notification, sound, a hook, a D-Bus signal).
public struct AlarmEvent: Sendable, Equatable {
    /// What happened.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// A new alarm was added.
        case scheduled
        /// An alarm's pre-alert countdown started (its live activity appears).
        case preAlert = "pre-alert"
        /// An alarm's next ring moved: the time zone changed, so a local time is a different instant.
        case rescheduled
        /// Its countdown was paused.
        case paused
        /// Its countdown was resumed.
        case resumed
        /// It came due and started ringing.
        case fired
        /// It was snoozed: it counts down again before ringing again.
        case snoozed
        /// It was stopped while ringing: removed if one-shot, else waiting for its next occurrence.
        case stopped
        /// It was cancelled (removed).
        case cancelled
        /// Its custom secondary button was pressed: removed if one-shot, else waiting for its next occurrence.
        case secondary
        /// It rang for its whole ring limit without anyone answering: removed if one-shot, else
        /// waiting for its next occurrence.
        case unacknowledged
        /// It came due later than its late limit (machine asleep, agent not running) and did not
        /// ring: removed if one-shot, else waiting for its next occurrence.
        case missed

        /// The hook this event runs, if any.
        public var hookEvent: HookEvent? {
            switch self {
            case .fired: .fire
            case .stopped: .stop
            case .snoozed: .snooze
            case .secondary: .secondary
            case .cancelled: .cancel
            case .missed: .missed
            case .scheduled, .preAlert, .rescheduled, .paused, .resumed, .unacknowledged: nil
            }
        }
    }

    /// What happened.
    public let kind: Kind
    /// The alarm after the event; for a removal, the alarm as it was when removed.
    public let alarm: Alarm
    /// True when the alarm no longer exists after this event; `kind` is then the removal's reason.
    public let removesAlarm: Bool
    /// For `fired` and `missed`: the instant the alarm was due.
    public let dueDate: Date?

    /// Creates an event of `kind` for `alarm`, which still exists afterwards unless `removesAlarm`.
    public init(_ kind: Kind, _ alarm: Alarm, removesAlarm: Bool = false, dueDate: Date? = nil) {
        self.kind = kind
        self.alarm = alarm
        self.removesAlarm = removesAlarm
        self.dueDate = dueDate
    }
}
