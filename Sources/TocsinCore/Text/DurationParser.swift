import FoundationEssentials

/// Reads durations the way people type them: `90`, `90s`, `3m`, `1h30m`, `1h 30m`, `2.5min`,
/// `1:30` (minutes:seconds) and `01:02:03` (hours:minutes:seconds).
public enum DurationParser {
    /// The examples quoted in error messages.
    public static let examples = "90, 90s, 3m, 1h30m, 1:30 or 01:02:03"

    /// The duration `text` spells, in seconds, or an error naming what was wrong.
    public static func parse(_ text: String) throws(AlarmInputError) -> TimeInterval {
        let trimmed = text.trimmingSpaces()
        let quoted = AlarmInputError.quotable(trimmed)
        guard !trimmed.isEmpty else {
            throw AlarmInputError("A duration is missing. Try \(examples).")
        }
        guard trimmed.count <= 64 else {
            throw AlarmInputError("“\(AlarmInputError.quotable(trimmed.prefix(20)))…” is too long to be a duration. Try \(examples).")
        }
        if trimmed.hasPrefix("-") {
            throw AlarmInputError("“\(quoted)” is negative; a duration must be longer than zero.")
        }
        let seconds: TimeInterval? = trimmed.contains(":") ? parseClock(trimmed) : parseUnits(trimmed)
        guard let seconds, seconds.isFinite else {
            throw AlarmInputError("“\(quoted)” is not a duration. Try \(examples).")
        }
        return seconds
    }

    /// `m:ss` or `h:mm:ss`; every field digits only, the later ones below 60.
    private static func parseClock(_ text: String) -> TimeInterval? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count),
              fields.allSatisfy({ !$0.isEmpty && $0.count <= 9 && $0.allSatisfy(\.isASCIIDigit) }) else { return nil }
        let numbers = fields.compactMap { Int($0) }
        guard numbers.dropFirst().allSatisfy({ $0 < 60 }) else { return nil }
        return TimeInterval(numbers.reduce(0) { $0 * 60 + $1 })
    }

    /// A bare number of seconds, or number-unit groups such as `1h30m`, `1h 30m 10s`, `2.5min`.
    private static func parseUnits(_ text: String) -> TimeInterval? {
        var total: TimeInterval = 0
        var remainder = Substring(text)
        var seenUnits: Set<TimeInterval> = []
        var isFirstGroup = true
        while !remainder.isEmpty {
            remainder = remainder.drop(while: \.isWhitespace)
            let number = remainder.prefix(while: { $0.isASCIIDigit || $0 == "." })
            guard !number.isEmpty, number.count <= 12, let value = Double(number) else { return nil }
            remainder = remainder.dropFirst(number.count).drop(while: \.isWhitespace)
            let unitText = remainder.prefix(while: \.isLetter)
            remainder = remainder.dropFirst(unitText.count)
            let unit: TimeInterval
            if unitText.isEmpty {
                // A bare number is seconds, and only as the whole text: "1h30" is ambiguous.
                guard isFirstGroup, remainder.allSatisfy(\.isWhitespace) else { return nil }
                unit = 1
            } else {
                guard let known = unitSeconds[unitText.lowercased()] else { return nil }
                unit = known
            }
            // Each unit once, largest first: "30m1h" or "5m5m" is a typo, not a sum.
            guard !seenUnits.contains(unit), seenUnits.allSatisfy({ $0 > unit }) else { return nil }
            seenUnits.insert(unit)
            isFirstGroup = false
            total += value * unit
        }
        return total
    }

    private static let unitSeconds: [String: TimeInterval] = [
        "s": 1, "sec": 1, "secs": 1, "second": 1, "seconds": 1,
        "m": 60, "min": 60, "mins": 60, "minute": 60, "minutes": 60,
        "h": 3600, "hr": 3600, "hrs": 3600, "hour": 3600, "hours": 3600,
        "d": 86400, "day": 86400, "days": 86400,
    ]
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
