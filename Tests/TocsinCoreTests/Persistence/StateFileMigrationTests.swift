import Foundation
import Testing
@testable import TocsinCore
import TocsinFiles
import TocsinTestSupport

// State files written by an earlier Tocsin, read by this one.
@Suite("StateFileMigration and AlarmStore across format versions")
struct StateFileMigrationTests {
    static let fileManager = FileManager.default

    /// A state file exactly as the last format-1 build (1e0f295, timers only) wrote it through
    /// AlarmStore.save: sorted keys, no spaces, escaped slashes, dates as seconds since 2001
    /// (`.deferredToDate`), hooks as a dictionary, and enum payloads under "_0". Its alarms are
    /// `Fixture.varied[1...3]` and a timer started at a fractional instant taken from the clock.
    static let version1 = Data(#"{"alarms":[{"countdownDuration":180,"createdAt":821692802,"hooks":{"commands":{"fire":"notify-send tea","snooze":"echo snoozed"}},"id":"00000000-0000-0000-0000-000000000002","kind":"timer","ringLimit":600,"secondaryButton":{"behavior":"countdown","label":"Snooze"},"snoozeDuration":300,"sound":{"standard":{}},"state":{"countdown":{"_0":{"duration":180,"fireDate":821692982}}},"title":"Tea"},{"countdownDuration":2700,"createdAt":821692803,"hooks":{"commands":{}},"id":"00000000-0000-0000-0000-000000000003","kind":"timer","ringLimit":120,"secondaryButton":{"behavior":"countdown","label":"Repeat"},"snoozeDuration":60,"sound":{"file":{"_0":"\/usr\/share\/sounds\/freedesktop\/stereo\/bell.oga"}},"state":{"paused":{"_0":{"duration":2700,"remaining":1234.5}}},"title":"Bread – 2nd rise 🍞"},{"countdownDuration":3600,"createdAt":821692804,"hooks":{"commands":{"cancel":"e","fire":"a","secondary":"d","snooze":"c","stop":"b"}},"id":"00000000-0000-0000-0000-000000000004","kind":"timer","ringLimit":600,"secondaryButton":{"behavior":"custom","label":"Next step"},"sound":{"standard":{}},"state":{"alerting":{"since":821696404}},"title":"Laundry"},{"countdownDuration":60.5,"createdAt":821692739.6234568,"hooks":{"commands":{}},"id":"00000000-0000-0000-0000-000000000005","kind":"timer","ringLimit":600,"sound":{"standard":{}},"state":{"countdown":{"_0":{"duration":60.5,"fireDate":821692800.1234568}}},"title":"Clock"}],"format":1}"#.utf8)

    /// The timer of the version-1 file whose instants have every bit of a clock reading.
    static let clockTimer = Fixture.alarm(
        id: fixedID(5), title: "Clock", duration: 60.5,
        state: .countdown(CountdownPhase(fireDate: Date(timeIntervalSinceReferenceDate: 821_692_800.123456789), duration: 60.5)),
        createdAt: Date(timeIntervalSinceReferenceDate: 821_692_739.623456789)
    )

    /// What the version-1 file holds, as this build's alarms: the same fields, plus a late limit
    /// of 600 s for each, and countdowns that measure elapsed time (they were all timers).
    static let migratedAlarms: [Alarm] = Array(Fixture.varied[1...3]) + [clockTimer]

    func write(_ data: Data, to store: AlarmStore) throws {
        try Self.fileManager.createDirectory(at: store.directory, withIntermediateDirectories: true)
        try data.write(to: store.fileURL)
    }

    func json(_ url: URL) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
    }

    @Test("The expected alarms are timers with the defaults the migration gives")
    func expectedAlarms() {
        #expect(Self.migratedAlarms.map(\.title) == ["Tea", "Bread – 2nd rise 🍞", "Laundry", "Clock"])
        #expect(Self.migratedAlarms.allSatisfy { $0.kind == .timer && $0.schedule == nil && $0.lateLimit == 600 })
        #expect(Set(Self.migratedAlarms.map(\.state.name)) == [.countdown, .paused, .alerting])
    }

