import Foundation

// Time and ids are inputs: every instant is built from `t0`, never read from the clock.

/// The instant the tests run at: 2027-01-15 08:00:00 UTC, a Friday.
let t0 = Date(timeIntervalSince1970: 1_800_000_000)

/// `seconds` after `t0`.
func at(_ seconds: TimeInterval) -> Date {
    t0.addingTimeInterval(seconds)
}

/// A fixed id whose text starts with `prefix` (hex digits), padded with zeros.
func id(_ prefix: String) -> UUID {
    let hex = (prefix + String(repeating: "0", count: 32 - prefix.count))
    let text = "\(hex.prefix(8))-\(hex.dropFirst(8).prefix(4))-\(hex.dropFirst(12).prefix(4))-\(hex.dropFirst(16).prefix(4))-\(hex.dropFirst(20))"
    return UUID(uuidString: text)!
}
