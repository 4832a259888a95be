import FoundationEssentials

/// When a scheduled alarm rings: an absolute instant, a local time of day (once or on chosen
/// weekdays), or a local date and time.
///
/// Only `.fixed` is an instant. The other two are wall-clock times: they follow the machine's
/// current time zone, so `ScheduleCalculator` turns them into instants with the zone passed in.
///
/// Saved to disk, so its Codable form is part of the state file format and stays readable:
/// `{"fixed":{"date":…}}`, `{"timeOfDay":{"time":"07:00","weekdays":["mon","tue"]}}`,
/// `{"localDateTime":{"date":"2026-12-01","time":"07:00"}}`. Weekdays are written Monday first,
/// so the same schedule always encodes to the same bytes.
public enum AlarmSchedule: Sendable, Equatable {
    /// An absolute instant; it does not move when the time zone changes.
    case fixed(Date)
    /// A local time of day: with no weekdays, the next time the clock shows it (once); otherwise
    /// on every one of `weekdays` (all seven: daily).
    case timeOfDay(TimeOfDay, weekdays: Set<Weekday>)
    /// A calendar date and a local time on it, however far ahead ("the day after tomorrow at 07:00").
    case localDateTime(LocalDate, TimeOfDay)

    /// True when the alarm rings again after it rang: a time of day on chosen weekdays.
    public var isRepeating: Bool {
        if case .timeOfDay(_, let weekdays) = self { !weekdays.isEmpty } else { false }
    }

    /// True when the instant it rings at depends on the time zone (everything but `.fixed`), so the
    /// agent must compute it again when the machine's zone changes.
    public var followsTimeZone: Bool {
        if case .fixed = self { false } else { true }
    }

    /// A short description for people: "07:00 on weekdays", "06:30 daily", "07:00 once",
    /// "Tue 1 Dec 2026 07:00"; a fixed instant is shown in `timeZone` with its offset
    /// ("Tue 1 Dec 2026 07:00 UTC+1").
    ///
    /// English and 24-hour, like every other message of Tocsin and like the times the parser reads.
    public func description(in timeZone: TimeZoneRules) -> String {
        switch self {
        case .fixed(let date):
            ScheduleCalculator.describe(date, in: timeZone)
        case .timeOfDay(let time, let weekdays):
            "\(time) \(Weekday.describe(weekdays))"
        case .localDateTime(let date, let time):
            "\(date.spoken) \(time)"
        }
    }
}

extension AlarmSchedule: Codable {
    private enum CaseKey: String, CodingKey {
        case fixed, timeOfDay, localDateTime
    }

    private enum FieldKey: String, CodingKey {
        case date, time, weekdays
    }

    /// Writes `{"<case>":{<labelled values>}}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CaseKey.self)
        switch self {
        case .fixed(let date):
            var fields = container.nestedContainer(keyedBy: FieldKey.self, forKey: .fixed)
            try fields.encode(date, forKey: .date)
        case .timeOfDay(let time, let weekdays):
            var fields = container.nestedContainer(keyedBy: FieldKey.self, forKey: .timeOfDay)
            try fields.encode(time, forKey: .time)
            try fields.encode(weekdays.sorted(), forKey: .weekdays)
        case .localDateTime(let date, let time):
            var fields = container.nestedContainer(keyedBy: FieldKey.self, forKey: .localDateTime)
            try fields.encode(date, forKey: .date)
            try fields.encode(time, forKey: .time)
        }
    }

    /// Reads what `encode(to:)` writes; exactly one case key must be present.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CaseKey.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: container.codingPath,
                debugDescription: "A schedule needs exactly one of fixed, timeOfDay or localDateTime."
            ))
        }
        let fields = try container.nestedContainer(keyedBy: FieldKey.self, forKey: key)
        switch key {
        case .fixed:
            self = .fixed(try fields.decode(Date.self, forKey: .date))
        case .timeOfDay:
            self = .timeOfDay(try fields.decode(TimeOfDay.self, forKey: .time), weekdays: Set(try fields.decode([Weekday].self, forKey: .weekdays)))
        case .localDateTime:
            self = .localDateTime(try fields.decode(LocalDate.self, forKey: .date), try fields.decode(TimeOfDay.self, forKey: .time))
        }
    }
}