    @Test("A version-1 file loads as migrated from version 1: the same alarms, each with a 600 s late limit, countdowns measuring elapsed time")
    func loadsMigrated() throws {
        try withTemporaryDirectory { root in
            let store = AlarmStore(directory: root)
            try write(Self.version1, to: store)
            let outcome = store.load(now: t0)
            #expect(outcome == .migrated(Self.migratedAlarms, fromVersion: 1))
            guard case .migrated(let alarms, _) = outcome else { return }
            #expect(alarms.allSatisfy { $0.lateLimit == AlarmRequest.defaultLateLimit })
            for alarm in alarms {
                if case .countdown(let phase) = alarm.state {
                    #expect(!phase.followsWallClock, "\(alarm.title)")
                }
            }
            let clock = try #require(alarms.last)
            #expect(clock.createdAt.timeIntervalSinceReferenceDate.bitPattern == (821_692_739.623456789 as Double).bitPattern)
            #expect(clock.fireDate?.timeIntervalSinceReferenceDate.bitPattern == (821_692_800.123456789 as Double).bitPattern)
            // Loading changes nothing on disk; the file is rewritten at the next save.
            #expect(store.isWritable)
            #expect(try Data(contentsOf: store.fileURL) == Self.version1)
            #expect(try Self.fileManager.contentsOfDirectory(atPath: root.path) == ["alarms.json"])
        }
    }

    @Test("The next save after a migration writes format 2, which loads as loaded with the same alarms")
    func saveWritesVersion2() throws {
        try withTemporaryDirectory { root in
            let store = AlarmStore(directory: root)
            try write(Self.version1, to: store)
            guard case .migrated(let alarms, fromVersion: 1) = store.load(now: t0) else {
                Issue.record("expected migrated from version 1")
                return
            }
            try store.save(alarms)
            let file = try json(store.fileURL)
            #expect(file["format"] as? Int == 2)
            let saved = try #require(file["alarms"] as? [[String: Any]])
            #expect(saved.count == 4)
            #expect(saved.allSatisfy { $0["lateLimit"] as? Double == 600 })
            let tea = try #require(saved.first?["state"] as? [String: Any])
            let phase = try #require((tea["countdown"] as? [String: Any])?["_0"] as? [String: Any])
            #expect(phase["followsWallClock"] as? Bool == false)
            #expect(AlarmStore(directory: root).load(now: t0) == .loaded(Self.migratedAlarms))
        }
    }

    @Test("Migrated timers carry on as they were: the countdowns fire on time, the paused one waits, the ringing one can be stopped")
    func migratedTimersWork() throws {
        try withTemporaryDirectory { root in
            let store = AlarmStore(directory: root)
            try write(Self.version1, to: store)
            guard case .migrated(let alarms, _) = store.load(now: t0) else {
                Issue.record("expected migrated")
                return
            }
            var book = AlarmBook(alarms: alarms)
            #expect(book.advance(to: at(60.5)).map(\.alarm.title) == ["Clock"])
            #expect(book.advance(to: at(182)).map { "\($0.alarm.title) \($0.kind.rawValue)" } == ["Tea fired"])
            #expect(try book.perform(.stop, on: fixedID(4), now: at(200)).removesAlarm)
            #expect(book[fixedID(3)]?.state == .paused(PausedPhase(remaining: 1234.5, duration: 2700)))
        }
    }

    @Test("StateFileMigration turns version 1 into the current version on the JSON itself")
    func migrateDirectly() throws {
        #expect(StateFileMigration.currentVersion == 2)
        let migrated = try StateFileMigration.migrate(Self.version1, from: 1)
        let file = try #require(JSONSerialization.jsonObject(with: migrated) as? [String: Any])
        #expect(file["format"] as? Int == StateFileMigration.currentVersion)
        let alarms = try #require(file["alarms"] as? [[String: Any]])
        #expect(alarms.map { $0["title"] as? String } == ["Tea", "Bread – 2nd rise 🍞", "Laundry", "Clock"])
        #expect(alarms.allSatisfy { $0["lateLimit"] as? Double == 600 })
        // Only countdowns gain the flag; paused and alerting states are left as they were.
        let states = alarms.compactMap { $0["state"] as? [String: Any] }
        #expect(states.compactMap { (($0["countdown"] as? [String: Any])?["_0"] as? [String: Any])?["followsWallClock"] as? Bool } == [false, false])
        #expect((states[1]["paused"] as? [String: Any])?["_0"] as? [String: Double] == ["duration": 2700, "remaining": 1234.5])
        #expect(states[2]["alerting"] as? [String: Double] == ["since": 821_696_404])
        #expect(throws: (any Error).self) { try StateFileMigration.migrate(Data(#"{"format":0,"alarms":[]}"#.utf8), from: 0) }
        #expect(throws: (any Error).self) { try StateFileMigration.migrate(Data("[]".utf8), from: 1) }
    }

