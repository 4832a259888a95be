import FoundationEssentials

/// Reads alarm times the way people type them: a time of day (`7:00`, `19:30`, `7am`, `7:15 pm`),
/// a date (`2026-12-01`) and the days it repeats on (`daily`, `weekdays`, `weekends`, `mon,wed,fri`).
public enum TimeOfDayParser {
    /// The time examples quoted in error messages.
    public static let examples = "07:00, 19:30, 7am or 7:15pm"
    /// The repeat examples quoted in error messages.
    public static let repeatExamples = "daily, weekdays, weekends, once, or days such as mon,wed,fri or mon-fri"

    /// The time of day `text` spells, or an error naming what was wrong.
    ///
    /// 24-hour `H:MM` / `HH:MM` (0:00–23:59), or 12-hour with `am`/`pm` (`7am`, `7 am`, `7:15pm`;
    /// `12am` is midnight, `12pm` noon), or `noon` / `midnight`. A bare hour ("7") is refused: it
    /// could as well be a duration.
    public static func parse(_ text: String) throws(AlarmInputError) -> TimeOfDay {
        // "HH:MM", as the agent writes every time it sends: read without the general parse below
        // (10,000 alarms listed are 10,000 of these).
        if let digits = asciiDigits(text, pattern: "dd:dd"), digits[0] < 24, digits[1] < 60 {
            return try TimeOfDay(hour: digits[0], minute: digits[1])
        }
        let trimmed = text.trimmingSpaces()
        // Made only for an error: a valid time, the usual case, needs no quoting.
        func quoted() -> String { AlarmInputError.quotable(trimmed) }
        guard !trimmed.isEmpty else {
            throw AlarmInputError("A time of day is missing. Try \(examples).")
        }
        guard trimmed.count <= 32 else {
            throw AlarmInputError("“\(AlarmInputError.quotable(trimmed.prefix(20)))…” is too long to be a time of day. Try \(examples).")
        }
        let lowered = trimmed.lowercased()
        switch lowered {
        case "noon": return try TimeOfDay(hour: 12)
        case "midnight": return try TimeOfDay(hour: 0)
        default: break
        }

        var clock = Substring(lowered)
        var isAfternoon: Bool?
        if clock.hasSuffix("am") || clock.hasSuffix("pm") {
            isAfternoon = clock.hasSuffix("pm")
            clock = clock.dropLast(2)
            // One space is the usual "7 am"; more, or a tab, is still clearly meant.
            while clock.last == " " || clock.last == "\t" { clock = clock.dropLast() }
        }
        let fields = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard (1...2).contains(fields.count),
              (1...2).contains(fields[0].count), fields[0].allSatisfy(\.isASCIIDigit),
              fields.count == 1 || (fields[1].count == 2 && fields[1].allSatisfy(\.isASCIIDigit)),
              // "7" alone is a time only with am/pm.
              fields.count == 2 || isAfternoon != nil,
              let hour = Int(fields[0]), let minute = fields.count == 2 ? Int(fields[1]) : 0 else {
            throw AlarmInputError("“\(quoted())” is not a time of day. Try \(examples).")
        }
        guard minute < 60 else {
            throw AlarmInputError("“\(quoted())” is not a time of day: the minutes go from 00 to 59. Try \(examples).")
        }
        if let isAfternoon {
            guard (1...12).contains(hour) else {
                throw AlarmInputError("“\(quoted())” is not a time of day: with am or pm the hour goes from 1 to 12. Try \(examples).")
            }
            // 12am is midnight and 12pm noon: the 12 stands for 0.
            return try TimeOfDay(hour: hour % 12 + (isAfternoon ? 12 : 0), minute: minute)
        }
        guard hour < 24 else {
            throw AlarmInputError("“\(quoted())” is not a time of day: the hour goes from 0 to 23. Try \(examples).")
        }
        return try TimeOfDay(hour: hour, minute: minute)
    }

