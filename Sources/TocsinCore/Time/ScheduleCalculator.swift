import FoundationEssentials

/// Turns schedules into the instants they ring at, for a time zone and a moment that are always
/// passed in: nothing here reads the clock or the machine's zone.
///
/// Wall-clock times are resolved with two rules, the same for one-shot and repeating alarms:
/// - A local time that does not exist (the clock springs forward over it) rings at the first
///   instant after the gap: Europe/Berlin 2026-03-29 02:30 rings at 03:00 CEST (01:00 UTC). The
///   alarm is late, never lost, and never early.
/// - A local time that happens twice (the clock falls back) rings once, at the first occurrence:
///   Berlin 2026-10-25 02:30 rings at 02:30 CEST (00:30 UTC), not again at 02:30 CET.
///
/// Both follow from one definition: a date and time of day ring at the earliest instant at which
/// the zone's clock shows that date and time or later. Each calendar day is resolved to exactly one
/// instant, so a daily or weekly alarm rings exactly once on every matching day, transition days
/// included.
///
/// Only `TimeZone.secondsFromGMT(for:)` is asked of Foundation; the calendar arithmetic is done
/// here in integers. `Calendar.date(from:)` and `Calendar.nextDate(after:matching:…)` are not used:
/// around transitions their answers differ between Foundation versions and platforms (on this
/// machine `date(from:)` moves a skipped 02:30 to 03:30, by the length of the gap).
public enum ScheduleCalculator {
    /// The first instant strictly after `after` at which `schedule` rings in `timeZone`; `nil` when
    /// it never does again.
    ///
    /// - `.fixed`: the date itself if it is after `after`, else `nil`.
    /// - `.localDateTime`: the date and time resolved in `timeZone` if after `after`, else `nil`.
    /// - `.timeOfDay` on weekdays: the first matching day whose resolved instant is after `after`.
    /// - `.timeOfDay` once: the first day at all whose resolved instant is after `after` — today if
    ///   the time is still ahead, else tomorrow. This cannot know whether the alarm already rang;
    ///   after it rang, ask `nextOccurrence(of:afterRingingAt:in:)`, which says `nil`. To keep a
    ///   one-shot on its day across restarts and zone changes, store `pinned(_:after:in:)` instead.
    ///
    /// An instant exactly at `after` does not count: it is the one that just rang.
    public static func nextOccurrence(of schedule: AlarmSchedule, after: Date, in timeZone: TimeZoneRules) -> Date? {
        switch schedule {
        case .fixed(let date):
            return date > after ? date : nil
        case .localDateTime(let date, let time):
            let instant = instant(of: date, at: time, in: timeZone)
            return instant > after ? instant : nil
        case .timeOfDay(let time, let weekdays):
            return nextDay(at: time, on: weekdays, after: after, in: timeZone)?.instant
        }
    }

    /// When `schedule` rings next after it rang at `rang`: the next occurrence for a repeating
    /// schedule, `nil` for every one-shot (it is done).
    public static func nextOccurrence(of schedule: AlarmSchedule, afterRingingAt rang: Date, in timeZone: TimeZoneRules) -> Date? {
        schedule.isRepeating ? nextOccurrence(of: schedule, after: rang, in: timeZone) : nil
    }

    /// The first instant `schedule` rings at when it is set at `now`, or an error saying it is in
    /// the past, with the instant it was understood as.
    ///
    /// An instant equal to `now` counts as past: that moment is already over by the time it is set.
    public static func firstFireDate(of schedule: AlarmSchedule, now: Date, in timeZone: TimeZoneRules) throws(AlarmInputError) -> Date {
        if let date = nextOccurrence(of: schedule, after: now, in: timeZone) {
            return date
        }
        let clock = "it is now \(describe(now, in: timeZone))"
        switch schedule {
        case .fixed(let date):
            throw AlarmInputError("The alarm time is in the past (understood as \(describe(date, in: timeZone))); \(clock).")
        case .localDateTime(let date, let time):
            let understood = describe(instant(of: date, at: time, in: timeZone), in: timeZone)
            throw AlarmInputError("“\(AlarmInputError.quotable("\(date) \(time)"))” is in the past (understood as \(understood)); \(clock).")
        case .timeOfDay(let time, _):
            // Unreachable for any instant Foundation represents: a time of day comes again within a week.
            throw AlarmInputError("“\(AlarmInputError.quotable(time.description))” does not come again after \(describe(now, in: timeZone)).")
        }
    }

    /// `schedule` with a one-shot time of day tied to the day it will ring, as seen at `now`:
    /// `.timeOfDay(07:00, weekdays: [])` set on Monday evening becomes `.localDateTime(Tuesday, 07:00)`.
    /// Every other schedule comes back unchanged.
    ///
    /// A pinned one-shot cannot slide to the next day when the agent restarts after it rang, or when
    /// the zone changes so that 07:00 has already passed in the new zone; it still follows the zone.
    public static func pinned(_ schedule: AlarmSchedule, after now: Date, in timeZone: TimeZoneRules) -> AlarmSchedule {
        guard case .timeOfDay(let time, let weekdays) = schedule, weekdays.isEmpty,
              let next = nextDay(at: time, on: weekdays, after: now, in: timeZone) else { return schedule }
        return .localDateTime(next.date, time)
    }

