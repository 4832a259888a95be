import Foundation
import Testing
@testable import TocsinCore
import TocsinFiles
import TocsinTestSupport

// Transition instants below are from the tz database on this machine (`zdump -v -c 2025,2027 <zone>`):
//   Europe/Berlin       2025-03-30 / 2026-03-29  01:00Z  02:00 CET  -> 03:00 CEST
//                       2025-10-26 / 2026-10-25  01:00Z  03:00 CEST -> 02:00 CET
//   America/New_York    2025-03-09 / 2026-03-08  07:00Z  02:00 EST  -> 03:00 EDT
//                       2025-11-02 / 2026-11-01  06:00Z  02:00 EDT  -> 01:00 EST
//   Australia/Lord_Howe 2025-04-06 / 2026-04-05  15:00Z (the day before)  02:00 +11   -> 01:30 +1030
//                       2025-10-05 / 2026-10-04  15:30Z (the day before)  02:00 +1030 -> 02:30 +11
//   Asia/Kolkata        none (+5:30 all year)
//   Pacific/Apia        2011-12-30 10:00Z  Thu 29 Dec 23:59:59 -10 -> Sat 31 Dec 00:00 +14 (30 Dec skipped)
//                       2021-04-04 14:00Z  04:00 +14 -> 03:00 +13 (its last change; no DST since)

/// The zone `identifier` as the code under test reads it (the system's zone file).
private func zone(_ identifier: String) -> TimeZoneRules {
    TimeZoneRules(identifier: identifier)!
}

/// The zone `identifier` as Foundation (ICU) knows it: the independent oracle.
private func foundationZone(_ identifier: String) -> TimeZone {
    TimeZone(identifier: identifier)!
}

/// An instant written in ISO 8601 UTC, read by Foundation's own parser (not by the code under test).
private func utc(_ text: String) -> Date {
    ISO8601DateFormatter().date(from: text)!
}

private func day(_ text: String) -> LocalDate {
    try! TimeOfDayParser.parseDate(text)
}

private func clockTime(_ text: String) -> TimeOfDay {
    try! TimeOfDayParser.parse(text)
}

/// What the wall clock of `zoneID` shows at `date`, written by Foundation's DateFormatter
/// (independent of the code under test): "Sun 2026-03-29 03:00 +02:00".
private func wallClock(_ date: Date, in zoneID: String) -> String {
    wallClockFormatter(zoneID).string(from: date)
}

/// The formatter behind `wallClock`, for loops that show many instants.
private func wallClockFormatter(_ zoneID: String) -> DateFormatter {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.calendar = Calendar(identifier: .gregorian)
    formatter.timeZone = foundationZone(zoneID)
    formatter.dateFormat = "EEE yyyy-MM-dd HH:mm xxx"
    return formatter
}

/// Seconds since the epoch of `date` at `time` as if the wall clock were UTC, computed with Calendar.
private func wallSeconds(_ dateText: String, _ timeText: String) -> Int {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = foundationZone("UTC")
    let (parsedDay, parsedTime) = (day(dateText), clockTime(timeText))
    let components = DateComponents(year: parsedDay.year, month: parsedDay.month, day: parsedDay.day, hour: parsedTime.hour, minute: parsedTime.minute)
    return Int(calendar.date(from: components)!.timeIntervalSince1970)
}

/// The definition the calculator implements, by brute force: the first whole minute at which the
/// clock of `timeZone` shows `wall` or later, found by scanning minute by minute.
private func firstMinuteShowing(atLeast wall: Int, in timeZone: TimeZoneRules) -> Date {
    var instant = wall - 15 * 3600
    while instant + timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(instant))) < wall {
        instant += 60
    }
    return Date(timeIntervalSince1970: TimeInterval(instant))
}

/// Every occurrence of `schedule` in `timeZone` from after `start` up to `end`, by chaining `nextOccurrence`.
private func occurrences(of schedule: AlarmSchedule, after start: Date, through end: Date, in timeZone: TimeZoneRules) -> [Date] {
    var found: [Date] = []
    var cursor = start
    while let next = ScheduleCalculator.nextOccurrence(of: schedule, after: cursor, in: timeZone), next <= end {
        found.append(next)
        cursor = next
        if found.count > 1000 { break }
    }
    return found
}

private let halfHours = (0..<48).map { try! TimeOfDay(hour: $0 / 2, minute: $0 % 2 * 30) }

@Suite("ScheduleCalculator")
struct ScheduleCalculatorTests {
    // MARK: Resolving a local date and time

