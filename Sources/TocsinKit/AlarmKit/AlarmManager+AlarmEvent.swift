import TocsinCore

extension AlarmManager {
    /// Something that happened to one of the application's alarms, as the agent announced it —
    /// Tocsin's addition to AlarmKit, through which a running app performs its in-app intents
    /// (`AlarmActionIntent.inApp`): a `.stopped` or `.secondary` event is the button press.
    ///
    /// Events reach only a running app; the agent keeps no history (see `AlarmActionIntent`).
    public struct AlarmEvent: Hashable, Sendable {
        /// What happened.
        public var kind: Kind
        /// The alarm after it happened; for a removal, as it was when removed.
        public var alarm: Alarm
        /// True when the alarm no longer exists (`kind` says why): a stopped one-shot, a
        /// cancelled alarm, a custom button pressed…
        public var alarmRemoved: Bool

        /// What happened to an alarm.
        public enum Kind: String, Hashable, Sendable, CaseIterable {
            /// It was scheduled (by this process or another of the same app).
            case scheduled
            /// Its countdown before ringing began (an alarm's pre-alert).
            case preAlert = "pre-alert"
            /// It will ring at another instant: the time zone changed under a local time.
            case rescheduled
            /// Its countdown was paused.
            case paused
            /// Its countdown was resumed.
            case resumed
            /// It started ringing.
            case fired
            /// It was snoozed (`.countdown` secondary button, or `countdown(id:)`).
            case snoozed
            /// It was stopped while ringing: the stop intent.
            case stopped
            /// It was cancelled.
            case cancelled
            /// Its `.custom` secondary button was pressed: the secondary intent.
            case secondary
            /// It rang for its whole ring limit (ten minutes) without an answer.
            case unacknowledged
            /// It came due while the machine slept or the agent was away, too late to ring.
            case missed
        }

        init(kind: Kind, alarm: Alarm, alarmRemoved: Bool) {
            self.kind = kind
            self.alarm = alarm
            self.alarmRemoved = alarmRemoved
        }

        /// The event for what the agent announced, if this TocsinKit knows the kind.
        init?(_ change: AlarmChange) {
            guard let kind = Kind(rawValue: change.event.rawValue) else { return nil }
            self.init(kind: kind, alarm: AlarmTranslation.kitAlarm(change.alarm), alarmRemoved: change.isRemoval)
        }
    }
}
