import FoundationEssentials

/// Durations written for people: as a countdown clock (`2:59`, `1:02:03`) or in words (`1 h 30 min`).
public enum DurationFormat {
    /// A countdown clock: `m:ss` under an hour, `h:mm:ss` from an hour on. Negative values read as zero.
    public static func clock(seconds: Int) -> String {
        let seconds = max(0, seconds)
        let (hours, minutes, secs) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        return hours > 0
            ? "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))"
            : "\(minutes):\(twoDigits(secs))"
    }

    /// Words for messages: `45 s`, `3 min`, `1 h 30 min`, `2 d 1 h`. Fractions of a second are shown
    /// only below a second; only the two largest units are kept.
    public static func spoken(_ interval: TimeInterval) -> String {
        // Beyond a million years the words are meaningless and Int conversion would trap.
        guard interval.isFinite, abs(interval) < 3e13 else { return "\(interval) s" }
        if abs(interval) < 1, interval != 0 {
            // Up to three decimals, trailing zeros dropped ("0.5 s").
            var text = fixedPointText(interval, fractionDigits: 3)
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
            return "\(text) s"
        }
        let sign = interval < 0 ? "-" : ""
        var rest = Int(abs(interval).rounded())
        var parts: [String] = []
        for (unit, size) in [("d", 86400), ("h", 3600), ("min", 60), ("s", 1)] where rest >= size || (unit == "s" && parts.isEmpty) {
            parts.append("\(rest / size) \(unit)")
            rest %= size
            if parts.count == 2 || rest == 0 { break }
        }
        return sign + parts.joined(separator: " ")
    }

    private static func twoDigits(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }
}
