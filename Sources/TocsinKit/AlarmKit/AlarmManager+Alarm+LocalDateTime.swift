extension AlarmManager.Alarm {
    /// Tocsin: a local time on a calendar date, however far ahead ("24 December 2026 at 18:00"),
    /// that follows the machine's time zone — what `tocsin alarm --date` sets. AlarmKit has no
    /// such schedule (`.fixed` is an instant, `.relative` a time of day within the next day or
    /// week), so it lives beside `Alarm.Schedule` rather than in it:
    ///
    /// ```swift
    /// let dinner = Alarm.LocalDateTime(year: 2026, month: 12, day: 24, time: .init(hour: 18, minute: 0))
    /// try await manager.schedule(id: UUID(), configuration: .alarm(localDateTime: dinner, attributes: attributes))
    /// ```
    ///
    /// Read back, such an alarm's `schedule` is `.fixed` at the instant it will ring in the
    /// current time zone, and its `localDateTime` is this value.
    public struct LocalDateTime: Codable, Hashable, Sendable {
        /// The year, 1–9999.
        public var year: Int
        /// The month, 1–12.
        public var month: Int
        /// The day of the month.
        public var day: Int
        /// The time on that day.
        public var time: Schedule.Relative.Time

        /// `year`-`month`-`day` at `time`. A date the calendar does not have (30 February) is
        /// refused when scheduling.
        public init(year: Int, month: Int, day: Int, time: Schedule.Relative.Time) {
            self.year = year
            self.month = month
            self.day = day
            self.time = time
        }
    }
}
