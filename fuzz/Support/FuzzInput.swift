import Foundation
import TocsinCore

/// Reads structured values from libFuzzer's bytes, so that mutating a byte changes one choice
/// (a key, a type, a number, a string) instead of breaking a parse. When the bytes run out,
/// every read returns its simplest value (0, false, the first choice), so any input is valid.
struct FuzzInput {
    private let bytes: [UInt8]
    private var position = 0

    init(_ data: UnsafePointer<UInt8>?, _ size: Int) {
        bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isExhausted: Bool { position >= bytes.count }

    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func bool() -> Bool { byte() & 1 == 1 }

    /// A number in `0..<count` (`count` at most 256·256).
    mutating func choice(_ count: Int) -> Int {
        precondition(count > 0)
        if count <= 256 { return Int(byte()) % count }
        return (Int(byte()) << 8 | Int(byte())) % count
    }

    mutating func pick<T>(_ values: [T]) -> T { values[choice(values.count)] }

    mutating func uint64() -> UInt64 {
        (0..<8).reduce(UInt64(0)) { value, _ in value << 8 | UInt64(byte()) }
    }

    /// The bytes left, at most `limit`, as a (lossily decoded) UTF-8 string.
    mutating func rawString(limit: Int) -> String {
        let length = min(choice(256), limit, bytes.count - min(position, bytes.count))
        let slice = bytes[min(position, bytes.count)..<min(position + length, bytes.count)]
        position += length
        return String(decoding: slice, as: UTF8.self)
    }

    /// A double: mostly values at the edges of what the request keys accept, sometimes raw bits.
    mutating func double(now: Date) -> Double {
        switch choice(4) {
        case 0: return pick(FuzzValues.doubles)
        case 1: return now.timeIntervalSince1970 + pick(FuzzValues.doubles)  // instants near "now"
        case 2: return Double(bitPattern: uint64())
        default: return Double(Int16(truncatingIfNeeded: Int(byte()) << 8 | Int(byte())))
        }
    }

    mutating func integer() -> Int64 {
        bool() ? pick(FuzzValues.integers) : Int64(bitPattern: uint64())
    }

    /// A string: typical spellings of every key's values, markup, control characters, long and
    /// huge strings, or the input's own bytes.
    mutating func string() -> String {
        switch choice(8) {
        case 0, 1, 2: return pick(FuzzValues.strings)
        case 3: return rawString(limit: 255)
        case 4:
            // Two pieces joined: "7:00" + "\u{1b}[31m", "<b>" + "Pasta", …
            return pick(FuzzValues.strings) + pick(FuzzValues.strings)
        case 5:
            // Long: just under, at and over the limits (40, 64, 200, 4096), and huge.
            let unit = pick(FuzzValues.repeatUnits)
            return String(repeating: unit, count: pick(FuzzValues.lengths))
        case 6:
            return pick(FuzzValues.strings) + rawString(limit: 64)
        default:
            return String(String.UnicodeScalarView((0..<choice(16)).map { _ in pick(FuzzValues.scalars) }))
        }
    }
}

/// The values the fuzz targets and the live D-Bus fuzzing draw from.
enum FuzzValues {
    static let doubles: [Double] = [
        0, -0.0, 1, -1, 0.5, 0.001, 1e-300, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .leastNormalMagnitude,
        0.999999, 1.000001, 59, 60, 61, 90, 599.999, 600, 600.000001, 3600, 86399.9, 86400, 86400.000001, 86401,
        366 * 86400, 366 * 86400 + 0.001, 31_622_401, 1e9, 4e9, 253_402_300_800, 3e13, 3.0000001e13, 1e15,
        9_007_199_254_740_992, 9.223372036854775e18, 9.223372036854776e18, 9.3e18, 1.8446744073709552e19, 1e300,
        .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity, .nan, -.nan, .signalingNaN,
        -1e-9, -600, -86400, -1e300,
    ]

    static let integers: [Int64] = [
        0, 1, -1, 59, 60, 600, 86400, 31_622_400, 31_622_401, Int64(Int32.max), Int64(Int32.min), 1 << 53, (1 << 53) + 1,
        Int64.max, Int64.min, Int64.max - 1, Int64.min + 1,
    ]