    @Test("A local date and time resolves to the expected instant", arguments: [
        // Berlin, spring forward 2026-03-29: 02:00–02:59 does not exist; it rings at 03:00 CEST.
        ("Europe/Berlin", "2026-03-29", "00:30", "2026-03-28T23:30:00Z"),
        ("Europe/Berlin", "2026-03-29", "01:59", "2026-03-29T00:59:00Z"),
        ("Europe/Berlin", "2026-03-29", "02:00", "2026-03-29T01:00:00Z"),
        ("Europe/Berlin", "2026-03-29", "02:30", "2026-03-29T01:00:00Z"),
        ("Europe/Berlin", "2026-03-29", "02:59", "2026-03-29T01:00:00Z"),
        ("Europe/Berlin", "2026-03-29", "03:00", "2026-03-29T01:00:00Z"),
        ("Europe/Berlin", "2026-03-29", "03:01", "2026-03-29T01:01:00Z"),
        ("Europe/Berlin", "2026-03-29", "23:30", "2026-03-29T21:30:00Z"),
        // Berlin, fall back 2026-10-25: 02:00–02:59 happens twice; it rings at the first (CEST).
        ("Europe/Berlin", "2026-10-25", "00:30", "2026-10-24T22:30:00Z"),
        ("Europe/Berlin", "2026-10-25", "01:59", "2026-10-24T23:59:00Z"),
        ("Europe/Berlin", "2026-10-25", "02:00", "2026-10-25T00:00:00Z"),
        ("Europe/Berlin", "2026-10-25", "02:30", "2026-10-25T00:30:00Z"),
        ("Europe/Berlin", "2026-10-25", "02:59", "2026-10-25T00:59:00Z"),
        ("Europe/Berlin", "2026-10-25", "03:00", "2026-10-25T02:00:00Z"),
        ("Europe/Berlin", "2026-10-25", "23:30", "2026-10-25T22:30:00Z"),
        ("Europe/Berlin", "2025-03-30", "02:30", "2025-03-30T01:00:00Z"),
        ("Europe/Berlin", "2025-10-26", "02:30", "2025-10-26T00:30:00Z"),
        // New York: 02:00–02:59 skipped on 2026-03-08, 01:00–01:59 repeated on 2026-11-01.
        ("America/New_York", "2026-03-08", "01:59", "2026-03-08T06:59:00Z"),
        ("America/New_York", "2026-03-08", "02:30", "2026-03-08T07:00:00Z"),
        ("America/New_York", "2026-03-08", "03:00", "2026-03-08T07:00:00Z"),
        ("America/New_York", "2026-11-01", "00:30", "2026-11-01T04:30:00Z"),
        ("America/New_York", "2026-11-01", "01:00", "2026-11-01T05:00:00Z"),
        ("America/New_York", "2026-11-01", "01:30", "2026-11-01T05:30:00Z"),
        ("America/New_York", "2026-11-01", "02:00", "2026-11-01T07:00:00Z"),
        ("America/New_York", "2026-11-01", "23:30", "2026-11-02T04:30:00Z"),
        ("America/New_York", "2025-03-09", "02:30", "2025-03-09T07:00:00Z"),
        ("America/New_York", "2025-11-02", "01:30", "2025-11-02T05:30:00Z"),
        // Lord Howe moves its clock by 30 minutes. Fall back 2026-04-05: 01:30–01:59 twice.
        ("Australia/Lord_Howe", "2026-04-05", "00:30", "2026-04-04T13:30:00Z"),
        ("Australia/Lord_Howe", "2026-04-05", "01:29", "2026-04-04T14:29:00Z"),
        ("Australia/Lord_Howe", "2026-04-05", "01:30", "2026-04-04T14:30:00Z"),
        ("Australia/Lord_Howe", "2026-04-05", "01:45", "2026-04-04T14:45:00Z"),
        ("Australia/Lord_Howe", "2026-04-05", "01:59", "2026-04-04T14:59:00Z"),
        ("Australia/Lord_Howe", "2026-04-05", "02:00", "2026-04-04T15:30:00Z"),
        ("Australia/Lord_Howe", "2026-04-05", "23:30", "2026-04-05T13:00:00Z"),
        // Spring forward 2026-10-04: 02:00–02:29 does not exist; it rings at 02:30 +11.
        ("Australia/Lord_Howe", "2026-10-04", "01:59", "2026-10-03T15:29:00Z"),
        ("Australia/Lord_Howe", "2026-10-04", "02:00", "2026-10-03T15:30:00Z"),
        ("Australia/Lord_Howe", "2026-10-04", "02:15", "2026-10-03T15:30:00Z"),
        ("Australia/Lord_Howe", "2026-10-04", "02:29", "2026-10-03T15:30:00Z"),
        ("Australia/Lord_Howe", "2026-10-04", "02:30", "2026-10-03T15:30:00Z"),
        ("Australia/Lord_Howe", "2026-10-04", "02:31", "2026-10-03T15:31:00Z"),
        ("Australia/Lord_Howe", "2025-10-05", "02:15", "2025-10-04T15:30:00Z"),
        ("Australia/Lord_Howe", "2025-04-06", "01:45", "2025-04-05T14:45:00Z"),
        // Kolkata: +5:30 all year, nothing moves on European transition days.
        ("Asia/Kolkata", "2026-03-29", "00:30", "2026-03-28T19:00:00Z"),
        ("Asia/Kolkata", "2026-03-29", "02:30", "2026-03-28T21:00:00Z"),
        ("Asia/Kolkata", "2026-10-25", "02:30", "2026-10-24T21:00:00Z"),
        ("Asia/Kolkata", "2026-10-25", "23:30", "2026-10-25T18:00:00Z"),
        // Apia skipped Friday 2011-12-30 entirely: every time that day rings when Saturday begins.
        ("Pacific/Apia", "2011-12-29", "23:30", "2011-12-30T09:30:00Z"),
        ("Pacific/Apia", "2011-12-30", "00:00", "2011-12-30T10:00:00Z"),
        ("Pacific/Apia", "2011-12-30", "07:00", "2011-12-30T10:00:00Z"),
        ("Pacific/Apia", "2011-12-30", "23:59", "2011-12-30T10:00:00Z"),
        ("Pacific/Apia", "2011-12-31", "00:00", "2011-12-30T10:00:00Z"),
        ("Pacific/Apia", "2011-12-31", "07:00", "2011-12-30T17:00:00Z"),
        // Apia's last fall back (2021-04-04, 03:00–03:59 twice), and no DST since.
        ("Pacific/Apia", "2021-04-04", "03:30", "2021-04-03T13:30:00Z"),
        ("Pacific/Apia", "2026-04-05", "03:30", "2026-04-04T14:30:00Z"),
        ("Pacific/Apia", "2026-09-27", "03:30", "2026-09-26T14:30:00Z"),
    ])
    func resolves(zoneID: String, date: String, clock: String, expected: String) {
        let instant = ScheduleCalculator.instant(of: day(date), at: clockTime(clock), in: zone(zoneID))
        #expect(instant == utc(expected), "\(zoneID) \(date) \(clock) gave \(instant), shown there as \(wallClock(instant, in: zoneID))")
    }

