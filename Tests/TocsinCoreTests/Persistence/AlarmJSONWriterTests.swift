import Foundation
import Testing
@testable import TocsinCore
import HeadlessSession
import TocsinFiles
import TocsinTestSupport

/// `AlarmJSONWriter` must write exactly what `JSONEncoder` (sorted keys, dates deferred to
/// `Date`) writes for the same values, so that the journal and the snapshot read the same
/// whichever wrote them; `JSONEncoder` is the oracle here, and `JSONDecoder` reads every text back.
@Suite("AlarmJSONWriter")
struct AlarmJSONWriterTests {
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .deferredToDate
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    static func handWritten(_ change: JournalChange) throws -> String {
        var writer = AlarmJSONWriter()
        try writer.write(change)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Compares the two texts of `change`, and reads the hand-written one back.
    static func expectSameAsJSONEncoder(_ change: JournalChange, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let written = try handWritten(change)
        let encoded = String(decoding: try encoder.encode(change), as: UTF8.self)
        #expect(written == encoded, sourceLocation: sourceLocation)
        let decoded = try JSONDecoder().decode(JournalChange.self, from: Data(written.utf8))
        #expect(decoded == change, sourceLocation: sourceLocation)
    }

    @Test("Every fixture alarm (every state, kind, schedule, sound, button and hook) as a put change")
    func fixtures() throws {
        for alarm in Fixture.varied {
            try Self.expectSameAsJSONEncoder(.put(alarm))
        }
        var withOptionals = Fixture.varied[1]
        withOptionals.volume = 0.35
        withOptionals.crescendo = 20
        withOptionals.appID = "org.example.Cook"
        withOptionals.appConfinement = .flatpak
        withOptionals.metadata = #"{"recipe":"tea","steps":[1,2.5,null]}"#
        withOptionals.appIntents = AppIntentButtons(modes: [.stop: .background, .secondary: .foreground], executable: "/usr/bin/cook")
        try Self.expectSameAsJSONEncoder(.put(withOptionals))
        withOptionals.appIntents = AppIntentButtons(modes: [.secondary: .background])
        try Self.expectSameAsJSONEncoder(.put(withOptionals))
        for phone in [PhoneRingChoice.never, .ring(after: nil), .ring(after: 45), .ring(after: 0.5)] {
            withOptionals.phone = phone
            try Self.expectSameAsJSONEncoder(.put(withOptionals))
        }
        for outputRaise in [OutputRaiseChoice.never, .raise(toPercent: nil), .raise(toPercent: 1), .raise(toPercent: 85), .raise(toPercent: 100)] {
            withOptionals.outputRaise = outputRaise
            try Self.expectSameAsJSONEncoder(.put(withOptionals))
        }
        try Self.expectSameAsJSONEncoder(.put(Fixture.alarm(schedule: .timeOfDay(try TimeOfDay(hour: 0), weekdays: []))))
        try Self.expectSameAsJSONEncoder(.put(Fixture.alarm(schedule: .timeOfDay(try TimeOfDay(hour: 23, minute: 59), weekdays: Weekday.everyDay))))
    }

    @Test("Remove and zone changes")
    func otherChanges() throws {
        try Self.expectSameAsJSONEncoder(.remove(fixedID(42)))
        try Self.expectSameAsJSONEncoder(.remove(UUID()))
        for zone in ["Europe/Paris", "UTC", "CET-1CEST,M3.5.0,M10.5.0/3", "GMT+0530", "America/Argentina/Buenos_Aires"] {
            try Self.expectSameAsJSONEncoder(.zone(zone))
        }
    }

    @Test("Strings with every ASCII character, controls, slashes, quotes and non-ASCII text")
    func strings() throws {
        let ascii = String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)
        let samples = [
            ascii, "", "\"", "\\", "/", "</b>", "<b>bold</b> & <i>it</i>", "line\nbreak\r\n\ttab",
            "\u{7F}\u{80}\u{85}\u{A0}\u{2028}\u{2029}\u{200B}\u{FEFF}", "Bread – 2nd rise 🍞", "👩‍👩‍👧 family",
            "e\u{301}", String(repeating: "long ", count: 2000),
        ]
        for sample in samples {
            var alarm = Fixture.alarm(title: sample, sound: .file("/tmp/\(sample)"), hooks: AlarmHooks([.fire: sample, .missed: sample]))
            alarm.metadata = sample
            alarm.appID = sample
            alarm.secondaryButton = SecondaryButton(label: sample, behavior: .custom)
            alarm.appIntents = AppIntentButtons(modes: [.stop: .foreground], executable: sample)
            try Self.expectSameAsJSONEncoder(.put(alarm))
            try Self.expectSameAsJSONEncoder(.zone(sample))
        }
    }

