import Foundation
import Testing
@testable import TocsinCore
import HeadlessSession
import TocsinFiles
import TocsinTestSupport

/// `AlarmJSONReader` is a fast path in front of `JSONDecoder`: it must read everything the writer
/// writes, and whatever it accepts, `JSONDecoder` must accept with the same result. The second
/// half is checked by damaging valid files at random and comparing the two readers on each.
@Suite("AlarmJSONReader")
struct AlarmJSONReaderTests {
    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .deferredToDate
        return decoder
    }

    static func line(_ change: JournalChange) throws -> [UInt8] {
        var writer = AlarmJSONWriter()
        try writer.write(change)
        return writer.bytes
    }

    static func snapshot(_ alarms: [Alarm], timeZone: String?) throws -> [UInt8] {
        var writer = AlarmJSONWriter()
        try writer.writeSnapshot(format: AlarmStore.formatVersion, timeZone: timeZone, alarms: alarms)
        return writer.bytes
    }

    static func randomAlarms(_ count: Int, seed: UInt64) -> [Alarm] {
        var generator = SplitMix(seed: seed)
        return (0..<count).map { AlarmJSONWriterTests.randomAlarm($0, &generator) }
    }

    @Test("Every change the writer writes reads back equal: fixtures, 2,000 random alarms, removals and zones")
    func changesRoundTrip() throws {
        var changes: [JournalChange] = (Fixture.varied + Self.randomAlarms(2000, seed: 11)).map { .put($0) }
        changes += [.remove(fixedID(3)), .remove(UUID()), .zone("Europe/Paris"), .zone("CET-1CEST,M3.5.0,M10.5.0/3"), .zone("")]
        for change in changes {
            #expect(AlarmJSONReader.change(try Self.line(change)) == change)
        }
    }

    @Test("A snapshot the writer writes reads back equal, with and without a zone, and empty")
    func snapshotRoundTrip() throws {
        let alarms = Fixture.varied + Self.randomAlarms(300, seed: 12)
        for (zone, list) in [("Europe/Berlin", alarms), (nil, alarms), ("UTC", [])] as [(String?, [Alarm])] {
            let read = try #require(AlarmJSONReader.snapshot(try Self.snapshot(list, timeZone: zone)))
            #expect(read.format == AlarmStore.formatVersion && read.timeZone == zone && read.alarms == list)
        }
    }

    @Test("JSONEncoder's text reads too, in any key order and pretty-printed")
    func encoderText() throws {
        let alarms = Fixture.varied + Self.randomAlarms(100, seed: 13)
        for formatting: JSONEncoder.OutputFormatting in [[], [.prettyPrinted], [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]] {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .deferredToDate
            encoder.outputFormatting = formatting
            let data = try encoder.encode(StateFileShape(format: AlarmStore.formatVersion, timeZone: "Asia/Kolkata", alarms: alarms))
            let read = try #require(AlarmJSONReader.snapshot(data))
            #expect(read.alarms == alarms && read.timeZone == "Asia/Kolkata")
        }
    }

    @Test("What the writer never writes is left to JSONDecoder: unknown or repeated keys, null, other types, other formats")
    func leftToJSONDecoder() throws {
        let valid = String(decoding: try Self.line(.put(Fixture.varied[1])), as: UTF8.self)
        let variants = [
            valid.replacingOccurrences(of: "\"title\":", with: "\"extra\":1,\"title\":"),
            valid.replacingOccurrences(of: "\"title\":\"Tea\"", with: "\"title\":\"Tea\",\"title\":\"Tea\""),
            valid.replacingOccurrences(of: "\"ringLimit\":600", with: "\"ringLimit\":\"600\""),
            valid.replacingOccurrences(of: "\"ringLimit\":600", with: "\"ringLimit\":600,\"volume\":null"),
            valid.replacingOccurrences(of: "\"ringLimit\":600", with: "\"ringLimit\":6e999"),
            valid.replacingOccurrences(of: "\"kind\":\"timer\"", with: "\"kind\":\"stopwatch\""),
            valid + " x",
        ]
        for variant in variants {
            #expect(AlarmJSONReader.change(Array(variant.utf8)) == nil, "\(variant)")
        }
        // An unknown key is one JSONDecoder reads past: the store still loads such a file.
        try withTemporaryDirectory { directory in
            let store = AlarmStore(directory: directory)
            try store.save(Fixture.varied)
            let text = try String(contentsOf: store.fileURL, encoding: .utf8)
            try text.replacingOccurrences(of: "\"title\":", with: "\"addedByHand\":true,\"title\":").write(to: store.fileURL, atomically: true, encoding: .utf8)
            #expect(AlarmStore(directory: directory).load(now: t0) == .loaded(Fixture.varied))
        }
        // Another format version is not read here at all.
        var writer = AlarmJSONWriter()
        try writer.writeSnapshot(format: 1, timeZone: nil, alarms: [])
        #expect(AlarmJSONReader.snapshot(writer.bytes)?.format == 1)
    }

    /// Damages `valid` in one of several ways, at a random place.
    static func damaged(_ valid: [UInt8], _ generator: inout SplitMix) -> [UInt8] {
        var bytes = valid
        let fragments = ["null", "\"", "\\", "\\u0000", "\\ud800", "\\udc00\\ud800", ",", ":", "{}", "[]", "-", "0", "1e5", ".5", " ", "\n",
                         "\u{7F}", "é", "\"x\":1,", "true", "\"_0\"", "\"fixed\"", "1", "9"].map { Array($0.utf8) }
        let at = Int.random(in: 0..<bytes.count, using: &generator)
        switch Int.random(in: 0..<5, using: &generator) {
        case 0: bytes[at] = UInt8.random(in: 0...255, using: &generator)
        case 1: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...8, using: &generator)))
        case 2: bytes.insert(contentsOf: fragments.randomElement(using: &generator)!, at: at)
        case 3:
            // A digit changed: the number stays a number, so both readers accept and must agree.
            if let digit = bytes.indices.filter({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[$0]) }).randomElement(using: &generator) {
                bytes[digit] = UInt8(ascii: "0") + UInt8.random(in: 0...9, using: &generator)
            }
        default:
            let end = min(bytes.count, at + Int.random(in: 1...20, using: &generator))
            bytes.insert(contentsOf: bytes[at..<end], at: Int.random(in: 0..<bytes.count, using: &generator))
        }
        return bytes
    }

    @Test("On 20,000 damaged snapshots and journal lines, what the reader accepts JSONDecoder accepts, equal")
    func damagedInputsAgree() throws {
        var generator = SplitMix(seed: 0xDA3A_6E)
        let alarms = Array(Fixture.varied.prefix(4)) + Self.randomAlarms(3, seed: 14)
        let snapshot = try Self.snapshot(alarms, timeZone: "Europe/Paris")
        let lines = try alarms.map { try Self.line(.put($0)) } + [try Self.line(.remove(fixedID(9))), try Self.line(.zone("UTC"))]
        var acceptedByBoth = 0
        var refusedByBoth = 0
        var leftToDecoder = 0
        for round in 0..<20_000 {
            if round % 2 == 0 {
                let damaged = Self.damaged(snapshot, &generator)
                let fast = AlarmJSONReader.snapshot(damaged)
                let slow = try? Self.decoder.decode(StateFileShape.self, from: Data(damaged))
                if let fast {
                    #expect(slow == StateFileShape(format: fast.format, timeZone: fast.timeZone, alarms: fast.alarms), "\(String(decoding: damaged, as: UTF8.self))")
                    acceptedByBoth += 1
                } else if slow == nil { refusedByBoth += 1 } else { leftToDecoder += 1 }
            } else {
                let damaged = Self.damaged(lines.randomElement(using: &generator)!, &generator)
                let fast = AlarmJSONReader.change(damaged)
                let slow = try? Self.decoder.decode(JournalChange.self, from: Data(damaged))
                if let fast {
                    #expect(slow == fast, "\(String(decoding: damaged, as: UTF8.self))")
                    acceptedByBoth += 1
                } else if slow == nil { refusedByBoth += 1 } else { leftToDecoder += 1 }
            }
        }
        // The damage must exercise both outcomes, or the comparison proves little.
        #expect(acceptedByBoth > 2000, "accepted by both: \(acceptedByBoth)")
        #expect(refusedByBoth > 2000, "refused by both: \(refusedByBoth)")
        print("AlarmJSONReader damage: \(acceptedByBoth) accepted by both, \(refusedByBoth) refused by both, \(leftToDecoder) left to JSONDecoder, which read them")
    }
}