/// A time on the wall clock, to the minute: 00:00 to 23:59.
public struct TimeOfDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The hour, 0–23.
    public var hour: Int { Int(storedHour) }
    /// The minute, 0–59.
    public var minute: Int { Int(storedMinute) }
    // A byte each: every alarm holds one in its schedule (see LocalDate).
    private let storedHour: UInt8
    private let storedMinute: UInt8

    /// The time `hour`:`minute`; refuses an hour outside 0–23 or a minute outside 0–59.
    public init(hour: Int, minute: Int = 0) throws(AlarmInputError) {
        guard (0...23).contains(hour), (0...59).contains(minute) else {
            throw AlarmInputError("\(hour):\(Self.twoDigits(minute)) is not a time of day: the hour goes from 0 to 23 and the minutes from 00 to 59.")
        }
        storedHour = UInt8(hour)
        storedMinute = UInt8(minute)
    }

    /// Seconds from midnight on a day without a clock change.
    public var secondsSinceMidnight: Int { hour * 3600 + minute * 60 }

    /// `HH:MM`, 24-hour ("07:00", "19:30").
    public var description: String { "\(Self.twoDigits(hour)):\(Self.twoDigits(minute))" }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool {
        lhs.secondsSinceMidnight < rhs.secondsSinceMidnight
    }
}

extension TimeOfDay: Codable {
    /// Writes `"HH:MM"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Reads a time as `TimeOfDayParser` does, so a hand-edited file gets the same checks as typed input.
    public init(from decoder: any Decoder) throws {
        self = try decodeTypedText(from: decoder, as: TimeOfDayParser.parse)
    }
}

/// A day of the week. The raw value (`mon` … `sun`) is what is saved and sent, and never changes.
///
/// Ordered Monday first (ISO 8601), which is the order descriptions list them in.
public enum Weekday: String, Sendable, Hashable, Codable, CaseIterable, Comparable, CustomStringConvertible {
    case monday = "mon", tuesday = "tue", wednesday = "wed", thursday = "thu", friday = "fri", saturday = "sat", sunday = "sun"

    /// Every day of the week: a daily alarm.
    public static let everyDay: Set<Weekday> = Set(allCases)
    /// Monday to Friday.
    public static let workdays: Set<Weekday> = [.monday, .tuesday, .wednesday, .thursday, .friday]
    /// Saturday and Sunday.
    public static let weekend: Set<Weekday> = [.saturday, .sunday]

    /// The ISO 8601 day number: Monday 1 … Sunday 7.
    public var isoNumber: Int { Self.allCases.firstIndex(of: self)! + 1 }

    /// The short English name, "Mon" … "Sun".
    public var description: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool {
        lhs.isoNumber < rhs.isoNumber
    }

    /// How a set of repeat days reads after a time: "once" (none), "daily", "on weekdays",
    /// "on weekends", "every Tue", "every Mon, Wed and Fri".
    public static func describe(_ weekdays: Set<Weekday>) -> String {
        switch weekdays {
        case []: return "once"
        case everyDay: return "daily"
        case workdays: return "on weekdays"
        case weekend: return "on weekends"
        default:
            let names = weekdays.sorted().map(\.description)
            return "every " + (names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " and " + names.last!)
        }
    }
}

