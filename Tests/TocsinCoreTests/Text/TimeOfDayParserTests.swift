import Foundation
import Testing
@testable import TocsinCore

@Suite("TimeOfDayParser")
struct TimeOfDayParserTests {
    // MARK: Times of day

    @Test("Good times and what they mean", arguments: [
        ("7:00", 7, 0), ("07:00", 7, 0), ("19:30", 19, 30), ("0:00", 0, 0), ("00:00", 0, 0), ("23:59", 23, 59),
        ("7am", 7, 0), ("7 am", 7, 0), ("7:15pm", 19, 15), ("7:15 PM", 19, 15), ("7AM", 7, 0), ("07:05am", 7, 5),
        ("12am", 0, 0), ("12:30am", 0, 30), ("12pm", 12, 0), ("12:45pm", 12, 45), ("11:59pm", 23, 59), ("1am", 1, 0),
        ("  6:30  ", 6, 30), ("\t9pm\t", 21, 0), ("7  am", 7, 0), ("noon", 12, 0), ("Midnight", 0, 0),
    ])
    func good(text: String, hour: Int, minute: Int) throws {
        let parsed = try TimeOfDayParser.parse(text)
        #expect(parsed.hour == hour && parsed.minute == minute, "\(text.debugDescription) gave \(parsed)")
        #expect(parsed == (try TimeOfDay(hour: hour, minute: minute)))
    }

    @Test("Bad times are refused with a message quoting the trimmed input and showing examples", arguments: [
        "24:00", "7:60", "13pm", "abc", "0am", "0:00pm", "25:00", "7", "0700", "7:5", "7:000", "7.30", "7:30:00",
        ":30", "7:", "-1:00", "+7:00", "7:30 xm", "am", "7 a.m.", "１２:００", "7:3O", "100:00", "12:00amm", "7pm pm",
        "２pm", " 7 : 30 ",
    ])
    func bad(text: String) throws {
        let error = try #require(throws: AlarmInputError.self) { try TimeOfDayParser.parse(text) }
        let quoted = "“\(text.trimmingCharacters(in: .whitespaces))”"
        #expect(error.message.hasPrefix(quoted), "\(error.message.debugDescription) should start with \(quoted)")
        #expect(error.message.hasSuffix("Try 07:00, 19:30, 7am or 7:15pm."), "\(error.message.debugDescription)")
    }

    @Test("Out-of-range times say which part is wrong", arguments: [
        ("24:00", "“24:00” is not a time of day: the hour goes from 0 to 23. Try 07:00, 19:30, 7am or 7:15pm."),
        ("7:60", "“7:60” is not a time of day: the minutes go from 00 to 59. Try 07:00, 19:30, 7am or 7:15pm."),
        ("13pm", "“13pm” is not a time of day: with am or pm the hour goes from 1 to 12. Try 07:00, 19:30, 7am or 7:15pm."),
        ("0 am", "“0 am” is not a time of day: with am or pm the hour goes from 1 to 12. Try 07:00, 19:30, 7am or 7:15pm."),
        ("abc", "“abc” is not a time of day. Try 07:00, 19:30, 7am or 7:15pm."),
        ("7", "“7” is not a time of day. Try 07:00, 19:30, 7am or 7:15pm."),
    ])
    func outOfRange(text: String, message: String) throws {
        let error = try #require(throws: AlarmInputError.self) { try TimeOfDayParser.parse(text) }
        #expect(error.message == message)
    }

    @Test("A missing time, an overlong one and control characters get their own messages")
    func specialInputs() throws {
        for blank in ["", "   ", "\t"] {
            let error = try #require(throws: AlarmInputError.self) { try TimeOfDayParser.parse(blank) }
            #expect(error.message == "A time of day is missing. Try 07:00, 19:30, 7am or 7:15pm.")
        }
        let long = try #require(throws: AlarmInputError.self) { try TimeOfDayParser.parse("07:00" + String(repeating: "0", count: 100)) }
        #expect(long.message == "“07:00000000000000000…” is too long to be a time of day. Try 07:00, 19:30, 7am or 7:15pm.")
        let escaped = try #require(throws: AlarmInputError.self) { try TimeOfDayParser.parse("7:00\u{1B}[2J") }
        #expect(escaped.message == "“7:00\\u{1b}[2J” is not a time of day. Try 07:00, 19:30, 7am or 7:15pm.")
    }

