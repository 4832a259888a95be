import Foundation

extension AlarmManager.Alarm {
    /// When an alarm rings — AlarmKit's `Alarm.Schedule`, plus Tocsin's local date and time.
    ///
    /// `.relative` and `.localDateTime` are wall-clock times: they follow the machine's time zone
    /// (07:00 rings at 07:00 wherever you are). `.fixed` is an instant and does not move.
    public enum Schedule: Codable, Hashable, Sendable {
        /// At this instant.
        case fixed(Date)
        /// At a local time of day: once (the next time the clock shows it) or on weekdays.
        case relative(Relative)
        /// Tocsin: at a local time on a calendar date, however far ahead ("24 December at 18:00"),
        /// following the time zone — unlike `.fixed`, which is an instant.
        case localDateTime(LocalDateTime)

        /// A time of day and how it repeats — AlarmKit's `Alarm.Schedule.Relative`.
        public struct Relative: Codable, Hashable, Sendable {
            /// The time of day.
            public var time: Time
            /// Once, or on which days of the week.
            public var repeats: Recurrence

            /// Rings at `time`, repeating as `repeats` says.
            public init(time: Time, repeats: Recurrence) {
                self.time = time
                self.repeats = repeats
            }

            /// A time on the wall clock, to the minute.
            public struct Time: Codable, Hashable, Sendable {
                /// The hour, 0–23.
                public var hour: Int
                /// The minute, 0–59.
                public var minute: Int

                /// The time `hour`:`minute`. Out-of-range values are refused when scheduling, with
                /// `AlarmError.invalidArgument`.
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

        /// A calendar date and a time on it, on the wall clock.
        public struct LocalDateTime: Codable, Hashable, Sendable {
            /// The year, 1–9999.
            public var year: Int
            /// The month, 1–12.
            public var month: Int
            /// The day of the month.
            public var day: Int
            /// The time on that day.
            public var time: Relative.Time

            /// `year`-`month`-`day` at `time`. A date the calendar does not have is refused when
            /// scheduling, with `AlarmError.invalidArgument`.
            public init(year: Int, month: Int, day: Int, time: Relative.Time) {
                self.year = year
                self.month = month
                self.day = day
                self.time = time
            }
        }
    }
}
