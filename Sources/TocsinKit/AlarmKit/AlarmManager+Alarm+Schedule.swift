import Foundation

extension AlarmManager.Alarm {
    /// When an alarm rings — AlarmKit's `Alarm.Schedule`, with AlarmKit's two cases, so a `switch`
    /// over it needs no `default`. (Tocsin's dated local alarm lives beside it:
    /// `Alarm.LocalDateTime`.)
    ///
    /// `.relative` is a wall-clock time: it follows the machine's time zone (07:00 rings at 07:00
    /// wherever you are). `.fixed` is an instant and does not move.
    public enum Schedule: Codable, Hashable, Sendable {
        /// At this instant.
        case fixed(Date)
        /// At a local time of day: once (the next time the clock shows it) or on weekdays.
        case relative(Relative)

        /// A time of day and how it repeats — AlarmKit's `Alarm.Schedule.Relative`.
        public struct Relative: Codable, Hashable, Sendable {
            /// The time of day.
            public var time: Time
            /// Once, or on which days of the week.
            public var repeats: Recurrence

            /// Rings at `time`, repeating as `repeats` says: by default once, the next time the
            /// clock shows it.
            public init(time: Time, repeats: Recurrence = .never) {
                self.time = time
                self.repeats = repeats
            }

            /// A time on the wall clock, to the minute.
            public struct Time: Codable, Hashable, Sendable {
                /// The hour, 0–23.
                public var hour: Int
                /// The minute, 0–59.
                public var minute: Int

                /// The time `hour`:`minute`. A time the clock does not have (25:00) is refused
                /// when scheduling.
                public init(hour: Int, minute: Int) {
                    self.hour = hour
                    self.minute = minute
                }
            }

            /// How a relative alarm repeats.
            public enum Recurrence: Codable, Hashable, Sendable {
                /// Once: the next time the clock shows the time (today if still ahead, else
                /// tomorrow).
                case never
                /// On these days of the week. Read back from the agent, they come Monday first.
                case weekly([Locale.Weekday])
            }
        }
    }
}