    @Test("TimeOfDay itself refuses an hour or minute out of range and writes HH:MM")
    func timeOfDayValues() throws {
        #expect(throws: AlarmInputError.self) { try TimeOfDay(hour: 24, minute: 0) }
        #expect(throws: AlarmInputError.self) { try TimeOfDay(hour: 7, minute: 60) }
        #expect(throws: AlarmInputError.self) { try TimeOfDay(hour: -1, minute: 0) }
        #expect(try TimeOfDay(hour: 7, minute: 5).description == "07:05")
        #expect(try TimeOfDay(hour: 23, minute: 59).secondsSinceMidnight == 86_340)
        #expect(try TimeOfDay(hour: 6, minute: 59) < TimeOfDay(hour: 7, minute: 0))
        // Every time written round-trips through the parser.
        for minuteOfDay in stride(from: 0, to: 1440, by: 7) {
            let time = try TimeOfDay(hour: minuteOfDay / 60, minute: minuteOfDay % 60)
            #expect(try TimeOfDayParser.parse(time.description) == time)
        }
    }

    // MARK: Dates

    /// "HH:MM" and "YYYY-MM-DD", as the agent writes them, are read by a shortcut; with a space
    /// around them they take the general path. Both must agree everywhere.
    @Test("The exact HH:MM form reads as the general parse reads it, for every minute of the day")
    func exactTimesAgreeWithTheGeneralParse() throws {
        for hour in 0..<24 {
            for minute in 0..<60 {
                let text = "\(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute)"
                let exact = try TimeOfDayParser.parse(text)
                #expect(exact == (try TimeOfDayParser.parse(" \(text)")), "\(text)")
                #expect(exact == (try TimeOfDay(hour: hour, minute: minute)))
            }
        }
        for text in ["24:00", "07:60", "99:99"] {
            let exact = try #require(throws: AlarmInputError.self) { try TimeOfDayParser.parse(text) }
            let general = try #require(throws: AlarmInputError.self) { try TimeOfDayParser.parse(" \(text)") }
            #expect(exact.message == general.message)
        }
    }

    @Test("The exact YYYY-MM-DD form reads as the general parse reads it, for every day of four years")
    func exactDatesAgreeWithTheGeneralParse() throws {
        for year in [1999, 2000, 2027, 2028] {
            for month in 1...12 {
                for day in 1...31 {
                    let text = "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
                    let exact = Result { () throws(AlarmInputError) in try TimeOfDayParser.parseDate(text) }
                    let general = Result { () throws(AlarmInputError) in try TimeOfDayParser.parseDate(" \(text) ") }
                    switch (exact, general) {
                    case (.success(let one), .success(let other)): #expect(one == other, "\(text)")
                    case (.failure(let one), .failure(let other)): #expect(one.message == other.message.replacingOccurrences(of: " \(text) ", with: text), "\(text)")
                    default: Issue.record("\(text): \(exact) but \(general) with spaces")
                    }
                }
            }
        }
    }

    @Test("Good dates", arguments: [
        ("2026-12-01", 2026, 12, 1), ("2028-02-29", 2028, 2, 29), ("2000-02-29", 2000, 2, 29), (" 2026-01-31 ", 2026, 1, 31),
        ("0001-01-01", 1, 1, 1), ("9999-12-31", 9999, 12, 31), ("2011-12-30", 2011, 12, 30),
    ])
    func goodDates(text: String, year: Int, month: Int, day: Int) throws {
        let date = try TimeOfDayParser.parseDate(text)
        #expect(date == (try LocalDate(year: year, month: month, day: day)))
        #expect(date.description == text.trimmingCharacters(in: .whitespaces))
    }

    @Test("Impossible dates say why", arguments: [
        ("2026-02-30", "“2026-02-30” is not a date: February 2026 has 28 days."),
        ("2026-02-29", "“2026-02-29” is not a date: February 2026 has 28 days."),
        ("2100-02-29", "“2100-02-29” is not a date: February 2100 has 28 days."),
        ("2026-04-31", "“2026-04-31” is not a date: April 2026 has 30 days."),
        ("2026-13-01", "“2026-13-01” is not a date: the month goes from 01 to 12."),
        ("2026-00-10", "“2026-00-10” is not a date: the month goes from 01 to 12."),
        ("2026-01-00", "“2026-01-00” is not a date: January 2026 has 31 days."),
        ("0000-01-01", "“0000-01-01” is not a date: the year goes from 0001 to 9999."),
    ])
    func impossibleDates(text: String, message: String) throws {
        let error = try #require(throws: AlarmInputError.self) { try TimeOfDayParser.parseDate(text) }
        #expect(error.message == message)
    }