    @Test("The clock shows the time as it resolves: 03:00 CEST for a skipped 02:30, CEST (not CET) for a repeated one")
    func wallClockOfResolvedInstants() {
        let berlin = zone("Europe/Berlin")
        #expect(wallClock(ScheduleCalculator.instant(of: day("2026-03-29"), at: clockTime("02:30"), in: berlin), in: "Europe/Berlin") == "Sun 2026-03-29 03:00 +02:00")
        #expect(wallClock(ScheduleCalculator.instant(of: day("2026-10-25"), at: clockTime("02:30"), in: berlin), in: "Europe/Berlin") == "Sun 2026-10-25 02:30 +02:00")
        #expect(wallClock(ScheduleCalculator.instant(of: day("2026-10-04"), at: clockTime("02:15"), in: zone("Australia/Lord_Howe")), in: "Australia/Lord_Howe") == "Sun 2026-10-04 02:30 +11:00")
        #expect(wallClock(ScheduleCalculator.instant(of: day("2011-12-30"), at: clockTime("07:00"), in: zone("Pacific/Apia")), in: "Pacific/Apia") == "Sat 2011-12-31 00:00 +14:00")
    }

    // The brute force scans minute by minute for the first instant whose clock reads the time or
    // later — the definition itself — on every transition day, the days around it, every half hour.
    @Test("On and around transition days, every half hour resolves as a minute-by-minute scan finds", arguments: [
        ("Europe/Berlin", ["2025-03-30", "2025-10-26", "2026-03-29", "2026-10-25"]),
        ("America/New_York", ["2025-03-09", "2025-11-02", "2026-03-08", "2026-11-01"]),
        ("Australia/Lord_Howe", ["2025-04-06", "2025-10-05", "2026-04-05", "2026-10-04"]),
        ("Asia/Kolkata", ["2026-03-29", "2026-10-25"]),
        ("Pacific/Apia", ["2011-12-30", "2021-04-04", "2026-04-05"]),
    ])
    func matchesBruteForce(zoneID: String, transitionDays: [String]) {
        let timeZone = zone(zoneID)
        for transitionDay in transitionDays {
            for date in [-1, 0, 1].map({ day(transitionDay).adding(days: $0) }) {
                var previous: Date?
                for time in halfHours {
                    let instant = ScheduleCalculator.instant(of: date, at: time, in: timeZone)
                    let expected = firstMinuteShowing(atLeast: wallSeconds(date.description, time.description), in: timeZone)
                    #expect(instant == expected, "\(zoneID) \(date) \(time): \(instant) vs scan \(expected)")
                    if let previous {
                        #expect(instant >= previous, "\(zoneID) \(date) \(time) resolves before the half hour before it")
                    }
                    previous = instant
                }
            }
        }
    }

