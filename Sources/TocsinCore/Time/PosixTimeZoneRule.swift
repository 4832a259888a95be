import FoundationEssentials

/// A POSIX TZ rule (POSIX.1-2017 §8.3, with the RFC 8536 extensions: hours -167…167 in transition
/// times, and `<...>` quoted names), such as "CET-1CEST,M3.5.0,M10.5.0/3" or "<+0530>-5:30".
///
/// This is the text a TZ environment variable may hold, and the footer of a version 2+ TZif file
/// (which says how the zone keeps time after the file's last transition).
///
/// POSIX writes offsets in hours *west* of UTC ("EST5" is five hours behind); every offset this type
/// gives is in seconds *east* of UTC, like `TimeZone.secondsFromGMT`.
public struct PosixTimeZoneRule: Sendable, Hashable {
    /// The local time outside daylight-saving time.
    let standard: LocalTimeType
    /// Daylight-saving time and the rule for when it starts and ends; nil for a fixed offset.
    let daylightSaving: DaylightSaving?

    /// The daylight-saving part of a rule.
    struct DaylightSaving: Sendable, Hashable {
        let localTime: LocalTimeType
        /// When daylight-saving time starts, in the standard time that is in effect before it.
        let start: TransitionMoment
        /// When daylight-saving time ends, in the daylight-saving time that is in effect before it.
        let end: TransitionMoment
    }

    /// A day of the year and a time on it, as a rule's `date[/time]` says.
    struct TransitionMoment: Sendable, Hashable {
        /// Which day of the year.
        enum Day: Sendable, Hashable {
            /// `Jn`: day n of the year, 1…365, February 29 never counted (J60 is always March 1).
            case julian(Int)
            /// `n`: zero-based day of the year, 0…365, counting February 29.
            case zeroBased(Int)
            /// `Mm.w.d`: weekday d (0 = Sunday) of week w of month m; week 5 means the last one.
            case monthWeekDay(month: Int, week: Int, weekday: Int)
        }

        let day: Day
        /// Seconds after local midnight at the start of `day`; RFC 8536 allows -167 h…167 h, so the
        /// transition may fall on another day ("M3.4.4/26" is the Friday after the fourth Thursday).
        let secondsAfterMidnight: Int
    }

    /// Parses a POSIX TZ rule; nil when `text` is not one (a zone name such as "Europe/Berlin", a
    /// ":path", a rule with an out-of-range field, or anything after the rule).
    public init?(_ text: String) {
        var scanner = RuleScanner(text)
        guard let rule = scanner.rule(), scanner.isAtEnd else { return nil }
        self = rule
    }

    /// The rule in the footer of a version 2+ TZif file: the text between the file's last two
    /// newlines. nil when `tzif` is not a version 2+ TZif file, does not end with a newline, or its
    /// footer is empty or not a rule.
    public init?(footerOf tzif: [UInt8]) {
        guard let footer = TZifFile.footerText(of: tzif), let rule = PosixTimeZoneRule(footer) else { return nil }
        self = rule
    }

    /// Makes a rule from its parts (the parser's last step).
    init(standard: LocalTimeType, daylightSaving: DaylightSaving?) {
        self.standard = standard
        self.daylightSaving = daylightSaving
    }

    /// True when the rule has no daylight-saving part ("JST-9", "<+0530>-5:30", "UTC0").
    ///
    /// A rule whose daylight-saving time lasts all year ("EST5EDT4,0/0,J365/25") has a
    /// daylight-saving part, so it is not a fixed offset here even though its offset never changes.
    public var isFixedOffset: Bool { daylightSaving == nil }

    /// The standard time's offset in seconds east of UTC ("JST-9" gives 32400).
    public var standardOffset: Int { standard.utcOffset }

    /// The standard time's abbreviation, without the quoting brackets ("JST", "+0530").
    public var standardAbbreviation: String { standard.abbreviation }