    @Test("A file from a newer Tocsin (format 3) is refused and left in place byte for byte; nothing is saved over it")
    func futureVersionUntouched() throws {
        try withTemporaryDirectory { root in
            let store = AlarmStore(directory: root)
            // What a format-3 build might write: a current alarm plus fields this build does not know.
            try store.save([Fixture.varied[4]])
            var file = try json(store.fileURL)
            file["format"] = 3
            file["settings"] = ["quietHours": "22:00-07:00"]
            let bytes = try JSONSerialization.data(withJSONObject: file, options: [.sortedKeys])
            try bytes.write(to: store.fileURL)

            let newer = AlarmStore(directory: root)
            #expect(newer.load(now: t0) == .unusable(reason: "it was written by a newer Tocsin (format version 3; this one reads up to 2); it is left untouched"))
            #expect(!newer.isWritable)
            let error = try #require(throws: StoreError.self) { try newer.save(Fixture.varied) }
            #expect(error.message.hasPrefix("Not saving to \(newer.fileURL.path)"))
            #expect(try Data(contentsOf: newer.fileURL) == bytes)
            #expect(try Self.fileManager.contentsOfDirectory(atPath: root.path) == ["alarms.json"], "nothing set aside, no temporary file")
            // Every later start says the same and still leaves it alone.
            #expect(AlarmStore(directory: root).load(now: t0) == newer.load(now: t0))
            #expect(try Data(contentsOf: newer.fileURL) == bytes)
        }
    }

    struct Malformed: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: Data
        /// The reason load() gives; `*` stands for any text (a coding path's array index).
        var reason: String
        var testDescription: String { name }
    }

    static let malformedVersion1: [Malformed] = [
        Malformed(name: "no alarms", bytes: Data(#"{"format":1}"#.utf8),
                  reason: "it is not a valid Tocsin state file (“alarms” is not a list of objects)"),
        Malformed(name: "alarms as an object", bytes: Data(#"{"format":1,"alarms":{"id":"x"}}"#.utf8),
                  reason: "it is not a valid Tocsin state file (“alarms” is not a list of objects)"),
        Malformed(name: "alarms that are not objects", bytes: Data(#"{"format":1,"alarms":[1,2]}"#.utf8),
                  reason: "it is not a valid Tocsin state file (“alarms” is not a list of objects)"),
        Malformed(name: "an alarm without a creation date",
                  bytes: Data(#"{"alarms":[{"countdownDuration":180,"hooks":{"commands":{}},"id":"00000000-0000-0000-0000-000000000002","kind":"timer","ringLimit":600,"sound":{"standard":{}},"state":{"countdown":{"_0":{"duration":180,"fireDate":821692982}}},"title":"Tea"}],"format":1}"#.utf8),
                  reason: "it is not a valid Tocsin state file (missing “createdAt”)"),
        Malformed(name: "a countdown that is not an object",
                  bytes: Data(#"{"alarms":[{"countdownDuration":180,"createdAt":821692802,"hooks":{"commands":{}},"id":"00000000-0000-0000-0000-000000000002","kind":"timer","ringLimit":600,"sound":{"standard":{}},"state":{"countdown":{"_0":180}},"title":"Tea"}],"format":1}"#.utf8),
                  reason: "it is not a valid Tocsin state file (wrong type at alarms[*].state.countdown._0)"),
    ]

    @Test("A malformed version-1 file is set aside byte for byte with the reason; the next save starts a fresh format-2 file",
          arguments: malformedVersion1)
    func malformedSetAside(malformed: Malformed) throws {
        try withTemporaryDirectory { root in
            let store = AlarmStore(directory: root)
            try write(malformed.bytes, to: store)
            guard case .setAside(let reason, let movedTo) = store.load(now: t0) else {
                Issue.record("expected setAside")
                return
            }
            let parts = malformed.reason.components(separatedBy: "*")
            #expect(parts.count == 1 ? reason == malformed.reason : reason.hasPrefix(parts[0]) && reason.hasSuffix(parts[1]), "got “\(reason)”")
            #expect(movedTo.lastPathComponent.hasPrefix("alarms.json.unreadable-"))
            #expect(try Data(contentsOf: movedTo) == malformed.bytes)
            #expect(!Self.fileManager.fileExists(atPath: store.fileURL.path))
            #expect(store.isWritable)
            try store.save([Fixture.varied[1]])
            #expect(try json(store.fileURL)["format"] as? Int == 2)
            #expect(AlarmStore(directory: root).load(now: t0) == .loaded([Fixture.varied[1]]))
            #expect(try Data(contentsOf: movedTo) == malformed.bytes, "the set-aside file is untouched")
        }
    }
}
