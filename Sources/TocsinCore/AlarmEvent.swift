/// Something that happened to an alarm, produced by `AlarmBook`; the agent turns each into effects
/// (a saved state, a notification, sound, a hook, a D-Bus signal).
public struct AlarmEvent: Sendable, Equatable {
    /// What happened.
    public enum Kind: String, Sendable, Codable, CaseIterable {
        /// A new alarm was added.
        case scheduled
        /// Its countdown was paused.
        case paused
        /// Its countdown was resumed.
        case resumed
        /// It came due and started ringing.
        case fired
        /// It was snoozed: it counts down again before ringing again.
        case snoozed
        /// It was stopped while ringing (removed, for a one-shot).
        case stopped
        /// It was cancelled (removed).
        case cancelled
        /// Its custom secondary button was pressed (removed).
        case secondary
        /// It rang for its whole ring limit without anyone answering (removed).
        case unacknowledged

        /// True when the alarm no longer exists after this event; the kind is then the removal's reason.
        public var removesAlarm: Bool {
            switch self {
            case .stopped, .cancelled, .secondary, .unacknowledged: true
            case .scheduled, .paused, .resumed, .fired, .snoozed: false
            }
        }

        /// The hook this event runs, if any.
        public var hookEvent: HookEvent? {
            switch self {
            case .fired: .fire
            case .stopped: .stop
            case .snoozed: .snooze
            case .secondary: .secondary
            case .cancelled: .cancel
            case .scheduled, .paused, .resumed, .unacknowledged: nil
            }
        }
    }

    /// What happened.
    public let kind: Kind
    /// The alarm after the event; for a removal, the alarm as it was when removed.
    public let alarm: Alarm

    /// Creates an event of `kind` for `alarm`.
    public init(_ kind: Kind, _ alarm: Alarm) {
        self.kind = kind
        self.alarm = alarm
    }
}