    /// The daylight-saving time's offset in seconds east of UTC; nil for a fixed offset.
    public var daylightSavingOffset: Int? { daylightSaving?.localTime.utcOffset }

    /// The daylight-saving time's abbreviation; nil for a fixed offset.
    public var daylightSavingAbbreviation: String? { daylightSaving?.localTime.abbreviation }

    /// The offset from UTC, in seconds east, that the rule gives at `instant`.
    public func secondsFromGMT(for instant: Date) -> Int {
        localTimeType(atSecond: TimeZoneRules.clampedSeconds(instant)).utcOffset
    }

    /// The abbreviation the rule gives at `instant` ("CEST", or "+0530" for a quoted name).
    public func abbreviation(for instant: Date) -> String {
        localTimeType(atSecond: TimeZoneRules.clampedSeconds(instant)).abbreviation
    }

    /// Whether daylight-saving time is in effect at `instant`.
    public func isDaylightSavingTime(for instant: Date) -> Bool {
        localTimeType(atSecond: TimeZoneRules.clampedSeconds(instant)).isDaylightSaving
    }

    /// The first instant after `instant` at which the offset or abbreviation changes; nil when it
    /// never does (a fixed offset, or daylight-saving time all year).
    public func nextTransition(after instant: Date) -> Date? {
        nextTransition(afterSecond: TimeZoneRules.clampedSeconds(instant)).map { Date(timeIntervalSince1970: Double($0)) }
    }
}

// MARK: - Evaluation

extension PosixTimeZoneRule {
    /// The local time in effect at `seconds` since 1970 (UTC).
    ///
    /// The answer is the state set by the latest daylight-saving start or end at or before
    /// `seconds`, among the transitions of the year around it. Looking at the neighbouring years as
    /// well (not only the UTC year of `seconds`, as glibc does) matters when a transition crosses a
    /// year boundary: "EST5EDT4,0/0,J365/25" ends DST at 01:00 on January 1 of the next year, so
    /// the first hours of a UTC year are still daylight-saving time.
    func localTimeType(atSecond seconds: Int) -> LocalTimeType {
        guard let daylightSaving else { return standard }
        let seconds = TimeZoneRules.clamp(seconds)
        let year = CivilCalendar.year(containingSecond: seconds)
        var latest = LatestEvent(atOrBefore: seconds)
        for candidateYear in (year - 1)...(year + 1) {
            let events = daylightSaving.events(in: candidateYear, standardOffset: standard.utcOffset)
            latest.consider(events.first)
            latest.consider(events.second)
        }
        // Nothing found only for a rule whose transitions wander more than a year from their
        // nominal year, which the grammar cannot express; standard time is the safe answer then.
        return latest.startsDaylightSaving == true ? daylightSaving.localTime : standard
    }

    /// Keeps, of the events shown to it, the latest one at or before `limit`.
    private struct LatestEvent {
        let limit: Int
        private var time = Int.min
        /// nil until an event at or before `limit` has been seen.
        private(set) var startsDaylightSaving: Bool?

        init(atOrBefore limit: Int) { self.limit = limit }

        /// Ties go to the later call, so a start and an end at the same instant cancel out (the
        /// end is shown last and wins) and a later year's event wins over an earlier one's.
        mutating func consider(_ event: DaylightSaving.Event?) {
            guard let event, event.time <= limit, event.time >= time else { return }
            time = event.time
            startsDaylightSaving = event.startsDaylightSaving
        }
    }

    /// The first second after `seconds` at which the offset or abbreviation changes; nil when it
    /// never does.
    func nextTransition(afterSecond seconds: Int) -> Int? {
        guard let daylightSaving, seconds < TimeZoneRules.latestSecond else { return nil }
        let seconds = max(seconds, TimeZoneRules.earliestSecond)
        let year = CivilCalendar.year(containingSecond: seconds)
        var earliest: Int?
        // A change is at most a year and a bit away; a rule with no change in the next few years
        // (daylight-saving time all year, or two identical local times) never changes.
        for candidateYear in (year - 1)...(year + 3) {
            let events = daylightSaving.events(in: candidateYear, standardOffset: standard.utcOffset)
            earliest = earlierChange(at: events.first, after: seconds, than: earliest)
            earliest = earlierChange(at: events.second, after: seconds, than: earliest)
        }
        return earliest.flatMap { $0 <= TimeZoneRules.latestSecond ? $0 : nil }
    }

