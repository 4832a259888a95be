import Foundation
import Testing
@testable import TocsinCore
import TocsinTestSupport

@Suite("DurationParser")
struct DurationParserTests {
    @Test("Good inputs and their values", arguments: [
        ("90", 90.0), ("90s", 90), ("3m", 180), ("1h30m", 5400), ("1h 30m", 5400), ("1:30", 90),
        ("01:02:03", 3723), ("2.5min", 150), ("1d", 86_400),
        // More spellings the parser documents or clearly intends.
        ("  90  ", 90), ("\t3m\t", 180), ("1H30M", 5400), ("1h 30m 10s", 5410), ("1 h 30 m", 5400),
        ("2 hours", 7200), ("45 sec", 45), ("10 minutes", 600), ("1hr", 3600), ("3 days", 259_200),
        ("1d 2h", 93_600), (".5m", 30), ("0:59", 59), ("60:00", 3600), ("100:00:00", 360_000),
        ("0:00:01", 1), ("1:5", 65),
    ])
    func good(text: String, seconds: TimeInterval) throws {
        #expect(try DurationParser.parse(text) == seconds)
    }

    @Test("Bad inputs throw, and the message quotes the (trimmed) input", arguments: [
        "-5s", "abc", "5x", "1:60", "1:2:3:4", "30m1h", "5m5m", "1h30", "1h 30",
        "1:", ":30", "1::30", "1:30:60", "1:60:00", "1: 30", "1.2.3s", ".", "5 5", "1e3", "+5", "1h-30m",
        "s", "m5", "inf", "nan", "500ms", "1 2h",
        "５s", "٥s",                          // non-ASCII digits
        "0h30", "0m30", "0d 5",
    ])
    func bad(text: String) throws {
        let error = try #require(throws: AlarmInputError.self) { try DurationParser.parse(text) }
        let quoted = "“\(text.trimmingCharacters(in: .whitespaces))”"
        #expect(error.message.contains(quoted), "\(error.message.debugDescription) should quote \(quoted.debugDescription)")
    }

    // Control characters (a terminal escape sequence, a bell, a newline) must not reach the terminal
    // through the message: they are quoted as `\u{…}` escapes.
    @Test("Control characters in a refused input are quoted as escapes", arguments: [
        ("5s\u{7}", "“5s\\u{7}” is not a duration."),
        ("5\u{1B}[2Jm", "“5\\u{1b}[2Jm” is not a duration."),
        ("5s\n", "“5s\\u{a}” is not a duration."),
        ("\u{0}5s", "“\\u{0}5s” is not a duration."),
        ("5\u{0}s", "“5\\u{0}s” is not a duration."),
        ("5\u{9B}2J", "“5\\u{9b}2J” is not a duration."),   // C1 CSI
        ("\u{7F}5s", "“\\u{7f}5s” is not a duration."),
        ("-5\u{1B}[2J", "“-5\\u{1b}[2J” is negative; a duration must be longer than zero."),
        ("\u{1B}[2J" + String(repeating: "x", count: 70), "“\\u{1b}[2Jxxxxxxxxxxxxxxxx…” is too long to be a duration."),
    ])
    func controlCharactersEscaped(text: String, expected: String) throws {
        let error = try #require(throws: AlarmInputError.self) { try DurationParser.parse(text) }
        #expect(error.message.hasPrefix(expected), "\(error.message.debugDescription)")
        #expect(!error.message.unicodeScalars.contains { $0.properties.generalCategory == .control })
    }

    @Test("quotable escapes Cc controls, bidi overrides and backslashes, in lowercase hex, and keeps everything else", arguments: [
        ("a\\u{7}b", "a\\\\u{7}b"), ("\u{202E}evil", "\\u{202e}evil"), ("x\u{2066}y\u{2069}", "x\\u{2066}y\\u{2069}"),
        ("plain", "plain"), ("", ""), ("a\tb", "a\\u{9}b"), ("\u{1B}[31m", "\\u{1b}[31m"), ("\r\n", "\\u{d}\\u{a}"),
        ("\u{85}", "\\u{85}"), ("Crème 🍮 👨‍👩‍👧", "Crème 🍮 👨‍👩‍👧"), ("a\u{2028}b", "a\u{2028}b"), ("a\u{AD}b", "a\u{AD}b"),
    ])
    func quotable(text: String, expected: String) {
        #expect(AlarmInputError.quotable(text) == expected)
        #expect(AlarmInputError.quotable(Substring(text)) == expected)
    }