    @Test("Numbers: whole, fractional, negative, tiny and huge, and instants taken from the clock")
    func numbers() throws {
        var generator = SplitMix(seed: 0x150A_2026)
        var values: [Double] = [0, -0.0, 1, -1, 0.5, 0.1, 1e-7, .leastNonzeroMagnitude, 1e15, 1e16, 1e17, 123_456_789.125, 2.5e20,
                                Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, .leastNormalMagnitude,
                                Date().timeIntervalSinceReferenceDate, Double(Int64.max), Double(1 << 53) + 2]
        for _ in 0..<3000 {
            values.append(Double(bitPattern: generator.next()))
            values.append(Double(Int64(bitPattern: generator.next()) >> Int64.random(in: 0...60, using: &generator)))
            values.append(Double.random(in: -1e9...1e9, using: &generator))
        }
        for value in values where value.isFinite {
            var alarm = Fixture.alarm(ringLimit: value, state: .paused(PausedPhase(remaining: value, duration: -value)))
            alarm.volume = value
            try Self.expectSameAsJSONEncoder(.put(alarm))
        }
    }

    @Test("A number JSON cannot hold is refused, naming the property, as JSONEncoder refuses it")
    func nonFiniteNumbers() throws {
        for value in [Double.infinity, -.infinity, .nan] {
            var alarm = Fixture.alarm()
            alarm.crescendo = value
            var writer = AlarmJSONWriter()
            do {
                try writer.write(.put(alarm))
                Issue.record("\(value) was written")
            } catch {
                #expect(error.message.contains("crescendo"))
            }
            #expect(throws: EncodingError.self) { try Self.encoder.encode(JournalChange.put(alarm)) }
        }
        let stuck = Fixture.alarm(state: .alerting(since: Date(timeIntervalSinceReferenceDate: .infinity)))
        var writer = AlarmJSONWriter()
        #expect(throws: AlarmJSONWriter.Failure.self) { try writer.write(.put(stuck)) }
    }

    @Test("Random alarms: every field drawn at random, 2,000 of them")
    func randomAlarms() throws {
        var generator = SplitMix(seed: 20_261_130)
        for index in 0..<2000 {
            try Self.expectSameAsJSONEncoder(.put(Self.randomAlarm(index, &generator)))
        }
    }

    @Test("The snapshot is what JSONEncoder writes for the state file's shape, and AlarmStore reads it back")
    func snapshot() throws {
        var generator = SplitMix(seed: 7)
        let alarms = Fixture.varied + (0..<50).map { Self.randomAlarm($0, &generator) }
        for (zone, list) in [("Europe/Paris", alarms), (nil, alarms), ("UTC", [])] as [(String?, [Alarm])] {
            var writer = AlarmJSONWriter()
            try writer.writeSnapshot(format: AlarmStore.formatVersion, timeZone: zone, alarms: list)
            let encoded = try Self.encoder.encode(StateFileShape(format: AlarmStore.formatVersion, timeZone: zone, alarms: list))
            #expect(writer.bytes == Array(encoded))
        }
        try withTemporaryDirectory { directory in
            let store = AlarmStore(directory: directory)
            try store.save(alarms, timeZone: TimeZoneRules(identifier: "Europe/Paris"))
            let reloaded = AlarmStore(directory: directory)
            #expect(reloaded.load(now: t0) == .loaded(alarms))
            #expect(reloaded.savedTimeZone?.identifier == "Europe/Paris")
        }
    }