    /// `event`'s time when it is after `seconds`, before `earliest` and changes the offset or
    /// abbreviation; else `earliest`.
    private func earlierChange(at event: DaylightSaving.Event?, after seconds: Int, than earliest: Int?) -> Int? {
        guard let event, event.time > seconds else { return earliest }
        if let earliest, event.time >= earliest { return earliest }
        return changes(at: event.time) ? event.time : earliest
    }

    /// Whether the offset or abbreviation at `second` differs from the one just before it.
    private func changes(at second: Int) -> Bool {
        let before = localTimeType(atSecond: second - 1)
        let after = localTimeType(atSecond: second)
        return before.utcOffset != after.utcOffset || before.abbreviation != after.abbreviation
    }
}

extension PosixTimeZoneRule.DaylightSaving {
    /// A start or an end of daylight-saving time, as an instant in seconds since 1970 (UTC).
    struct Event {
        let time: Int
        let startsDaylightSaving: Bool
    }

    /// The start and end of daylight-saving time for `year`, in the order they should be applied.
    ///
    /// When daylight-saving time lasts the whole year (the end comes a full year or more after the
    /// start, as in RFC 8536's "EST5EDT4,0/0,J365/25"), there is no end: the year has only its
    /// start, so no moment of it falls back to standard time. This is how the reference
    /// implementation (tzcode) reads such rules.
    func events(in year: Int, standardOffset: Int) -> (first: Event, second: Event?) {
        let startTime = start.utcSecond(in: year, offsetInEffect: standardOffset)
        let endTime = end.utcSecond(in: year, offsetInEffect: localTime.utcOffset)
        let startEvent = Event(time: startTime, startsDaylightSaving: true)
        let endEvent = Event(time: endTime, startsDaylightSaving: false)
        if endTime < startTime {
            // Southern hemisphere: daylight-saving time ends early in the year and starts late.
            return (endEvent, startEvent)
        }
        if endTime - startTime >= CivilCalendar.daysInYear(year) * CivilCalendar.secondsPerDay {
            return (startEvent, nil)
        }
        return (startEvent, endEvent)
    }
}

extension PosixTimeZoneRule.TransitionMoment {
    /// The instant, in seconds since 1970 (UTC), at which this moment happens in `year` when the
    /// local time in effect just before it is `offsetInEffect` seconds east of UTC.
    func utcSecond(in year: Int, offsetInEffect: Int) -> Int {
        let localMidnight = (CivilCalendar.daysBefore(year: year) + dayOfYear(in: year)) * CivilCalendar.secondsPerDay
        return localMidnight + secondsAfterMidnight - offsetInEffect
    }

    /// The zero-based day of `year` this moment falls on (before adding its time of day).
    func dayOfYear(in year: Int) -> Int {
        switch day {
        case .julian(let number):
            // J60 is March 1 in every year: February 29 is skipped, so from March on a leap year
            // needs one more day.
            let leapDay = CivilCalendar.isLeapYear(year) && number >= 60 ? 1 : 0
            return number - 1 + leapDay
        case .zeroBased(let number):
            return number
        case .monthWeekDay(let month, let week, let weekday):
            let firstOfMonth = CivilCalendar.daysBefore(month: month, in: year)
            let firstWeekday = CivilCalendar.weekday(ofDay: CivilCalendar.daysBefore(year: year) + firstOfMonth)
            var dayOfMonth = (weekday - firstWeekday + 7) % 7 + 7 * (week - 1)
            // Week 5 means the last such weekday, which may be in the fourth week.
            if dayOfMonth >= CivilCalendar.daysIn(month: month, of: year) { dayOfMonth -= 7 }
            return firstOfMonth + dayOfMonth
        }
    }
}

