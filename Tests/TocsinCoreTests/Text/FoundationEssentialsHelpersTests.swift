import Foundation
import Testing
@testable import TocsinCore
import HeadlessSession
import TocsinFiles

/// The helpers that stand in for Foundation APIs the agent no longer links (it uses
/// FoundationEssentials only) give Foundation's answers.
@Suite struct FoundationEssentialsHelpersTests {
    static let samples = [
        "", " ", "\t", "  07:30 ", "\u{00A0}Tea\u{3000}", "\u{2003}x\u{2009}", " a b ", "\n line \n", "\r\n\u{85}x\u{2028}\u{2029}",
        "\u{200B}zero-width\u{200B}", "é\u{301} ", "🍞 bread\t",
    ]

    @Test(arguments: samples)
    func trimmingMatchesFoundation(text: String) {
        #expect(text.trimmingSpaces() == text.trimmingCharacters(in: .whitespaces))
        #expect(text.trimmingSpacesAndNewlines() == text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func asciiSetMembership() {
        #expect("org.example-Cook_2".consists(ofASCII: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_"))
        #expect(!"org.exämple".consists(ofASCII: "abcdefghijklmnopqrstuvwxyz."))
        #expect(!"a b".consists(ofASCII: "ab"))
        #expect("".consists(ofASCII: "ab"))
    }

    @Test func fixedPointTextMatchesPrintf() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [0, -0.0, 0.5, -0.5, 1.005, 2.675, -6.0206, 0.0004, -0.0004, 0.9996, 123.456, -40, 8_999_999.994]
        for _ in 0..<2_000 { values.append(Double.random(in: -1_000...1_000, using: &generator)) }
        for value in values {
            for digits in [0, 2, 3] {
                let ours = fixedPointText(value, fractionDigits: digits)
                let printf = String(format: "%.\(digits)f", value)
                // printf rounds the binary value half to even and keeps "-0.00"; ours rounds half
                // away from zero and writes no sign on zero. Only those cases may differ, by one
                // unit in the last place.
                if ours != printf {
                    let unit = pow(10, -Double(digits))
                    #expect(abs(Double(ours)! - Double(printf)!) <= unit * 1.0001, "\(value) with \(digits) decimals: \(ours) vs \(printf)")
                }
            }
        }
        #expect(fixedPointText(-6.0206, fractionDigits: 2) == "-6.02")
        #expect(fixedPointText(-0.0004, fractionDigits: 3) == "0.000")
        #expect(fixedPointText(.infinity, fractionDigits: 2) == "inf")
        #expect(fixedPointText(1e300, fractionDigits: 2) == "1e+300")
    }

    @Test func jsonValueAcceptsWhatJSONSerializationAccepts() throws {
        let valid = [#"{"a": [1, 2.5, "x", true, null, {"b": {}}]}"#, "3", #""text""#, "null", "[]", "-1e5", "  true  "]
        for text in valid {
            #expect((try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) != nil, "\(text)")
            #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) != nil, "\(text)")
        }
        for text in ["", "{", "{'a': 1}", "nul", "01", "[1] x"] {
            #expect((try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))) == nil, "\(text)")
            #expect((try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])) == nil, "\(text)")
        }
    }

    @Test func jsonValueKeepsIntegersAndRoundTrips() throws {
        let text = #"{"format":2,"lateLimit":900.5,"list":[1,"a",false,null],"nested":{"x":-3}}"#
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        #expect(value.object?["format"] == .integer(2))
        #expect(value.object?["lateLimit"] == .number(900.5))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(String(decoding: try encoder.encode(value), as: UTF8.self) == text)
    }

    @Test func deeplyNestedJSONIsRefusedNotACrash() {
        // Metadata is at most 4 KB: 2,000 levels is as deep as it gets. JSONSerialization refused
        // that too (its limit is 512 levels, like JSONDecoder's).
        let deep = String(repeating: "[", count: 2_000) + String(repeating: "]", count: 2_000)
        #expect((try? JSONSerialization.jsonObject(with: Data(deep.utf8), options: [.fragmentsAllowed])) == nil)
        let request = AlarmRequest(title: "Deep", duration: 60, metadata: deep)
        let error = #expect(throws: AlarmInputError.self) { try request.makeAlarm(id: UUID(), now: Date()) }
        #expect(error?.message == "The metadata is not valid JSON.")
        // Nesting a real application uses is kept.
        let usual = AlarmRequest(title: "Nested", duration: 60, metadata: String(repeating: "[", count: 100) + String(repeating: "]", count: 100))
        #expect(throws: Never.self) { try usual.makeAlarm(id: UUID(), now: Date()) }
    }

    @Test func fileErrorsAreDescribedByTheirPOSIXReason() {
        do {
            _ = try Data(contentsOf: URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)"))
            Issue.record("reading a missing file succeeded")
        } catch {
            #expect(describeFileError(error) == "No such file or directory")
        }
        struct Other: Error {}
        #expect(describeFileError(Other()) == "Other()")
    }
}