    @Test("Away from transitions, every day of 2025–2026 resolves as Calendar.date(from:) does", arguments: [
        "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "Pacific/Apia",
    ])
    func matchesCalendarAwayFromTransitions(zoneID: String) {
        let timeZone = zone(zoneID)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = foundationZone(zoneID)
        let start = day("2025-01-01")
        var transitionDays = 0
        for offset in 0..<730 {
            let date = start.adding(days: offset)
            var dayHasTransition = false
            for time in [clockTime("00:30"), clockTime("02:30"), clockTime("12:00"), clockTime("23:30")] {
                let instant = ScheduleCalculator.instant(of: date, at: time, in: timeZone)
                // Skip times within two hours of an offset change; the tests above cover those.
                let offsets = [-2.0, 0, 2].map { timeZone.secondsFromGMT(for: instant.addingTimeInterval($0 * 3600)) }
                guard Set(offsets).count == 1 else {
                    dayHasTransition = true
                    continue
                }
                let fromCalendar = calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day, hour: time.hour, minute: time.minute))
                #expect(instant == fromCalendar, "\(zoneID) \(date) \(time)")
            }
            if dayHasTransition { transitionDays += 1 }
        }
        // Four changes in two years for the DST zones, none for the others: proves the skip is narrow.
        let expected = ["Europe/Berlin": 4, "America/New_York": 4, "Australia/Lord_Howe": 4]
        #expect(transitionDays == expected[zoneID, default: 0])
    }

    // MARK: Repeating alarms

    @Test("A daily alarm rings exactly once on every local day across both transitions, at its time or the end of the gap", arguments: [
        "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "Pacific/Apia",
    ])
    func dailyChains(zoneID: String) throws {
        let timeZone = zone(zoneID)
        let formatter = wallClockFormatter(zoneID)
        let windows = [("2026-03-01", "2026-04-20"), ("2026-09-25", "2026-11-10")]
        for (first, last) in windows {
            for time in ["00:30", "01:30", "01:45", "02:00", "02:15", "02:30", "03:00", "12:00", "23:30"].map(clockTime) {
                let schedule = AlarmSchedule.timeOfDay(time, weekdays: Weekday.everyDay)
                let start = ScheduleCalculator.instant(of: day(first), at: try TimeOfDay(hour: 0), in: timeZone)
                let end = ScheduleCalculator.instant(of: day(last), at: try TimeOfDay(hour: 0), in: timeZone)
                let rings = occurrences(of: schedule, after: start.addingTimeInterval(-1), through: end, in: timeZone)
                let expectedDays = day(last).daysSince1970 - day(first).daysSince1970
                #expect(rings.count == expectedDays, "\(zoneID) \(time) daily from \(first): \(rings.count) rings")
                for (index, ring) in rings.enumerated() {
                    let expectedDate = day(first).adding(days: index)
                    let shown = formatter.string(from: ring)
                    // Each ring falls on the next local day, at the alarm's time unless that time was skipped.
                    #expect(shown.contains(expectedDate.description), "\(zoneID) \(time): ring \(index) at \(shown)")
                    if !shown.contains(" \(time) ") {
                        let previousMinute = ring.addingTimeInterval(-60)
                        #expect(timeZone.secondsFromGMT(for: previousMinute) < timeZone.secondsFromGMT(for: ring),
                                "\(zoneID) \(time): \(shown) is neither the time nor the end of a gap")
                    }
                }
            }
        }
    }

    @Test("A weekly alarm rings exactly once on the transition day, for times in, around and far from the changed hour", arguments: [
        ("Europe/Berlin", ["2026-03-29", "2026-10-25", "2025-03-30", "2025-10-26"]),
        ("America/New_York", ["2026-03-08", "2026-11-01", "2025-03-09", "2025-11-02"]),
        ("Australia/Lord_Howe", ["2026-04-05", "2026-10-04", "2025-04-06", "2025-10-05"]),
        ("Pacific/Apia", ["2021-04-04"]),
    ])
    func weeklyOnTransitionDay(zoneID: String, transitionDays: [String]) {
        let timeZone = zone(zoneID)
        for transitionDay in transitionDays {
            let date = day(transitionDay)
            let dayStart = ScheduleCalculator.instant(of: date, at: halfHours[0], in: timeZone)
            let nextDayStart = ScheduleCalculator.instant(of: date.adding(days: 1), at: halfHours[0], in: timeZone)
            for time in halfHours {
                let schedule = AlarmSchedule.timeOfDay(time, weekdays: [date.weekday])
                let rings = occurrences(of: schedule, after: dayStart.addingTimeInterval(-1), through: nextDayStart.addingTimeInterval(-1), in: timeZone)
                #expect(rings.count == 1, "\(zoneID) \(transitionDay) \(time): \(rings.map { wallClock($0, in: zoneID) })")
            }
        }
    }

    @Test("Weekly on Sundays at 02:30 in Berlin: an hour earlier in UTC across spring, never twice across fall")
    func weeklyBerlinSundays() throws {
        let berlin = zone("Europe/Berlin")
        let sundays = AlarmSchedule.timeOfDay(clockTime("02:30"), weekdays: [.sunday])
        #expect(occurrences(of: sundays, after: utc("2026-03-15T12:00:00Z"), through: utc("2026-04-13T00:00:00Z"), in: berlin) == [
            utc("2026-03-22T01:30:00Z"), utc("2026-03-29T01:00:00Z"), utc("2026-04-05T00:30:00Z"), utc("2026-04-12T00:30:00Z"),
        ])
        #expect(occurrences(of: sundays, after: utc("2026-10-11T12:00:00Z"), through: utc("2026-11-09T00:00:00Z"), in: berlin) == [
            utc("2026-10-18T00:30:00Z"), utc("2026-10-25T00:30:00Z"), utc("2026-11-01T01:30:00Z"), utc("2026-11-08T01:30:00Z"),
        ])
    }

    @Test("Weekly in New York and Lord Howe across both transitions")
    func weeklyElsewhere() {
        let newYork = zone("America/New_York")
        #expect(occurrences(of: .timeOfDay(clockTime("02:30"), weekdays: [.sunday]), after: utc("2026-02-25T00:00:00Z"), through: utc("2026-03-16T00:00:00Z"), in: newYork) == [
            utc("2026-03-01T07:30:00Z"), utc("2026-03-08T07:00:00Z"), utc("2026-03-15T06:30:00Z"),
        ])
        #expect(occurrences(of: .timeOfDay(clockTime("01:30"), weekdays: [.sunday]), after: utc("2026-10-22T00:00:00Z"), through: utc("2026-11-09T00:00:00Z"), in: newYork) == [
            utc("2026-10-25T05:30:00Z"), utc("2026-11-01T05:30:00Z"), utc("2026-11-08T06:30:00Z"),
        ])
        let lordHowe = zone("Australia/Lord_Howe")
        #expect(occurrences(of: .timeOfDay(clockTime("01:45"), weekdays: [.sunday]), after: utc("2026-03-25T00:00:00Z"), through: utc("2026-04-12T00:00:00Z"), in: lordHowe) == [
            utc("2026-03-28T14:45:00Z"), utc("2026-04-04T14:45:00Z"), utc("2026-04-11T15:15:00Z"),
        ])
        #expect(occurrences(of: .timeOfDay(clockTime("02:15"), weekdays: [.sunday]), after: utc("2026-09-23T00:00:00Z"), through: utc("2026-10-11T00:00:00Z"), in: lordHowe) == [
            utc("2026-09-26T15:45:00Z"), utc("2026-10-03T15:30:00Z"), utc("2026-10-10T15:15:00Z"),
        ])
    }

    @Test("Mon/Wed/Fri at 06:30 over six weeks across the Berlin spring change: the right days, always 06:30 local")
    func chosenDaysOverWeeks() {
        let schedule = AlarmSchedule.timeOfDay(clockTime("06:30"), weekdays: [.monday, .wednesday, .friday])
        let rings = occurrences(of: schedule, after: utc("2026-03-15T12:00:00Z"), through: utc("2026-04-26T00:00:00Z"), in: zone("Europe/Berlin"))
        #expect(rings.count == 18)
        let shown = rings.map { wallClock($0, in: "Europe/Berlin") }
        #expect(shown.prefix(6) == [
            "Mon 2026-03-16 06:30 +01:00", "Wed 2026-03-18 06:30 +01:00", "Fri 2026-03-20 06:30 +01:00",
            "Mon 2026-03-23 06:30 +01:00", "Wed 2026-03-25 06:30 +01:00", "Fri 2026-03-27 06:30 +01:00",
        ])
        #expect(shown[6] == "Mon 2026-03-30 06:30 +02:00")
        #expect(shown.allSatisfy { $0.contains(" 06:30 ") && ($0.hasPrefix("Mon") || $0.hasPrefix("Wed") || $0.hasPrefix("Fri")) })
        // The same weekday a week apart: exactly 7 days apart in local time, so 7×24 h but for the week with the change.
        let weekGaps = zip(rings, rings.dropFirst(3)).map { $1.timeIntervalSince($0) / 3600 }
        #expect(weekGaps.filter { $0 == 167 }.count == 3)
        #expect(weekGaps.allSatisfy { $0 == 168 || $0 == 167 })
    }

    @Test("Weekdays skip the weekend; weekends skip the week; a ring exactly at `after` is not the next one")
    func presets() {
        let berlin = zone("Europe/Berlin")
        let weekdays = AlarmSchedule.timeOfDay(clockTime("07:00"), weekdays: Weekday.workdays)
        // Friday 2026-03-27 07:00 CET is 06:00Z; the next one is Monday, already in CEST.
        #expect(ScheduleCalculator.nextOccurrence(of: weekdays, after: utc("2026-03-27T05:59:59Z"), in: berlin) == utc("2026-03-27T06:00:00Z"))
        #expect(ScheduleCalculator.nextOccurrence(of: weekdays, after: utc("2026-03-27T06:00:00Z"), in: berlin) == utc("2026-03-30T05:00:00Z"))
        let weekends = AlarmSchedule.timeOfDay(clockTime("08:00"), weekdays: Weekday.weekend)
        #expect(ScheduleCalculator.nextOccurrence(of: weekends, after: utc("2026-06-01T00:00:00Z"), in: zone("Asia/Kolkata")) == utc("2026-06-06T02:30:00Z"))
        #expect(ScheduleCalculator.nextOccurrence(of: weekends, after: utc("2026-06-06T02:30:00Z"), in: zone("Asia/Kolkata")) == utc("2026-06-07T02:30:00Z"))
    }

    @Test("Daily at 02:30 in Berlin on the fall-back day: once, even if asked again between the two 02:30s")
    func fallBackAskedInBetween() {
        let berlin = zone("Europe/Berlin")
        let daily = AlarmSchedule.timeOfDay(clockTime("02:30"), weekdays: Weekday.everyDay)
        #expect(ScheduleCalculator.nextOccurrence(of: daily, after: utc("2026-10-24T12:00:00Z"), in: berlin) == utc("2026-10-25T00:30:00Z"))
        #expect(ScheduleCalculator.nextOccurrence(of: daily, after: utc("2026-10-25T00:30:00Z"), in: berlin) == utc("2026-10-26T01:30:00Z"))
        // An agent restarted at 02:00 CET, after the first 02:30 rang, must not ring at the second.
        #expect(ScheduleCalculator.nextOccurrence(of: daily, after: utc("2026-10-25T01:00:00Z"), in: berlin) == utc("2026-10-26T01:30:00Z"))
        #expect(ScheduleCalculator.nextOccurrence(of: daily, after: utc("2026-10-25T01:29:59Z"), in: berlin) == utc("2026-10-26T01:30:00Z"))
    }

    @Test("Apia: a daily 07:00 rings when the skipped Friday would have ended, then on Saturday at 07:00")
    func apiaSkippedDay() {
        let apia = zone("Pacific/Apia")
        let daily = AlarmSchedule.timeOfDay(clockTime("07:00"), weekdays: Weekday.everyDay)
        let rings = occurrences(of: daily, after: utc("2011-12-28T12:00:00Z"), through: utc("2012-01-01T00:00:00Z"), in: apia)
        #expect(rings == [utc("2011-12-28T17:00:00Z"), utc("2011-12-29T17:00:00Z"), utc("2011-12-30T10:00:00Z"), utc("2011-12-30T17:00:00Z"), utc("2011-12-31T17:00:00Z")])
        #expect(rings.map { wallClock($0, in: "Pacific/Apia") }[2...3] == ["Sat 2011-12-31 00:00 +14:00", "Sat 2011-12-31 07:00 +14:00"])
        // Fridays only: the skipped Friday still rings once (at its end), and the next Friday as usual.
        let fridays = AlarmSchedule.timeOfDay(clockTime("07:00"), weekdays: [.friday])
        #expect(occurrences(of: fridays, after: utc("2011-12-24T00:00:00Z"), through: utc("2012-01-07T00:00:00Z"), in: apia) == [
            utc("2011-12-30T10:00:00Z"), utc("2012-01-05T17:00:00Z"),
        ])
    }

    // MARK: One-shot alarms

    @Test("Once at a time of day: today while it is ahead, else tomorrow; nothing after it rang")
    func oneShotTimeOfDay() {
        let berlin = zone("Europe/Berlin")
        let once = AlarmSchedule.timeOfDay(clockTime("07:00"), weekdays: [])
        #expect(!once.isRepeating)
        #expect(ScheduleCalculator.nextOccurrence(of: once, after: utc("2026-12-01T05:59:00Z"), in: berlin) == utc("2026-12-01T06:00:00Z"))
        #expect(ScheduleCalculator.nextOccurrence(of: once, after: utc("2026-12-01T06:00:00Z"), in: berlin) == utc("2026-12-02T06:00:00Z"))
        #expect(ScheduleCalculator.nextOccurrence(of: once, afterRingingAt: utc("2026-12-01T06:00:00Z"), in: berlin) == nil)
        let daily = AlarmSchedule.timeOfDay(clockTime("07:00"), weekdays: Weekday.everyDay)
        #expect(daily.isRepeating)
        #expect(ScheduleCalculator.nextOccurrence(of: daily, afterRingingAt: utc("2026-12-01T06:00:00Z"), in: berlin) == utc("2026-12-02T06:00:00Z"))
    }

    @Test("Once at 00:30, 02:30 and 23:30 on the Berlin spring-forward day")
    func oneShotAroundSpringForward() {
        let berlin = zone("Europe/Berlin")
        let saturdayNoon = utc("2026-03-28T11:00:00Z")
        #expect(ScheduleCalculator.nextOccurrence(of: .timeOfDay(clockTime("02:30"), weekdays: []), after: saturdayNoon, in: berlin) == utc("2026-03-29T01:00:00Z"))
        #expect(ScheduleCalculator.nextOccurrence(of: .timeOfDay(clockTime("00:30"), weekdays: []), after: saturdayNoon, in: berlin) == utc("2026-03-28T23:30:00Z"))
        #expect(ScheduleCalculator.nextOccurrence(of: .timeOfDay(clockTime("23:30"), weekdays: []), after: saturdayNoon, in: berlin) == utc("2026-03-28T22:30:00Z"))
        #expect(ScheduleCalculator.nextOccurrence(of: .timeOfDay(clockTime("23:30"), weekdays: []), after: utc("2026-03-28T22:30:00Z"), in: berlin) == utc("2026-03-29T21:30:00Z"))
        // Asked at 03:00 CEST, the skipped 02:30 has "happened" (at 03:00): tomorrow's 02:30 is next.
        #expect(ScheduleCalculator.nextOccurrence(of: .timeOfDay(clockTime("02:30"), weekdays: []), after: utc("2026-03-29T01:00:00Z"), in: berlin) == utc("2026-03-30T00:30:00Z"))
    }

    @Test("Pinning ties a one-shot to its day, so a zone change cannot slide it to tomorrow")
    func pinning() throws {
        let mondayEvening = utc("2026-11-30T21:00:00Z") // 22:00 in Berlin
        let once = AlarmSchedule.timeOfDay(clockTime("07:00"), weekdays: [])
        let pinned = ScheduleCalculator.pinned(once, after: mondayEvening, in: zone("Europe/Berlin"))
        #expect(pinned == .localDateTime(day("2026-12-01"), clockTime("07:00")))
        // The machine moves to Helsinki at 07:30 local there: the unpinned one-shot would wait a day.
        let inHelsinki = utc("2026-12-01T05:30:00Z")
        #expect(ScheduleCalculator.nextOccurrence(of: pinned, after: inHelsinki, in: zone("Europe/Helsinki")) == nil)
        #expect(ScheduleCalculator.nextOccurrence(of: once, after: inHelsinki, in: zone("Europe/Helsinki")) == utc("2026-12-02T05:00:00Z"))
        // Still following the zone: moved to New York before it rang, it rings at 07:00 there.
        #expect(ScheduleCalculator.nextOccurrence(of: pinned, after: mondayEvening, in: zone("America/New_York")) == utc("2026-12-01T12:00:00Z"))
        // Repeating and fixed schedules are left alone.
        let daily = AlarmSchedule.timeOfDay(clockTime("07:00"), weekdays: Weekday.everyDay)
        #expect(ScheduleCalculator.pinned(daily, after: mondayEvening, in: zone("Europe/Berlin")) == daily)
        #expect(ScheduleCalculator.pinned(.fixed(mondayEvening), after: mondayEvening, in: zone("Europe/Berlin")) == .fixed(mondayEvening))
        // In Apia the day a one-shot is pinned to may be the skipped one; it rings when it ends.
        let apiaPinned = ScheduleCalculator.pinned(once, after: utc("2011-12-29T22:00:00Z"), in: zone("Pacific/Apia"))
        #expect(apiaPinned == .localDateTime(day("2011-12-30"), clockTime("07:00")))
        #expect(ScheduleCalculator.nextOccurrence(of: apiaPinned, after: utc("2011-12-29T22:00:00Z"), in: zone("Pacific/Apia")) == utc("2011-12-30T10:00:00Z"))
    }

    @Test("A local date and time follows the zone; a fixed instant does not")
    func zoneFollowing() {
        let local = AlarmSchedule.localDateTime(day("2026-12-03"), clockTime("07:00"))
        let before = utc("2026-12-01T00:00:00Z")
        #expect(ScheduleCalculator.nextOccurrence(of: local, after: before, in: zone("Europe/Berlin")) == utc("2026-12-03T06:00:00Z"))
        #expect(ScheduleCalculator.nextOccurrence(of: local, after: before, in: zone("America/New_York")) == utc("2026-12-03T12:00:00Z"))
        #expect(ScheduleCalculator.nextOccurrence(of: local, after: before, in: zone("Asia/Kolkata")) == utc("2026-12-03T01:30:00Z"))
        #expect(ScheduleCalculator.nextOccurrence(of: local, after: utc("2026-12-03T06:00:00Z"), in: zone("Europe/Berlin")) == nil)
        #expect(local.followsTimeZone && !local.isRepeating)

        let fixed = AlarmSchedule.fixed(utc("2026-12-03T06:00:00Z"))
        for zoneID in ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "Pacific/Apia"] {
            #expect(ScheduleCalculator.nextOccurrence(of: fixed, after: before, in: zone(zoneID)) == utc("2026-12-03T06:00:00Z"))
        }
        #expect(ScheduleCalculator.nextOccurrence(of: fixed, after: utc("2026-12-03T06:00:00Z"), in: zone("UTC")) == nil)
        #expect(ScheduleCalculator.nextOccurrence(of: fixed, after: utc("2026-12-03T05:59:59Z"), in: zone("UTC")) == utc("2026-12-03T06:00:00Z"))
        #expect(!fixed.followsTimeZone && !fixed.isRepeating)
    }

    @Test("A local date and time in a gap rings at its end; exactly at that instant it is over")
    func localDateTimeInGap() {
        let springSkipped = AlarmSchedule.localDateTime(day("2026-03-29"), clockTime("02:30"))
        let berlin = zone("Europe/Berlin")
        #expect(ScheduleCalculator.nextOccurrence(of: springSkipped, after: utc("2026-03-01T00:00:00Z"), in: berlin) == utc("2026-03-29T01:00:00Z"))
        #expect(ScheduleCalculator.nextOccurrence(of: springSkipped, after: utc("2026-03-29T00:59:59Z"), in: berlin) == utc("2026-03-29T01:00:00Z"))
        #expect(ScheduleCalculator.nextOccurrence(of: springSkipped, after: utc("2026-03-29T01:00:00Z"), in: berlin) == nil)
        let repeated = AlarmSchedule.localDateTime(day("2026-10-25"), clockTime("02:30"))
        #expect(ScheduleCalculator.nextOccurrence(of: repeated, after: utc("2026-10-25T00:00:00Z"), in: berlin) == utc("2026-10-25T00:30:00Z"))
        #expect(ScheduleCalculator.nextOccurrence(of: repeated, after: utc("2026-10-25T00:30:00Z"), in: berlin) == nil)
    }

    // MARK: Scheduling at `now`

    @Test("The first fire date of a schedule in the future is its next occurrence")
    func firstFireDate() throws {
        let berlin = zone("Europe/Berlin")
        let now = utc("2026-12-01T07:15:00Z")
        #expect(try ScheduleCalculator.firstFireDate(of: .timeOfDay(clockTime("07:00"), weekdays: []), now: now, in: berlin) == utc("2026-12-02T06:00:00Z"))
        #expect(try ScheduleCalculator.firstFireDate(of: .localDateTime(day("2026-12-03"), clockTime("07:00")), now: now, in: berlin) == utc("2026-12-03T06:00:00Z"))
        #expect(try ScheduleCalculator.firstFireDate(of: .fixed(utc("2026-12-01T07:15:01Z")), now: now, in: berlin) == utc("2026-12-01T07:15:01Z"))
    }

    @Test("Scheduling in the past says so, with the instant understood and the time now", arguments: [
        (AlarmSchedule.localDateTime(LocalDateFixture.december1, TimeOfDayFixture.seven), "Europe/Berlin", "2026-12-01T07:15:00Z",
         "“2026-12-01 07:00” is in the past (understood as Tue 1 Dec 2026 07:00 UTC+1); it is now Tue 1 Dec 2026 08:15 UTC+1."),
        (.fixed(Date(timeIntervalSince1970: 1_796_104_800)), "Europe/Berlin", "2026-12-01T06:00:00Z",
         "The alarm time is in the past (understood as Tue 1 Dec 2026 07:00 UTC+1); it is now Tue 1 Dec 2026 07:00 UTC+1."),
        (.fixed(Date(timeIntervalSince1970: 1_796_104_800)), "America/New_York", "2026-12-01T06:00:30Z",
         "The alarm time is in the past (understood as Tue 1 Dec 2026 01:00 UTC-5); it is now Tue 1 Dec 2026 01:00:30 UTC-5."),
        (.localDateTime(LocalDateFixture.springForward, TimeOfDayFixture.twoThirty), "Europe/Berlin", "2026-03-29T08:00:00Z",
         "“2026-03-29 02:30” is in the past (understood as Sun 29 Mar 2026 03:00 UTC+2); it is now Sun 29 Mar 2026 10:00 UTC+2."),
        (.localDateTime(LocalDateFixture.december1, TimeOfDayFixture.seven), "Australia/Lord_Howe", "2026-12-01T00:00:00Z",
         "“2026-12-01 07:00” is in the past (understood as Tue 1 Dec 2026 07:00 UTC+11); it is now Tue 1 Dec 2026 11:00 UTC+11."),
        (.localDateTime(LocalDateFixture.december1, TimeOfDayFixture.seven), "Asia/Kolkata", "2026-12-01T02:00:00Z",
         "“2026-12-01 07:00” is in the past (understood as Tue 1 Dec 2026 07:00 UTC+5:30); it is now Tue 1 Dec 2026 07:30 UTC+5:30."),
    ])
    func pastIsRefused(schedule: AlarmSchedule, zoneID: String, now: String, message: String) throws {
        let error = try #require(throws: AlarmInputError.self) {
            try ScheduleCalculator.firstFireDate(of: schedule, now: utc(now), in: zone(zoneID))
        }
        #expect(error.message == message)
    }

    // MARK: Descriptions and the saved form

    @Test("Schedules describe themselves briefly", arguments: [
        (AlarmSchedule.timeOfDay(TimeOfDayFixture.seven, weekdays: Weekday.workdays), "07:00 on weekdays"),
        (.timeOfDay(TimeOfDayFixture.sixThirty, weekdays: Weekday.everyDay), "06:30 daily"),
        (.timeOfDay(TimeOfDayFixture.seven, weekdays: Weekday.weekend), "07:00 on weekends"),
        (.timeOfDay(TimeOfDayFixture.seven, weekdays: []), "07:00 once"),
        (.timeOfDay(TimeOfDayFixture.seven, weekdays: [.tuesday]), "07:00 every Tue"),
        (.timeOfDay(TimeOfDayFixture.seven, weekdays: [.sunday, .friday, .monday, .wednesday]), "07:00 every Mon, Wed, Fri and Sun"),
        (.localDateTime(LocalDateFixture.december1, TimeOfDayFixture.seven), "Tue 1 Dec 2026 07:00"),
        (.fixed(Date(timeIntervalSince1970: 1_796_104_800)), "Tue 1 Dec 2026 07:00 UTC+1"),
    ])
    func descriptions(schedule: AlarmSchedule, expected: String) {
        #expect(schedule.description(in: zone("Europe/Berlin")) == expected)
    }

    @Test("Offsets and instants are written for people", arguments: [
        (0, "UTC"), (3600, "UTC+1"), (-18_000, "UTC-5"), (19_800, "UTC+5:30"), (37_800, "UTC+10:30"),
        (-12_600, "UTC-3:30"), (50_400, "UTC+14"), (-2_670, "UTC-0:44:30"),
    ])
    func offsets(seconds: Int, expected: String) {
        #expect(ScheduleCalculator.describeOffset(seconds) == expected)
    }

    @Test("An instant is described on the zone's wall clock, seconds only when there are some")
    func describeInstant() {
        #expect(ScheduleCalculator.describe(utc("2026-10-25T00:30:00Z"), in: zone("Europe/Berlin")) == "Sun 25 Oct 2026 02:30 UTC+2")
        #expect(ScheduleCalculator.describe(utc("2026-10-25T01:30:00Z"), in: zone("Europe/Berlin")) == "Sun 25 Oct 2026 02:30 UTC+1")
        #expect(ScheduleCalculator.describe(utc("2026-04-04T15:15:05Z"), in: zone("Australia/Lord_Howe")) == "Sun 5 Apr 2026 01:45:05 UTC+10:30")
        #expect(ScheduleCalculator.describe(utc("1969-12-31T23:59:00Z"), in: zone("UTC")) == "Wed 31 Dec 1969 23:59 UTC")
        #expect(ScheduleCalculator.localDate(of: utc("2011-12-30T10:00:00Z"), in: zone("Pacific/Apia")) == day("2011-12-31"))
        #expect(ScheduleCalculator.localDate(of: utc("2011-12-30T09:59:59Z"), in: zone("Pacific/Apia")) == day("2011-12-29"))
    }

    @Test("The saved form is readable and stable, weekdays Monday first", arguments: [
        (AlarmSchedule.timeOfDay(TimeOfDayFixture.seven, weekdays: [.sunday, .monday, .friday, .tuesday]),
         #"{"timeOfDay":{"time":"07:00","weekdays":["mon","tue","fri","sun"]}}"#),
        (.timeOfDay(TimeOfDayFixture.sixThirty, weekdays: []), #"{"timeOfDay":{"time":"06:30","weekdays":[]}}"#),
        (.localDateTime(LocalDateFixture.december1, TimeOfDayFixture.seven), #"{"localDateTime":{"date":"2026-12-01","time":"07:00"}}"#),
        (.fixed(Date(timeIntervalSince1970: 1_796_104_800)), #"{"fixed":{"date":1796104800}}"#),
    ])
    func codable(schedule: AlarmSchedule, json: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .secondsSince1970
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        for _ in 0..<5 {
            #expect(String(decoding: try encoder.encode(schedule), as: UTF8.self) == json)
        }
        #expect(try decoder.decode(AlarmSchedule.self, from: Data(json.utf8)) == schedule)
    }

    @Test("A saved schedule with a bad value or not exactly one case is refused", arguments: [
        #"{"timeOfDay":{"time":"24:00","weekdays":[]}}"#,
        #"{"timeOfDay":{"time":"07:00","weekdays":["mon","xyz"]}}"#,
        #"{"localDateTime":{"date":"2026-02-30","time":"07:00"}}"#,
        #"{"fixed":{"date":0},"localDateTime":{"date":"2026-12-01","time":"07:00"}}"#,
        #"{}"#,
        #"{"weekly":{"time":"07:00"}}"#,
    ])
    func badSavedForm(json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(AlarmSchedule.self, from: Data(json.utf8)) }
    }

    // MARK: Calendar arithmetic

    @Test("Day numbers and weekdays agree with Foundation's Gregorian calendar from 1600 to 2400")
    func dayNumbersMatchCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = foundationZone("UTC")
        var date = calendar.date(from: DateComponents(year: 1600, month: 1, day: 1))!
        let end = calendar.date(from: DateComponents(year: 2400, month: 3, day: 1))!
        while date < end {
            let components = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
            let local = try LocalDate(year: components.year!, month: components.month!, day: components.day!)
            #expect(local.daysSince1970 * 86_400 == Int(date.timeIntervalSince1970), "\(local)")
            #expect(LocalDate(daysSince1970: local.daysSince1970) == local)
            // Calendar counts weekdays from Sunday = 1.
            #expect(local.weekday.isoNumber == (components.weekday! + 5) % 7 + 1, "\(local)")
            date = date.addingTimeInterval(86_400 * 13 + 3600)
            date = calendar.startOfDay(for: date)
        }
        #expect(day("1970-01-01").daysSince1970 == 0 && day("1970-01-01").weekday == .thursday)
        #expect(day("2026-12-01").weekday == .tuesday && day("2026-12-01").spoken == "Tue 1 Dec 2026")
        #expect(day("2028-02-28").adding(days: 1) == day("2028-02-29") && day("2026-12-31").adding(days: 1) == day("2027-01-01"))
        #expect(day("2026-03-01").adding(days: -1) == day("2026-02-28"))
    }
}

// Fixtures usable in `arguments:` (evaluated outside any throwing context).
private enum TimeOfDayFixture {
    static let seven = try! TimeOfDay(hour: 7)
    static let sixThirty = try! TimeOfDay(hour: 6, minute: 30)
    static let twoThirty = try! TimeOfDay(hour: 2, minute: 30)
}

private enum LocalDateFixture {
    static let december1 = try! LocalDate(year: 2026, month: 12, day: 1)
    static let springForward = try! LocalDate(year: 2026, month: 3, day: 29)
}
