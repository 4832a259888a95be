import CGLib
import FoundationEssentials
import GLibSupport
import HeadlessSession
import Testing
import TocsinCore

/// `GVariantPacking` writes and reads GLib's serialised form itself; GLib is the judge of both
/// directions: what Tocsin writes must be the bytes GLib writes for the same value (its normal
/// form, keys in order), and what GLib writes must read back the same. The cases are seeded, and
/// the same on every run.
@Suite struct GVariantPackingTests {
    static func randomString(_ random: inout SplitMix, maximumLength: Int = 40) -> String {
        let pieces = ["a", "Z", "7", " ", "-", "é", "ß", "ø", "🍮", "中", "\u{7f}", "\t"]
        return String((0..<Int.random(in: 0...maximumLength, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined())
    }

    static func randomValue(_ random: inout SplitMix, depth: Int) -> WireValue {
        switch Int.random(in: 0..<(depth > 0 ? 6 : 4), using: &random) {
        case 0: .string(randomString(&random))
        case 1: .double([0, -0.0, 1.5, -273.15, 1e300, .infinity, Double(Int.random(in: -1_000_000...1_000_000, using: &random)) / 7].randomElement(using: &random)!)
        case 2: .integer(Int64.random(in: .min ... .max, using: &random))
        case 3: .bool(Bool.random(using: &random))
        case 4: .stringMap(Dictionary((0..<Int.random(in: 0...4, using: &random)).map { _ in (randomString(&random, maximumLength: 8), randomString(&random)) }) { first, _ in first })
        default: .dictionary(randomDictionary(&random, depth: depth - 1))
        }
    }

    static func randomDictionary(_ random: inout SplitMix, depth: Int = 2) -> [String: WireValue] {
        Dictionary((0..<Int.random(in: 0...12, using: &random)).map { _ in (randomString(&random, maximumLength: 12), randomValue(&random, depth: depth)) }) { first, _ in first }
    }

    /// GLib's reading of `bytes` as an untrusted `aa{sv}`.
    static func glibValue(of bytes: [UInt8]) -> OpaquePointer {
        Variant.fromSerialised(bytes, as: "aa{sv}")
    }

    /// The bytes GLib serialises `dictionaries` to.
    static func glibBytes(of dictionaries: [[String: WireValue]]) -> [UInt8] {
        let value = g_variant_ref_sink(Variant.make(dictionaries: dictionaries))!
        defer { g_variant_unref(value) }
        return Array(UnsafeRawBufferPointer(start: g_variant_get_data(value), count: Int(g_variant_get_size(value))))
    }

    static func checkBothWays(_ dictionaries: [[String: WireValue]]) throws {
        let packed = GVariantPacking.pack(dictionaries)
        let glib = glibValue(of: packed)
        defer { g_variant_unref(glib) }
        #expect(g_variant_is_normal_form(glib) != 0, "GLib does not take Tocsin's bytes for its own normal form")
        #expect(Variant.dictionaries(glib) == dictionaries, "GLib reads other values from Tocsin's bytes")
        #expect(packed == glibBytes(of: dictionaries), "Tocsin's bytes are not the ones GLib makes of the same value")
        #expect(try GVariantPacking.unpackDictionaries(glibBytes(of: dictionaries)) == dictionaries, "Tocsin reads other values from GLib's bytes")
        #expect(try GVariantPacking.unpackDictionaries(packed) == dictionaries)
    }

    @Test(arguments: 0..<40)
    func randomListsAreGLibsFormBothWays(seed: Int) throws {
        var random = SplitMix(seed: UInt64(seed))
        try Self.checkBothWays((0..<Int.random(in: 0...30, using: &random)).map { _ in Self.randomDictionary(&random) })
    }

    @Test func emptyShapesAreGLibsForm() throws {
        try Self.checkBothWays([])
        try Self.checkBothWays([[:]])
        try Self.checkBothWays([[:], ["a": .stringMap([:])], ["b": .dictionary([:])], ["": .string("")]])
    }

    /// Framing offsets are 1, 2, 4 bytes wide as a container passes 255 and 65,535 bytes; each
    /// width appears at the top level, in a dictionary and in an entry.
    @Test(arguments: [200, 250, 255, 256, 300, 65_000, 65_535, 65_536, 70_000])
    func everyOffsetWidthIsGLibsForm(length: Int) throws {
        let long = String(repeating: "x", count: length)
        try Self.checkBothWays([["title": .string(long)]])
        try Self.checkBothWays([["title": .string(long), "more": .double(1)], ["hooks": .stringMap(["fire": long])]])
        try Self.checkBothWays((0..<(length / 100)).map { index in ["id": .string("alarm-\(index)"), "n": .integer(Int64(index))] })
    }

    /// One alarm in each state and schedule shape, with every optional field somewhere.
    static func variedAlarms() throws -> [Alarm] {
        let created = Date(timeIntervalSince1970: 1_796_000_000)
        func alarm(_ index: UInt8, _ title: String, kind: AlarmKind, schedule: AlarmSchedule?, state: AlarmState,
                   button: SecondaryButton? = nil, hooks: [HookEvent: String] = [:], appID: String? = nil) -> Alarm {
            Alarm(id: UUID(uuid: (index, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, index)), title: title, kind: kind,
                  schedule: schedule, countdownDuration: kind == .timer ? 300 : 0, snoozeDuration: button == nil ? nil : 540,
                  secondaryButton: button, sound: index % 2 == 0 ? .standard : .themeEvent("bell"), volume: hooks.isEmpty ? nil : 0.5,
                  crescendo: hooks.isEmpty ? nil : 20, ringLimit: 600, hooks: AlarmHooks(hooks), state: state, createdAt: created,
                  appID: appID, metadata: appID.map { _ in "{\"recipe\": 12}" })
        }
        let seven = try TimeOfDay(hour: 7, minute: 30)
        return [
            alarm(1, "Pasta", kind: .timer, schedule: nil, state: .countdown(CountdownPhase(fireDate: created + 300, duration: 300, followsWallClock: true))),
            alarm(2, "Tea 🍵", kind: .timer, schedule: nil, state: .paused(PausedPhase(remaining: 120, duration: 300)),
                  button: SecondaryButton(label: "Repeat", behavior: .countdown), appID: "org.example.Kitchen"),
            alarm(3, "Wake up", kind: .alarm, schedule: .timeOfDay(seven, weekdays: Weekday.workdays), state: .scheduled(fireDate: created + 3_600),
                  hooks: [.fire: "notify-send rang", .stop: "echo stopped"]),
            alarm(4, "Flight", kind: .alarm, schedule: .localDateTime(try LocalDate(year: 2027, month: 1, day: 9), seven), state: .alerting(since: created)),
            alarm(5, "Call", kind: .alarm, schedule: .fixed(created + 90), state: .scheduled(fireDate: created + 90)),
        ]
    }

    @Test func alarmsPackedFromTheirFieldsAreGLibsFormOfTheirWireDictionaries() throws {
        let alarms = try Self.variedAlarms()
        let packed = GVariantPacking.pack(alarms, fields: AlarmWireFormat.forEachField)
        let glib = Self.glibValue(of: packed)
        defer { g_variant_unref(glib) }
        #expect(g_variant_is_normal_form(glib) != 0)
        #expect(Variant.dictionaries(glib) == alarms.map(AlarmWireFormat.encode))
        #expect(try GVariantPacking.unpackDictionaries(packed).map(AlarmWireFormat.decodeAlarm) == alarms)
    }

    @Test func textThatIsNotUTF8IsRefusedByName() throws {
        var bytes = GVariantPacking.pack([["title": .string("zz")]])
        let index = try #require(bytes.firstIndex(of: UInt8(ascii: "z")))
        bytes[index] = 0xff
        let error = try #require(throws: GVariantPacking.Malformed.self) { try GVariantPacking.unpackDictionaries(bytes) }
        #expect(error.reason.hasPrefix("a string that is not UTF-8 text"))
    }

    @Test func anOffsetPastTheEndIsRefused() throws {
        var bytes = GVariantPacking.pack([["title": .string("tea")]])
        bytes[bytes.count - 1] = 0xfe
        #expect(throws: GVariantPacking.Malformed.self) { try GVariantPacking.unpackDictionaries(bytes) }
    }

    /// Bytes from another process may be anything: damaged lists are refused or read as some
    /// list of wire values (GLib's own form of them), and never crash the reader.
    @Test(arguments: 0..<4)
    func damagedBytesNeverCrashTheReader(seed: Int) throws {
        var random = SplitMix(seed: UInt64(1_000 + seed))
        let original = GVariantPacking.pack((0..<8).map { _ in Self.randomDictionary(&random) })
        var refused = 0
        for _ in 0..<500 {
            var bytes = original
            switch Int.random(in: 0..<3, using: &random) {
            case 0 where !bytes.isEmpty:
                bytes[Int.random(in: bytes.indices, using: &random)] = UInt8.random(in: 0...255, using: &random)
            case 1 where !bytes.isEmpty:
                bytes.removeLast(Int.random(in: 1...min(16, bytes.count), using: &random))
            default:
                bytes.insert(UInt8.random(in: 0...255, using: &random), at: Int.random(in: 0...bytes.count, using: &random))
            }
            do {
                let read = try GVariantPacking.unpackDictionaries(bytes)
                let repacked = Self.glibValue(of: GVariantPacking.pack(read))
                #expect(g_variant_is_normal_form(repacked) != 0)
                g_variant_unref(repacked)
            } catch {
                refused += 1
            }
        }
        // Most damage is caught; reading on from a damaged offset is the exception.
        #expect(refused > 250, "only \(refused) of 500 damaged lists were refused")
    }
}