/// `JSONValue.jsonText` writes what JSONSerialization wrote for the command line's `--json` output.
@Suite struct JSONTextTests {
    static func serialization(_ value: Any) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed]), as: UTF8.self)
    }

    static func foundationObject(_ value: JSONValue) -> Any {
        switch value {
        case .null: NSNull()
        case .bool(let flag): flag
        case .integer(let number): number
        case .number(let number): number
        case .string(let text): text
        case .array(let elements): elements.map(foundationObject)
        case .object(let members): members.mapValues(foundationObject)
        }
    }

    @Test func numbersAreWrittenAsJSONSerializationWritesThem() {
        var generator = SplitMix(seed: 30)
        var values: [Double] = [0, -0.0, 60, 0.1, 1764480000.123456, 1e21, 1e-7, 123456789012, 0.000001234, 1.5e300, -40.5, 1e15, 1e16, 9.99e14, 2.5e-300,
                                9_007_199_254_740_992, -9_007_199_254_740_992, 9_007_199_254_740_994, 9.0071e15, 9.0072e15, -9.2351e15]
        for _ in 0..<3_000 {
            let magnitude = Double(generator.next() % 40) - 20
            values.append((Double(generator.next() % 1_000_000) / 1000 - 500) * pow(10, magnitude))
            values.append(Double(Int(generator.next() % 4_000_000_000)) - 1_000)
        }
        for value in values {
            #expect(JSONValue.number(value).jsonText == Self.serialization(value), "\(value)")
        }
    }

    @Test func stringsAreEscapedAsJSONSerializationEscapesThem() {
        let samples = ["", "plain", "a/b", "quote \" and \\ backslash", "\n\r\t\u{08}\u{0C}", "\u{01}\u{1F}\u{7F}", "é 🍞 \u{2028}\u{2029}", "<b>markup</b> & 'x'"]
        for text in samples {
            #expect(JSONValue.string(text).jsonText == Self.serialization(text), "\(text.debugDescription)")
        }
    }

    @Test func objectsOfTocsinsKeysAreSortedAsJSONSerializationSortsThem() {
        // Every key the command line writes: the alarm, status and watch keys.
        var keys = AlarmWireFormat.AlarmKey.allCases.map(\.rawValue) + AlarmWireFormat.StatusKey.allCases.map(\.rawValue)
        keys += ["time", "event", "alarm", "remaining", "check", "level", "message", "fix", "fire", "stop", "snooze", "secondary", "cancel", "missed"]
        var members: [String: JSONValue] = [:]
        for (index, key) in keys.enumerated() { members[key] = index % 2 == 0 ? .integer(index) : .string(key) }
        let value = JSONValue.object(["alarms": .array([.object(members), .object([:]), .null, .bool(true)]), "top": .object(members)])
        #expect(value.jsonText == Self.serialization(Self.foundationObject(value)))
    }
}

/// `readFilePrefix` reads small files whole and stops at its limit.
@Suite struct FilePrefixTests {
    @Test(arguments: [0, 1, 4095, 4096, 4097, 20_000])
    func readsAFileWholeOrUpToTheLimit(size: Int) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tocsin-prefix-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let content = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(content).write(to: URL(fileURLWithPath: path))
        #expect(readFilePrefix(path, limit: 1 << 20) == content)
        #expect(readFilePrefix(path, limit: 5000) == Array(content.prefix(5000)))
        #expect(readFilePrefix(path, limit: 0) == [])
    }

    @Test func anEndlessFileStopsAtTheLimit() {
        #expect(readFilePrefix("/dev/zero", limit: 10_000)?.count == 10_000)
        #expect(readFilePrefix("/nonexistent-\(UUID().uuidString)", limit: 10) == nil)
    }
}