// MARK: - Calendar arithmetic

/// The calendar arithmetic rules need, on days and seconds since 1970-01-01, in integers and for
/// any year: `LocalDate`'s, plus what is particular to rules (UTC seconds, Sunday-based weekdays).
enum CivilCalendar {
    static let secondsPerDay = 86_400

    static func isLeapYear(_ year: Int) -> Bool { LocalDate.isLeapYear(year) }

    static func daysInYear(_ year: Int) -> Int { isLeapYear(year) ? 366 : 365 }

    /// Floor division: rounds toward minus infinity, so days before 1970 land in the right year.
    static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        let quotient = value / divisor
        return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    /// Days from 1970-01-01 to January 1 of `year` (negative before 1970).
    static func daysBefore(year: Int) -> Int {
        LocalDate.daysSince1970(year: year, month: 1, day: 1)
    }

    /// The year (in UTC) that `second` (seconds since 1970) falls in.
    static func year(containingSecond second: Int) -> Int {
        LocalDate(daysSince1970: floorDivide(second, secondsPerDay)).year
    }

    /// 0 = Sunday … 6 = Saturday, as POSIX rules count; 1970-01-01 was a Thursday.
    static func weekday(ofDay day: Int) -> Int {
        let remainder = (day + 4) % 7
        return remainder < 0 ? remainder + 7 : remainder
    }

    /// Days from January 1 to the first of `month` (1…12) in `year`.
    static func daysBefore(month: Int, in year: Int) -> Int {
        LocalDate.daysSince1970(year: year, month: month, day: 1) - daysBefore(year: year)
    }

    /// The number of days in `month` (1…12) of `year`.
    static func daysIn(month: Int, of year: Int) -> Int { LocalDate.daysIn(month: month, year: year) }
}

// MARK: - Parsing

/// Reads a POSIX TZ rule from its UTF-8 bytes, one field at a time; each method returns nil (and
/// the whole rule is refused) when the field is malformed or out of range.
private struct RuleScanner {
    private let bytes: [UInt8]
    private var position = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    var isAtEnd: Bool { position == bytes.count }