    /// The calendar date `text` spells as `YYYY-MM-DD`, checked against the calendar (2026-02-30 is refused).
    public static func parseDate(_ text: String) throws(AlarmInputError) -> LocalDate {
        // The exact form, as the agent writes it, without the splitting below.
        if let fields = asciiDigits(text, pattern: "dddd-dd-dd"),
           LocalDate.problem(year: fields[0], month: fields[1], day: fields[2]) == nil {
            return try LocalDate(year: fields[0], month: fields[1], day: fields[2])
        }
        let trimmed = text.trimmingSpaces()
        func quoted() -> String { AlarmInputError.quotable(trimmed.count <= 32 ? Substring(trimmed) : trimmed.prefix(20) + "…") }
        let format = "Write it as YYYY-MM-DD, e.g. 2026-12-01."
        guard !trimmed.isEmpty else {
            throw AlarmInputError("A date is missing. \(format)")
        }
        let fields = trimmed.split(separator: "-", omittingEmptySubsequences: false)
        guard fields.map(\.count) == [4, 2, 2], fields.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              let year = Int(fields[0]), let month = Int(fields[1]), let day = Int(fields[2]) else {
            throw AlarmInputError("“\(quoted())” is not a date. \(format)")
        }
        if let problem = LocalDate.problem(year: year, month: month, day: day) {
            throw AlarmInputError("“\(quoted())” is not a date: \(problem).")
        }
        return try LocalDate(year: year, month: month, day: day)
    }

    /// The numbers in `text` when it has exactly the shape of `pattern`, where `d` stands for an
    /// ASCII digit and any other character for itself ("dd:dd" reads "07:30" as [7, 30]); `nil`
    /// for any other text.
    private static func asciiDigits(_ text: String, pattern: StaticString) -> [Int]? {
        let shape = UnsafeBufferPointer(start: pattern.utf8Start, count: pattern.utf8CodeUnitCount)
        guard text.utf8.count == shape.count else { return nil }
        var numbers: [Int] = []
        var current: Int?
        for (byte, expected) in zip(text.utf8, shape) {
            if expected == UInt8(ascii: "d") {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                current = (current ?? 0) * 10 + Int(byte - UInt8(ascii: "0"))
            } else {
                guard byte == expected else { return nil }
                if let number = current { numbers.append(number) }
                current = nil
            }
        }
        if let number = current { numbers.append(number) }
        return numbers
    }

    /// The days `text` says an alarm repeats on: `daily`, `weekdays` (Mon–Fri), `weekends`,
    /// `once` (no days: it rings once), or days and ranges separated by commas (`mon,wed,fri`,
    /// `mon-fri`, `sat-mon`, full names too), in any case.
    public static func parseRepeat(_ text: String) throws(AlarmInputError) -> Set<Weekday> {
        let trimmed = text.trimmingSpaces()
        func quoted() -> String { AlarmInputError.quotable(trimmed.count <= 64 ? Substring(trimmed) : trimmed.prefix(20) + "…") }
        guard !trimmed.isEmpty else {
            throw AlarmInputError("The days to repeat on are missing. Try \(repeatExamples).")
        }
        switch trimmed.lowercased() {
        case "daily", "every day", "everyday": return Weekday.everyDay
        case "weekdays": return Weekday.workdays
        case "weekends", "weekend": return Weekday.weekend
        case "once": return []
        default: break
        }
        var days: Set<Weekday> = []
        for item in trimmed.lowercased().split(separator: ",", omittingEmptySubsequences: false) {
            let ends = item.split(separator: "-", omittingEmptySubsequences: false).map { $0.trimmingSpaces() }
            let named = ends.compactMap(weekday(named:))
            guard (1...2).contains(ends.count), named.count == ends.count else {
                let culprit = ends.first { weekday(named: $0) == nil } ?? String(item)
                throw AlarmInputError("“\(quoted())” is not a repeat: “\(AlarmInputError.quotable(culprit.prefix(20)))” is not a day. Try \(repeatExamples).")
            }
            // A range runs forward and may wrap past Sunday: sat-mon is Sat, Sun, Mon.
            let first = named[0].isoNumber - 1
            let length = ((named.last!.isoNumber - 1 - first) % 7 + 7) % 7 + 1
            for step in 0..<length {
                let day = Weekday.allCases[(first + step) % 7]
                guard days.insert(day).inserted else {
                    throw AlarmInputError("“\(quoted())” is not a repeat: it names \(day) twice. Try \(repeatExamples).")
                }
            }
        }
        return days
    }

    private static func weekday(named name: String) -> Weekday? {
        Weekday(rawValue: name) ?? Weekday.allCases.first { fullName(of: $0) == name }
    }

    private static func fullName(of weekday: Weekday) -> String {
        switch weekday {
        case .monday: "monday"
        case .tuesday: "tuesday"
        case .wednesday: "wednesday"
        case .thursday: "thursday"
        case .friday: "friday"
        case .saturday: "saturday"
        case .sunday: "sunday"
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
