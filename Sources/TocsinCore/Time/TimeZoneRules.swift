import FoundationEssentials

/// A time zone's rules: its UTC offset, abbreviation and daylight-saving flag at any instant.
///
/// Read from the system's compiled zone files (TZif, RFC 8536) or from a POSIX TZ rule, in pure
/// Swift, so the agent does not need Foundation's ICU-backed `TimeZone` (and can link only
/// FoundationEssentials). Only the offset at an instant is computed here; calendar arithmetic stays
/// with its callers.
///
/// Instants are taken in whole seconds (rounded down), and clamped to about ±140 million years
/// around 1970 so that no date, not even an infinite one, can trap.
///
/// Zones from the "right/" tree (clocks that count leap seconds) are not supported: their
/// leap-second records are skipped, so their answers are off by the leap seconds so far.
public struct TimeZoneRules: Sendable, Hashable, CustomStringConvertible {
    /// The zone's name: "Europe/Berlin", "Etc/UTC", or for a fixed offset / POSIX rule the text it
    /// was made from.
    public let identifier: String

    /// Transition instants in seconds since 1970, strictly ascending. Kept in 64-bit integers and
    /// one byte per type index so that a zone with two hundred transitions costs about 2 KB.
    private let transitionTimes: [Int64]
    /// For each transition, the index in `localTimeTypes` of the local time that starts there.
    private let transitionTypeIndexes: [UInt8]
    /// At least one; type 0 is in effect before the first transition (RFC 8536 §3.2).
    private let localTimeTypes: [LocalTimeType]
    /// The rule at and after the last transition, and at all instants when there is none.
    private let rule: PosixTimeZoneRule?

    /// UTC, named "Etc/UTC" (the name Debian's /etc/localtime symlink gives).
    public static let utc = TimeZoneRules(
        identifier: "Etc/UTC", fixed: LocalTimeType(utcOffset: 0, isDaylightSaving: false, abbreviation: "UTC"))

    /// A zone always `secondsEast` seconds east of UTC.
    ///
    /// `identifier` defaults to Foundation's name for such a zone, "GMT+0530" or "GMT-0800" (to the
    /// nearest minute), except that an offset of zero with no identifier gives `TimeZoneRules.utc`.
    /// The abbreviation is also Foundation's: "GMT+5:30", "GMT-8", "GMT".
    public init(secondsEast: Int, identifier: String? = nil) {
        if secondsEast == 0 && identifier == nil {
            self = .utc
            return
        }
        let (sign, hours, minutes) = Self.signHoursMinutes(secondsEast)
        let paddedHours = hours < 10 ? "0\(hours)" : "\(hours)"
        let paddedMinutes = minutes < 10 ? "0\(minutes)" : "\(minutes)"
        let roundsToZero = hours == 0 && minutes == 0
        let name = roundsToZero ? "GMT" : "GMT\(sign)\(paddedHours)\(paddedMinutes)"
        let abbreviation = roundsToZero ? "GMT" : "GMT\(sign)\(hours)" + (minutes == 0 ? "" : ":\(paddedMinutes)")
        self.init(identifier: identifier ?? name,
                  fixed: LocalTimeType(utcOffset: secondsEast, isDaylightSaving: false, abbreviation: abbreviation))
    }