    static let strings: [String] = [
        "", " ", "\t", "timer", "alarm", "Timer", "TIMER", "alarm ", "clock",
        // durations and times
        "90", "90s", "3m", "1h30m", "1h 30m", "2.5min", "1:30", "01:02:03", "0", "-5s", "1e3", ".", "1..2s", "5m5m", "30m1h",
        "999999999999s", "99999999:59", "7:00", "07:00", "23:59", "24:00", "0:60", "12am", "12pm", "7:15pm", "7 am", "13pm",
        "noon", "midnight", "7", "٧:٠٠", "７:００",
        // dates and repeats
        "2026-12-01", "2026-02-29", "2028-02-29", "2026-02-30", "0000-01-01", "9999-12-31", "-001-01-01", "1970-01-01",
        "daily", "weekdays", "weekends", "once", "mon,wed,fri", "mon-fri", "sat-mon", "mon,mon", "mon-sun,mon", "funday", ",",
        "monday", "MON", "mon - fri",
        // sounds
        "default", "bell", "alarm-clock-elapsed", "/usr/share/sounds/freedesktop/stereo/bell.oga", "/nonexistent.wav",
        "relative/bell.wav", "/dev/zero", "/", "/tmp/\u{7}", "bell?", "../../etc/passwd",
        // titles, labels, commands
        "Pasta", "Tea", "<b>bold</b> & <i>x</i>", "<span foreground='red'>x</span>", "&amp;", "&", "<", ">", "]]>", "<!--",
        "<a href=\"http://x\">x</a>", "<img src=x>", "%s%n%x", "\\", "'", "\"", "$(echo hi)", "`id`",
        "\u{0}", "\u{1}", "\u{7}", "\u{8}", "\u{1b}[31mred\u{1b}[0m", "\r\n", "\n\n", "\u{7f}", "\u{85}", "\u{a0}",
        "\u{2028}", "\u{2029}", "\u{200b}", "\u{200d}", "\u{feff}", "\u{ad}", "\u{202e}evil", "\u{2066}", "\u{e000}",
        "\u{fffd}", "\u{10ffff}", "e\u{301}", "👩‍👩‍👧‍👦", "🇩🇪", "ﷺ", "آزمایش\u{200c}ی", "日本語",
        // hook events, metadata
        "fire", "stop", "snooze", "secondary", "cancel", "missed", "true", ":",
        "null", "{}", "[]", "1", "\"x\"", "{\"a\":[1,2,{\"b\":null}]}", "{", "[1,", "NaN", "1e999", "{\"a\":\"\\ud800\"}",
        String(repeating: "[", count: 2000) + String(repeating: "]", count: 2000),
        String(repeating: "{\"a\":", count: 600) + "1" + String(repeating: "}", count: 600),
        // alarm ids
        "6f1c2e0a-8d1b-4c55-9f3e-2b7a1d0c9e44", "6F1C2E0A-8D1B-4C55-9F3E-2B7A1D0C9E44", "00000000-0000-0000-0000-000000000000",
        "6f1c2e0a8d1b4c559f3e2b7a1d0c9e44", "{6f1c2e0a-8d1b-4c55-9f3e-2b7a1d0c9e44}",
        // keys and near misses
        "duration", "Duration", "duration ", "button_label", "buttonLabel", "ring_limit", "id", "state",
    ]

    static let repeatUnits: [String] = ["a", "é", " ", "\u{0}", "\u{1b}", "<b>", "&", "👩‍👩‍👧‍👦", "e\u{301}", "\u{200b}", "1", "9", ":"]
    static let lengths: [Int] = [1, 39, 40, 41, 63, 64, 65, 199, 200, 201, 255, 256, 4095, 4096, 4097, 100_000]

    static let scalars: [Unicode.Scalar] = [
        "a", "0", "9", ":", "-", ".", ",", " ", "\t", "\n", "\u{0}", "\u{1b}", "\u{7f}", "\u{85}", "\u{a0}", "\u{ad}",
        "\u{200b}", "\u{200d}", "\u{2028}", "\u{202e}", "\u{2066}", "\u{feff}", "\u{fffd}", "\u{10ffff}", "\u{301}",
        "<", ">", "&", ";", "'", "\"", "\\", "/", "m", "h", "s", "p", "é", "٧", "７", "🇩", "🇪",
    ]
}