    @Test("A negative duration is called negative")
    func negative() throws {
        let error = try #require(throws: AlarmInputError.self) { try DurationParser.parse(" -5s ") }
        #expect(error.message == "“-5s” is negative; a duration must be longer than zero.")
    }

    @Test("Not-a-duration messages suggest examples")
    func suggestsExamples() throws {
        let error = try #require(throws: AlarmInputError.self) { try DurationParser.parse("abc") }
        #expect(error.message == "“abc” is not a duration. Try 90, 90s, 3m, 1h30m, 1:30 or 01:02:03.")
        #expect(DurationParser.examples == "90, 90s, 3m, 1h30m, 1:30 or 01:02:03")
    }

    @Test("An empty or blank input is “missing”", arguments: ["", "   ", "\t"])
    func missing(text: String) throws {
        let error = try #require(throws: AlarmInputError.self) { try DurationParser.parse(text) }
        #expect(error.message == "A duration is missing. Try 90, 90s, 3m, 1h30m, 1:30 or 01:02:03.")
    }

    @Test("Huge inputs are refused quoting only their first 20 characters", arguments: [
        String(repeating: "9", count: 65),
        String(repeating: "1h", count: 10_000),
        "1234567890abcdefghij" + String(repeating: "x", count: 1_000_000),
    ])
    func huge(text: String) throws {
        let error = try #require(throws: AlarmInputError.self) { try DurationParser.parse(text) }
        #expect(error.message == "“\(text.prefix(20))…” is too long to be a duration. Try 90, 90s, 3m, 1h30m, 1:30 or 01:02:03.")
    }

    @Test("64 characters is still parsed; a 13-digit number is not a duration")
    func lengthLimits() throws {
        let sixtyFour = "1h" + String(repeating: " ", count: 59) + "30m"
        #expect(sixtyFour.count == 64)
        #expect(try DurationParser.parse(sixtyFour) == 5400)
        #expect(throws: AlarmInputError.self) { try DurationParser.parse("1h " + sixtyFour.dropFirst(2)) }
        // Surrounding blanks are trimmed before the length check.
        #expect(try DurationParser.parse(String(repeating: " ", count: 100) + "90" + String(repeating: " ", count: 100)) == 90)
        #expect(try DurationParser.parse("999999999999s") == 999_999_999_999)
        #expect(throws: AlarmInputError.self) { try DurationParser.parse("9999999999999s") }
        #expect(throws: AlarmInputError.self) { try DurationParser.parse("1234567890:00") }
    }

    @Test("Zero parses as zero; refusing it is left to AlarmRequest", arguments: ["0", "0s", "0:00", "0h"])
    func zero(text: String) throws {
        let seconds = try DurationParser.parse(text)
        #expect(seconds == 0)
        #expect(throws: AlarmInputError.self) { try AlarmRequest(duration: seconds).makeAlarm(id: UUID(), now: t0) }
    }

    // "1h30" is refused as ambiguous: a bare number is seconds only as the whole text. That holds
    // after a zero-valued group too: "0h30" used to slip through as 30 s (the user meant 30 minutes).
    @Test("A bare number after a unit is refused even when the unit's value is zero", arguments: ["0h30", "0m30", "0d 5", "0h 0", "1h30", "0s 0"])
    func bareNumberAfterZeroUnit(text: String) throws {
        let error = try #require(throws: AlarmInputError.self) { try DurationParser.parse(text) }
        #expect(error.message == "“\(text)” is not a duration. Try 90, 90s, 3m, 1h30m, 1:30 or 01:02:03.")
    }

    @Test("Zero-valued groups with units are still fine", arguments: [("0h30m", 1800.0), ("0h 30m", 1800), ("0d 0h 5s", 5), ("0m0s", 0)])
    func zeroGroupsWithUnits(text: String, seconds: TimeInterval) throws {
        #expect(try DurationParser.parse(text) == seconds)
    }
}