    /// The writer names every stored property by hand; one added to a type must be added there
    /// too. These lists fail the test until it is, and then need the new name.
    @Test("The writer knows every stored property of the types it writes")
    func storedProperties() {
        func names(_ value: Any) -> [String] { Mirror(reflecting: value).children.compactMap(\.label) }
        #expect(names(Fixture.alarm()) == [
            "id", "title", "schedule", "kind", "appConfinement", "countdownDuration", "snoozeDuration", "snoozes", "lastOccurrence", "secondaryButton", "sound",
            "volume",
            "crescendo", "phone", "outputRaise", "ringLimit", "lateLimit", "hooks", "state", "createdAt", "appID", "metadata", "appIntents",
        ])
        #expect(names(AppIntentButtons(modes: [:])) == ["modes", "executable"])
        #expect(names(CountdownPhase(fireDate: t0, duration: 1)) == ["fireDate", "duration", "followsWallClock"])
        #expect(names(PausedPhase(remaining: 1, duration: 2)) == ["remaining", "duration"])
        #expect(names(Fixture.snoozeButton) == ["label", "behavior"])
        #expect(names(AlarmHooks()) == ["commands"])
    }

    // MARK: random alarms

    static func randomAlarm(_ index: Int, _ generator: inout SplitMix) -> Alarm {
        func number() -> Double {
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: Double(Int.random(in: 0...100_000, using: &generator))
            case 1: Double.random(in: 0...86_400, using: &generator)
            case 2: Double(Int.random(in: 1...600, using: &generator)) / 8
            default: Double.random(in: 0...1, using: &generator)
            }
        }
        func instant() -> Date {
            Date(timeIntervalSinceReferenceDate: Double.random(in: 0...1e9, using: &generator))
        }
        func text() -> String {
            let pieces = ["Tea", " ", "/", "\"", "\\", "<b>", "&amp;", "\n", "\t", "\u{1}", "\u{1F}", "é", "🍞", "–", "\u{2028}", "日本"]
            return (0..<Int.random(in: 0...8, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
        }
        func maybe<Value>(_ make: () -> Value) -> Value? {
            Bool.random(using: &generator) ? make() : nil
        }
        let time = try! TimeOfDay(hour: Int.random(in: 0...23, using: &generator), minute: Int.random(in: 0...59, using: &generator))
        let schedule: AlarmSchedule? = switch Int.random(in: 0..<4, using: &generator) {
        case 0: nil
        case 1: .fixed(instant())
        case 2: .timeOfDay(time, weekdays: Set(Weekday.allCases.filter { _ in Bool.random(using: &generator) }))
        default: .localDateTime(try! LocalDate(year: Int.random(in: 1970...2400, using: &generator), month: Int.random(in: 1...12, using: &generator), day: Int.random(in: 1...28, using: &generator)), time)
        }
        let state: AlarmState = switch Int.random(in: 0..<4, using: &generator) {
        case 0: .scheduled(fireDate: instant())
        case 1: .countdown(CountdownPhase(fireDate: instant(), duration: number(), followsWallClock: Bool.random(using: &generator)))
        case 2: .paused(PausedPhase(remaining: number(), duration: number()))
        default: .alerting(since: instant())
        }
        let sound: AlarmSound = switch Int.random(in: 0..<3, using: &generator) {
        case 0: .standard
        case 1: .themeEvent(text())
        default: .file("/" + text())
        }
        var hooks = AlarmHooks()
        for event in HookEvent.allCases where Bool.random(using: &generator) { hooks[event] = text() }
        let phone: PhoneRingChoice? = switch Int.random(in: 0..<4, using: &generator) {
        case 0: nil
        case 1: .never
        case 2: .ring(after: nil)
        default: .ring(after: number())
        }
        let outputRaise: OutputRaiseChoice? = switch Int.random(in: 0..<4, using: &generator) {
        case 0: nil
        case 1: .never
        case 2: .raise(toPercent: nil)
        default: .raise(toPercent: Int.random(in: 1...100, using: &generator))
        }
        return Alarm(
            id: UUID(), title: text() + " \(index)", kind: schedule == nil ? .timer : .alarm, schedule: schedule,
            countdownDuration: number(), snoozeDuration: maybe(number), snoozes: maybe { Int.random(in: 1...40, using: &generator) },
            secondaryButton: maybe { SecondaryButton(label: text(), behavior: Bool.random(using: &generator) ? .countdown : .custom) },
            sound: sound, volume: maybe { Double.random(in: 0.01...1, using: &generator) }, crescendo: maybe(number),
            phone: phone, outputRaise: outputRaise, ringLimit: number(), lateLimit: number(), hooks: hooks, state: state, createdAt: instant(),
            appID: maybe(text), appConfinement: maybe { AppConfinement.allCases.randomElement(using: &generator)! }, metadata: maybe(text),
            appIntents: maybe {
                var modes: [AppIntentButtons.Button: AppIntentButtons.Mode] = [:]
                for button in AppIntentButtons.Button.allCases where Bool.random(using: &generator) {
                    modes[button] = AppIntentButtons.Mode.allCases.randomElement(using: &generator)!
                }
                return AppIntentButtons(modes: modes, executable: maybe(text))
            },
            lastOccurrence: maybe(instant)
        )
    }
}