/// A day on the calendar (proleptic Gregorian), with no time zone: "2026-12-01".
public struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year, 1–9999 (dates computed by `init(daysSince1970:)` may lie outside).
    public let year: Int
    /// The month, 1–12.
    public var month: Int { Int(storedMonth) }
    /// The day of the month, from 1 to the month's length.
    public var day: Int { Int(storedDay) }
    // Month and day in a byte each make a schedule 24 bytes instead of 48, in every alarm the
    // agent holds. The year keeps a whole Int: unchecked date arithmetic can go beyond 16 bits.
    private let storedMonth: UInt8
    private let storedDay: UInt8

    /// The date `year`-`month`-`day`; refuses a day the calendar does not have (2026-02-30).
    public init(year: Int, month: Int, day: Int) throws(AlarmInputError) {
        if let problem = Self.problem(year: year, month: month, day: day) {
            throw AlarmInputError("\(year)-\(month)-\(day) is not a date: \(problem).")
        }
        self.year = year
        storedMonth = UInt8(month)
        storedDay = UInt8(day)
    }

    /// The date `daysSince1970` days after 1970-01-01 (negative: before it). Date arithmetic, so
    /// unchecked: far enough out it gives years outside 1–9999.
    public init(daysSince1970: Int) {
        // Howard Hinnant's civil_from_days: exact integer arithmetic, no Calendar involved.
        let shifted = daysSince1970 + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        self.year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        storedMonth = UInt8(month)
        storedDay = UInt8(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
    }

    /// Days from 1970-01-01 to this date (negative: before it).
    public var daysSince1970: Int {
        Self.daysSince1970(year: year, month: month, day: day)
    }

    /// Days from 1970-01-01 to `year`-`month`-`day`, unchecked: any year, so zone rules can be
    /// evaluated for instants far outside 1–9999.
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        // Howard Hinnant's days_from_civil; March-based years put the leap day last.
        let marchYear = month <= 2 ? year - 1 : year
        let era = (marchYear >= 0 ? marchYear : marchYear - 399) / 400
        let yearOfEra = marchYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day of the week this date falls on.
    public var weekday: Weekday {
        // 1970-01-01 was a Thursday, index 3 counting from Monday.
        let index = ((daysSince1970 + 3) % 7 + 7) % 7
        return Weekday.allCases[index]
    }

    /// The date `days` days later (earlier when negative).
    public func adding(days: Int) -> LocalDate {
        LocalDate(daysSince1970: daysSince1970 + days)
    }

    /// `YYYY-MM-DD`, as `TimeOfDayParser.parseDate` reads it.
    public var description: String {
        let digits = String(year)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits + "-\(TimeOfDay.twoDigits(month))-\(TimeOfDay.twoDigits(day))"
    }

    /// The date for people: "Tue 1 Dec 2026".
    public var spoken: String {
        "\(weekday) \(day) \(Self.monthNames[month - 1]) \(year)"
    }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// Why `year`-`month`-`day` is not a date, as the end of a sentence; `nil` when it is one.
    static func problem(year: Int, month: Int, day: Int) -> String? {
        guard (1...9999).contains(year) else { return "the year goes from 0001 to 9999" }
        guard (1...12).contains(month) else { return "the month goes from 01 to 12" }
        let length = daysIn(month: month, year: year)
        guard (1...length).contains(day) else {
            return "\(fullMonthNames[month - 1]) \(year) has \(length) days"
        }
        return nil
    }

    /// The number of days in `month` (1–12) of `year`.
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Whether `year` has a February 29 (proleptic Gregorian).
    static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The month's English abbreviation ("Dec").
    public var monthAbbreviation: String { Self.monthNames[month - 1] }
    private static let fullMonthNames = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]
}

extension LocalDate: Codable {
    /// Writes `"YYYY-MM-DD"`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Reads a date as `TimeOfDayParser.parseDate` does, so a hand-edited file gets the same checks.
    public init(from decoder: any Decoder) throws {
        self = try decodeTypedText(from: decoder, as: TimeOfDayParser.parseDate)
    }
}

/// Reads a value stored as the text a person would type, through the parser that checks typed
/// input; the parser's message becomes the decoding error's.
private func decodeTypedText<Value>(from decoder: any Decoder, as parse: (String) throws(AlarmInputError) -> Value) throws -> Value {
    let container = try decoder.singleValueContainer()
    do {
        return try parse(try container.decode(String.self))
    } catch let error as AlarmInputError {
        throw DecodingError.dataCorruptedError(in: container, debugDescription: error.message)
    }
}

extension TimeOfDay {
    /// `value` with a leading zero below 10, as clocks and ISO dates write it.
    static func twoDigits(_ value: Int) -> String {
        (0..<10).contains(value) ? "0\(value)" : "\(value)"
    }
}