    /// The offset in a fixed zone's name as `init(secondsEast:)` makes it: "GMT+0530", "GMT-0800".
    package static func secondsEast(ofFixedName name: String) -> Int? {
        let bytes = Array(name.utf8)
        guard bytes.count == 8, name.hasPrefix("GMT"), bytes[3] == UInt8(ascii: "+") || bytes[3] == UInt8(ascii: "-"),
              bytes[4...].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let hours = Int(String(name.dropFirst(4).prefix(2))), let minutes = Int(String(name.suffix(2))), minutes < 60 else { return nil }
        return (bytes[3] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// Parses the bytes of a TZif file (versions 1, 2, 3, 4); `identifier` names the result.
    ///
    /// Throws when the bytes are not a complete, consistent TZif file; the error says what is
    /// wrong in one sentence.
    public init(tzif bytes: [UInt8], identifier: String) throws(TimeZoneRulesError) {
        let file = try TZifFile(parsing: bytes)
        self.identifier = identifier
        transitionTimes = file.transitionTimes
        transitionTypeIndexes = file.transitionTypeIndexes
        localTimeTypes = file.localTimeTypes
        rule = file.footerRule
    }

    /// A zone following a POSIX TZ rule ("CET-1CEST,M3.5.0,M10.5.0/3", "JST-9", "<+0530>-5:30",
    /// "EST5EDT"); nil when `rule` is not one. The rule text is the identifier.
    public init?(posixRule rule: String) {
        guard let parsed = PosixTimeZoneRule(rule) else { return nil }
        identifier = rule
        transitionTimes = []
        transitionTypeIndexes = []
        localTimeTypes = [parsed.standard]
        self.rule = parsed
    }

    private init(identifier: String, fixed localTime: LocalTimeType) {
        self.identifier = identifier
        transitionTimes = []
        transitionTypeIndexes = []
        localTimeTypes = [localTime]
        rule = nil
    }

    /// The offset from UTC, in seconds east, at `instant`.
    public func secondsFromGMT(for instant: Date) -> Int {
        localTimeType(atSecond: Self.clampedSeconds(instant)).utcOffset
    }

    /// The abbreviation at `instant`, as the zone file or rule spells it ("CET", "EDT", "+0530").
    public func abbreviation(for instant: Date) -> String {
        localTimeType(atSecond: Self.clampedSeconds(instant)).abbreviation
    }

    /// Whether daylight-saving time is in effect at `instant`, as the zone file or rule says.
    public func isDaylightSavingTime(for instant: Date) -> Bool {
        localTimeType(atSecond: Self.clampedSeconds(instant)).isDaylightSaving
    }

    /// The first instant after `instant` at which the offset or abbreviation changes; nil when it
    /// never does.
    ///
    /// Transitions that change neither (zone files have some, where only the daylight-saving flag
    /// or nothing at all changes) are passed over.
    public func nextTransition(after instant: Date) -> Date? {
        nextTransition(afterSecond: Self.clampedSeconds(instant)).map { Date(timeIntervalSince1970: Double($0)) }
    }

    /// The identifier.
    public var description: String { identifier }

    // MARK: - Lookup

    /// The local time in effect at `second` (seconds since 1970, UTC), following RFC 8536 §3.2:
    /// type 0 before the first transition, the latest transition's type up to the last one, and
    /// from the last transition on the footer's rule (or, without one, the last transition's type).
    func localTimeType(atSecond second: Int) -> LocalTimeType {
        if transitionTimes.isEmpty || second >= transitionTimes[transitionTimes.count - 1] {
            // At or after the last transition (or with none at all) the rule, if any, decides.
            if let rule { return rule.localTimeType(atSecond: second) }
            return localTimeTypes[transitionTypeIndexes.isEmpty ? 0 : Int(transitionTypeIndexes[transitionTypeIndexes.count - 1])]
        }
        guard let index = latestTransition(atOrBefore: second) else { return localTimeTypes[0] }
        return localTimeTypes[Int(transitionTypeIndexes[index])]
    }

    /// The index of the last transition at or before `second`; nil when all are after it.
    private func latestTransition(atOrBefore second: Int) -> Int? {
        // Binary search for the first transition after `second`.
        var low = 0
        var high = transitionTimes.count
        while low < high {
            let middle = low + (high - low) / 2
            if Int(transitionTimes[middle]) <= second { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }

    /// The first second after `second` at which the offset or abbreviation changes; nil past
    /// `latestSecond`, where instants are not told apart.
    func nextTransition(afterSecond second: Int) -> Int? {
        // Transitions in the table first, skipping those that change neither.
        var index = (latestTransition(atOrBefore: second) ?? -1) + 1
        while index < transitionTimes.count {
            let time = Int(transitionTimes[index])
            guard time <= Self.latestSecond else { return nil }
            let before = localTimeType(atSecond: time - 1)
            let after = localTimeType(atSecond: time)
            if before.utcOffset != after.utcOffset || before.abbreviation != after.abbreviation { return time }
            index += 1
        }
        // Past the table only the rule changes anything; without one nothing changes again.
        guard let rule else { return nil }
        let lastTime = transitionTimes.isEmpty ? Int.min : Int(transitionTimes[transitionTimes.count - 1])
        return rule.nextTransition(afterSecond: max(second, lastTime))
    }

    // MARK: - Helpers

    /// The range instants are clamped to: ±2^52 seconds, about ±140 million years. Wide enough for
    /// any real date (`Date.distantPast` and `distantFuture` are years 1 and 4001), small enough
    /// that calendar arithmetic on it cannot overflow and that every second in it is exact as a
    /// `Date` (a Double), so a transition found here comes back unchanged when passed in again.
    static let earliestSecond = -(1 << 52)
    static let latestSecond = 1 << 52

    static func clamp(_ second: Int) -> Int { min(max(second, earliestSecond), latestSecond) }

    /// `instant` in whole seconds since 1970, rounded down and clamped; NaN counts as 1970.
    static func clampedSeconds(_ instant: Date) -> Int {
        let interval = instant.timeIntervalSince1970
        if interval.isNaN { return 0 }
        if interval <= Double(earliestSecond) { return earliestSecond }
        if interval >= Double(latestSecond) { return latestSecond }
        return Int(interval.rounded(.down))
    }

    /// The sign, hours and minutes of an offset, rounded to the nearest minute as Foundation does.
    private static func signHoursMinutes(_ secondsEast: Int) -> (sign: String, hours: UInt, minutes: UInt) {
        let totalMinutes = (secondsEast.magnitude + 30) / 60   // a UInt: even Int.min cannot overflow
        return (secondsEast < 0 ? "-" : "+", totalMinutes / 60, totalMinutes % 60)
    }

    /// A zone name is used as a path under the zoneinfo directory, so it must stay there: not
    /// empty, not absolute, no ".." component, no NUL. Empty and "." components ("Europe//Berlin",
    /// "Europe/Berlin/", "./UTC") are refused too: they would name the same file under a second
    /// spelling, and the identifier is part of a zone's identity.
    package static func isSafeRelativeName(_ name: String) -> Bool {
        guard !name.utf8.contains(0) else { return false }
        return name.split(separator: "/", omittingEmptySubsequences: false)
            .allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." }
    }

}

/// Why bytes are not a usable TZif file.
public struct TimeZoneRulesError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One sentence saying what is wrong, e.g. "not a time zone file (it does not start with
    /// “TZif”)" or "truncated: the header promises 1,204 bytes of transitions, types and
    /// abbreviations, the file has 980 after it".
    public let description: String

    init(_ description: String) { self.description = description }
}