    @Test("Dates not written YYYY-MM-DD are refused, quoting the input", arguments: [
        "2026-1-5", "1.12.2026", "12/01/2026", "2026-12-01T07:00", "26-12-01", "2026-12", "abc", "20261201",
        "2026--12-01", "+2026-12-01", "２０２６-12-01", "2026-12-01 07:00",
    ])
    func malformedDates(text: String) throws {
        let error = try #require(throws: AlarmInputError.self) { try TimeOfDayParser.parseDate(text) }
        #expect(error.message == "“\(text)” is not a date. Write it as YYYY-MM-DD, e.g. 2026-12-01.")
    }

    @Test("A missing date, and LocalDate's own check")
    func missingDate() throws {
        let error = try #require(throws: AlarmInputError.self) { try TimeOfDayParser.parseDate("  ") }
        #expect(error.message == "A date is missing. Write it as YYYY-MM-DD, e.g. 2026-12-01.")
        let direct = try #require(throws: AlarmInputError.self) { try LocalDate(year: 2026, month: 2, day: 30) }
        #expect(direct.message == "2026-2-30 is not a date: February 2026 has 28 days.")
    }

    // MARK: Repeats

    static let goodRepeatCases: [(String, Set<Weekday>)] = [
        ("daily", Weekday.everyDay), ("Daily", Weekday.everyDay), ("every day", Weekday.everyDay),
        ("weekdays", Weekday.workdays), ("weekends", Weekday.weekend), ("weekend", Weekday.weekend), ("once", []),
        ("mon,tue", [.monday, .tuesday]), ("mon, wed , fri", [.monday, .wednesday, .friday]), ("SUN", [.sunday]),
        ("monday,Thursday", [.monday, .thursday]), ("mon-fri", Weekday.workdays), ("sat-sun", Weekday.weekend),
        ("sat-mon", [.saturday, .sunday, .monday]), ("mon-wed,sat", [.monday, .tuesday, .wednesday, .saturday]),
        ("mon-sun", Weekday.everyDay), ("fri - sun", [.friday, .saturday, .sunday]),
    ]

    @Test("Good repeats", arguments: goodRepeatCases)
    func goodRepeats(text: String, days: Set<Weekday>) throws {
        #expect(try TimeOfDayParser.parseRepeat(text) == days)
    }

    @Test("Bad repeats name the word that is not a day", arguments: [
        ("mon,xyz", "“mon,xyz” is not a repeat: “xyz” is not a day."),
        ("monthly", "“monthly” is not a repeat: “monthly” is not a day."),
        ("mon,,tue", "“mon,,tue” is not a repeat: “” is not a day."),
        ("mon-tue-wed", "“mon-tue-wed” is not a repeat: “mon-tue-wed” is not a day."),
        ("mon;tue", "“mon;tue” is not a repeat: “mon;tue” is not a day."),
        ("mon,mon", "“mon,mon” is not a repeat: it names Mon twice."),
        ("mon-fri,wed", "“mon-fri,wed” is not a repeat: it names Wed twice."),
    ])
    func badRepeats(text: String, start: String) throws {
        let error = try #require(throws: AlarmInputError.self) { try TimeOfDayParser.parseRepeat(text) }
        #expect(error.message == start + " Try daily, weekdays, weekends, once, or days such as mon,wed,fri or mon-fri.")
    }

    @Test("A missing repeat is called missing")
    func missingRepeat() throws {
        let error = try #require(throws: AlarmInputError.self) { try TimeOfDayParser.parseRepeat(" ") }
        #expect(error.message == "The days to repeat on are missing. Try daily, weekdays, weekends, once, or days such as mon,wed,fri or mon-fri.")
    }

    @Test("Weekday raw values are stable: they are saved to disk")
    func weekdayRawValues() {
        #expect(Weekday.allCases.map(\.rawValue) == ["mon", "tue", "wed", "thu", "fri", "sat", "sun"])
        #expect(Weekday.allCases.map(\.isoNumber) == Array(1...7))
        #expect(Weekday.allCases.map(\.description) == ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"])
        #expect(Weekday.everyDay.count == 7 && Weekday.workdays.count == 5 && Weekday.weekend == [.saturday, .sunday])
    }
}