    /// The instant at which the wall clock of `timeZone` first shows `date` at `time` or later:
    /// the time itself when it exists once, its first occurrence when the clock falls back over
    /// it, the end of the gap when the clock springs forward over it.
    public static func instant(of date: LocalDate, at time: TimeOfDay, in timeZone: TimeZoneRules) -> Date {
        let wall = date.daysSince1970 * secondsPerDay + time.secondsSinceMidnight
        let offset = { (instant: Int) in timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant))) }

        // An instant t shows `wall` when t + offset(t) == wall. Collect every offset the zone uses
        // near `wall`; hourly samples catch every real one (no zone keeps an offset for under an
        // hour), and checking each candidate adds any offset found there.
        var offsets = Set(stride(from: wall - searchWindow, through: wall + searchWindow, by: 3600).map(offset))
        var checked: Set<Int> = []
        var exact: [Int] = []
        while let candidate = offsets.subtracting(checked).first {
            checked.insert(candidate)
            let found = offset(wall - candidate)
            if found == candidate {
                exact.append(wall - candidate)
            } else {
                offsets.insert(found)
            }
        }
        if let first = exact.min() {
            return Date(timeIntervalSince1970: TimeInterval(first))
        }

        // No instant shows `wall`: it lies in a gap. The clock is below `wall` before the gap and
        // above it after, so a bisection finds the first instant after the gap, to the second.
        var below = wall - searchWindow
        var atOrAbove = wall + searchWindow
        while atOrAbove - below > 1 {
            let middle = below + (atOrAbove - below) / 2
            if middle + offset(middle) >= wall {
                atOrAbove = middle
            } else {
                below = middle
            }
        }
        return Date(timeIntervalSince1970: TimeInterval(atOrAbove))
    }

    /// The calendar date the wall clock of `timeZone` shows at `instant`.
    public static func localDate(of instant: Date, in timeZone: TimeZoneRules) -> LocalDate {
        LocalDate(daysSince1970: floorDivision(wallSeconds(of: instant, in: timeZone), secondsPerDay))
    }

    /// The calendar day and the second of that day `instant` shows on the wall clock of `timeZone`.
    public static func wallClock(of instant: Date, in timeZone: TimeZoneRules) -> (date: LocalDate, secondOfDay: Int) {
        let wall = wallSeconds(of: instant, in: timeZone)
        let day = floorDivision(wall, secondsPerDay)
        return (LocalDate(daysSince1970: day), wall - day * secondsPerDay)
    }

    /// `instant` on the wall clock of `timeZone`, for people: "Tue 1 Dec 2026 07:00 UTC+1"
    /// (seconds shown only when not zero).
    ///
    /// The offset is written out rather than abbreviated: Foundation on Linux has no "CET", only
    /// "GMT+1", and an offset is what tells a skipped or repeated hour apart.
    public static func describe(_ instant: Date, in timeZone: TimeZoneRules) -> String {
        let wall = wallSeconds(of: instant, in: timeZone)
        let date = LocalDate(daysSince1970: floorDivision(wall, secondsPerDay))
        let secondOfDay = wall - floorDivision(wall, secondsPerDay) * secondsPerDay
        let seconds = secondOfDay % 60
        let clock = "\(TimeOfDay.twoDigits(secondOfDay / 3600)):\(TimeOfDay.twoDigits(secondOfDay / 60 % 60))"
            + (seconds == 0 ? "" : ":\(TimeOfDay.twoDigits(seconds))")
        return "\(date.spoken) \(clock) \(describeOffset(timeZone.secondsFromGMT(for: instant)))"
    }

    /// An offset from UTC for people: "UTC", "UTC+1", "UTC-5", "UTC+5:30", "UTC+10:30".
    public static func describeOffset(_ seconds: Int) -> String {
        guard seconds != 0 else { return "UTC" }
        let size = abs(seconds)
        var text = "UTC" + (seconds < 0 ? "-" : "+") + "\(size / 3600)"
        if size % 3600 != 0 {
            text += ":\(TimeOfDay.twoDigits(size / 60 % 60))"
        }
        if size % 60 != 0 {
            text += ":\(TimeOfDay.twoDigits(size % 60))"
        }
        return text
    }

    // MARK: Helpers

    private static let secondsPerDay = 86_400

    /// How far from a wall time, either way, its instant can lie: beyond every offset the tz
    /// database has ever used (the largest, local mean times of the 1800s, are under 16 hours).
    private static let searchWindow = 18 * 3600

    /// The first day from the one `after` falls on (in `timeZone`) that is one of `weekdays` (any day
    /// when empty) and whose resolved instant is after `after`.
    private static func nextDay(at time: TimeOfDay, on weekdays: Set<Weekday>, after: Date, in timeZone: TimeZoneRules) -> (date: LocalDate, instant: Date)? {
        // No earlier day can ring after `after`: its clock already showed a later day by then. Resolved
        // instants never decrease from one day to the next, so the first match is the earliest, and
        // a matching day comes within a week (nine days at most if the clock fell back over midnight).
        let start = localDate(of: after, in: timeZone)
        for dayOffset in 0..<16 {
            let date = start.adding(days: dayOffset)
            guard weekdays.isEmpty || weekdays.contains(date.weekday) else { continue }
            let instant = instant(of: date, at: time, in: timeZone)
            if instant > after {
                return (date, instant)
            }
        }
        return nil
    }

    /// Seconds since 1970-01-01 00:00 on the wall clock of `timeZone` at `instant`, rounded down.
    private static func wallSeconds(of instant: Date, in timeZone: TimeZoneRules) -> Int {
        // Clamped so the Int conversion cannot trap on NaN or an absurd date read from a file;
        // ±30,000 years is far beyond any alarm.
        let interval = instant.timeIntervalSince1970
        let clamped = interval.isNaN ? 0 : min(max(interval, -1e12), 1e12)
        return Int(clamped.rounded(.down)) + timeZone.secondsFromGMT(for: instant)
    }

    private static func floorDivision(_ dividend: Int, _ divisor: Int) -> Int {
        let quotient = dividend / divisor
        return dividend % divisor < 0 ? quotient - 1 : quotient
    }
}