    private var next: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard next == byte else { return false }
        position += 1
        return true
    }

    /// `std offset [dst [offset] [,start[/time],end[/time]]]`.
    mutating func rule() -> PosixTimeZoneRule? {
        guard let standardName = name(), let standardWest = duration(maxHours: 24, maxHourDigits: 2) else { return nil }
        let standard = LocalTimeType(utcOffset: -standardWest, isDaylightSaving: false, abbreviation: standardName)
        if isAtEnd { return PosixTimeZoneRule(standard: standard, daylightSaving: nil) }

        guard let daylightName = name() else { return nil }
        var daylightWest = standardWest - 3600   // POSIX: one hour ahead of standard time by default
        if let byte = next, byte != UInt8(ascii: ",") {
            guard let explicitWest = duration(maxHours: 24, maxHourDigits: 2) else { return nil }
            daylightWest = explicitWest
        }
        let daylight = LocalTimeType(utcOffset: -daylightWest, isDaylightSaving: true, abbreviation: daylightName)

        let start: PosixTimeZoneRule.TransitionMoment
        let end: PosixTimeZoneRule.TransitionMoment
        if isAtEnd {
            // POSIX leaves the dates of a rule without them to the implementation. glibc takes them
            // from the "posixrules" zone file (America/New_York on Debian), or without it uses the
            // US rule built in: second Sunday of March to first Sunday of November, at 02:00. That
            // built-in rule is used here; it is also what posixrules says for every year since
            // 2007, so "EST5EDT" means what it means to glibc today without reading another file.
            start = .init(day: .monthWeekDay(month: 3, week: 2, weekday: 0), secondsAfterMidnight: 7200)
            end = .init(day: .monthWeekDay(month: 11, week: 1, weekday: 0), secondsAfterMidnight: 7200)
        } else {
            guard consume(UInt8(ascii: ",")), let parsedStart = transitionMoment(),
                  consume(UInt8(ascii: ",")), let parsedEnd = transitionMoment() else { return nil }
            start = parsedStart
            end = parsedEnd
        }
        return PosixTimeZoneRule(standard: standard,
                                 daylightSaving: .init(localTime: daylight, start: start, end: end))
    }

    /// A zone abbreviation: three or more ASCII letters, or `<...>` around three or more ASCII
    /// letters, digits, '+' and '-' (the brackets are not part of the name).
    private mutating func name() -> String? {
        let isQuoted = consume(UInt8(ascii: "<"))
        let nameStart = position
        while let byte = next, Self.isNameByte(byte, quoted: isQuoted) { position += 1 }
        let nameBytes = bytes[nameStart..<position]
        guard nameBytes.count >= 3 else { return nil }
        if isQuoted, !consume(UInt8(ascii: ">")) { return nil }
        return String(decoding: nameBytes, as: UTF8.self)
    }

    private static func isNameByte(_ byte: UInt8, quoted: Bool) -> Bool {
        let isLetter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        guard quoted else { return isLetter }
        return isLetter || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// `[+-]hh[:mm[:ss]]` in seconds, with hours up to `maxHours` and minutes and seconds up to 59.
    /// Offsets allow 24 hours; RFC 8536 lets transition times go to 167 hours either way.
    private mutating func duration(maxHours: Int, maxHourDigits: Int) -> Int? {
        var sign = 1
        if consume(UInt8(ascii: "-")) { sign = -1 } else { _ = consume(UInt8(ascii: "+")) }
        guard let hours = number(maxDigits: maxHourDigits), hours <= maxHours else { return nil }
        var total = hours * 3600
        if consume(UInt8(ascii: ":")) {
            guard let minutes = number(maxDigits: 2), minutes <= 59 else { return nil }
            total += minutes * 60
            if consume(UInt8(ascii: ":")) {
                guard let seconds = number(maxDigits: 2), seconds <= 59 else { return nil }
                total += seconds
            }
        }
        return sign * total
    }

    /// One to `maxDigits` decimal digits (so no number can overflow).
    private mutating func number(maxDigits: Int) -> Int? {
        var value = 0
        var digits = 0
        while digits < maxDigits, let byte = next, Self.isDigit(byte) {
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
            position += 1
        }
        guard digits > 0 else { return nil }
        // More digits than allowed make the field invalid rather than the start of the next one.
        if let byte = next, Self.isDigit(byte) { return nil }
        return value
    }

    /// `date[/time]`, where date is `Jn`, `n` or `Mm.w.d` and time defaults to 02:00:00.
    private mutating func transitionMoment() -> PosixTimeZoneRule.TransitionMoment? {
        let day: PosixTimeZoneRule.TransitionMoment.Day
        if consume(UInt8(ascii: "J")) {
            guard let number = number(maxDigits: 3), (1...365).contains(number) else { return nil }
            day = .julian(number)
        } else if consume(UInt8(ascii: "M")) {
            guard let month = number(maxDigits: 2), (1...12).contains(month), consume(UInt8(ascii: ".")),
                  let week = number(maxDigits: 1), (1...5).contains(week), consume(UInt8(ascii: ".")),
                  let weekday = number(maxDigits: 1), (0...6).contains(weekday) else { return nil }
            day = .monthWeekDay(month: month, week: week, weekday: weekday)
        } else {
            guard let number = number(maxDigits: 3), (0...365).contains(number) else { return nil }
            day = .zeroBased(number)
        }
        var time = 7200
        if consume(UInt8(ascii: "/")) {
            guard let parsed = duration(maxHours: 167, maxHourDigits: 3) else { return nil }
            time = parsed
        }
        return .init(day: day, secondsAfterMidnight: time)
    }
}
