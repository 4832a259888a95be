import Foundation
import HeadlessSession
import Testing
@testable import TocsinCore
#if canImport(Glibc)
import Glibc
import TocsinFiles
import TocsinTestSupport
#endif

@Suite("AlarmStore")
struct AlarmStoreTests {
    static let fileManager = FileManager.default

    func permissions(_ url: URL) throws -> Int {
        try #require(Self.fileManager.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber).intValue
    }

    func write(_ data: Data, to store: AlarmStore) throws {
        try Self.fileManager.createDirectory(at: store.directory, withIntermediateDirectories: true)
        try data.write(to: store.fileURL)
    }

    /// The name `load()` gives a set-aside file at `date` (same format as AlarmStore's).
    func setAsideName(at date: Date) -> String {
        let stamp = date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false).timeSeparator(.omitted).dateSeparator(.omitted))
        return "alarms.json.unreadable-\(stamp)"
    }

    // MARK: round trip

    @Test("No directory or no file yet: empty")
    func empty() throws {
        try withTemporaryDirectory { root in
            let store = AlarmStore(directory: root.appendingPathComponent("state/tocsin"))
            #expect(store.load(now: t0) == .empty)
            try Self.fileManager.createDirectory(at: store.directory, withIntermediateDirectories: true)
            #expect(store.load(now: t0) == .empty)
            #expect(store.isWritable)
        }
    }

    @Test("Round trip: every state, kind and schedule, buttons, hooks, sounds and limits come back equal and in order")
    func roundTrip() throws {
        try withTemporaryDirectory { root in
            let directory = root.appendingPathComponent("state/tocsin")
            try AlarmStore(directory: directory).save(Fixture.varied)
            #expect(Set(Fixture.varied.map(\.state.name)) == Set(AlarmStateName.allCases))
            #expect(Set(Fixture.varied.map(\.kind)) == Set(AlarmKind.allCases))
            #expect(Fixture.varied.contains { if case .countdown(let phase) = $0.state { phase.followsWallClock } else { false } })
            #expect(AlarmStore(directory: directory).load(now: t0) == .loaded(Fixture.varied))
        }
    }

    @Test("Round trip of no alarms, and of alarms scheduled through a book")
    func roundTripBook() throws {
        try withTemporaryDirectory { root in
            let store = AlarmStore(directory: root)
            try store.save([])
            #expect(store.load(now: t0) == .loaded([]))

            var book = AlarmBook()
            _ = try book.schedule(AlarmRequest(title: "Tea", duration: 180, snoozeDuration: 60, sound: .themeEvent("bell"),
                                               hooks: AlarmHooks([.fire: "echo fire"])), id: fixedID(1), now: t0)
            _ = try book.schedule(AlarmRequest(duration: 30), id: fixedID(2), now: at(1))
            _ = try book.perform(.pause, on: fixedID(2), now: at(11))
            _ = try book.schedule(AlarmRequest(kind: .alarm, schedule: .timeOfDay(Fixture.time(7), weekdays: Weekday.workdays),
                                               title: "Wake up", duration: 600, lateLimit: 1200), id: fixedID(3), now: at(2))
            _ = try book.schedule(AlarmRequest(kind: .alarm, schedule: .timeOfDay(Fixture.time(9, 30), weekdays: []), duration: 0),
                                  id: fixedID(4), now: at(3))
            _ = book.advance(to: at(180))
            try store.save(book.alarms)
            guard case .loaded(let alarms) = AlarmStore(directory: root).load(now: t0) else {
                Issue.record("expected loaded")
                return
            }
            #expect(AlarmBook(alarms: alarms) == book)
        }
    }

    @Test("A save replaces the previous file")
    func saveReplaces() throws {
        try withTemporaryDirectory { root in
            let store = AlarmStore(directory: root)
            try store.save(Fixture.varied)
            try store.save([Fixture.varied[2]])
            #expect(store.load(now: t0) == .loaded([Fixture.varied[2]]))
        }
    }

    @Test("The file is JSON with format 2, mode 0600, in a 0700 directory (intermediate ones too); no temporary file is left")
    func fileAndDirectoryModes() throws {
        try withTemporaryDirectory { root in
            let store = AlarmStore(directory: root.appendingPathComponent("a/b/tocsin"))
            try store.save(Fixture.varied)
            #expect(try permissions(store.fileURL) == 0o600)
            #expect(try permissions(store.directory) == 0o700)
            #expect(try permissions(root.appendingPathComponent("a")) == 0o700)
            #expect(try Self.fileManager.contentsOfDirectory(atPath: store.directory.path) == ["alarms.json"])
            let json = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: store.fileURL)) as? [String: Any])
            #expect(json["format"] as? Int == 2)
            #expect((json["alarms"] as? [Any])?.count == Fixture.varied.count)
            #expect(AlarmStore.formatVersion == 2)
            #expect(StateFileMigration.currentVersion == 2)
        }
    }

    @Test("A file left with a looser mode is replaced by a 0600 one")
    func replacesLooseMode() throws {
        try withTemporaryDirectory { root in
            let store = AlarmStore(directory: root)
            try Data("{}".utf8).write(to: store.fileURL)
            try Self.fileManager.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store.fileURL.path)
            try store.save([])
            #expect(try permissions(store.fileURL) == 0o600)
        }
    }

    @Test("fileURL is alarms.json in the directory")
    func fileURL() {
        let store = AlarmStore(directory: URL(fileURLWithPath: "/x/tocsin", isDirectory: true))
        #expect(store.fileURL.path == "/x/tocsin/alarms.json")
    }

    // Instants used to be stored as seconds since 1970 while Date keeps seconds since 2001; converting
    // back and forth rounded the last bit of about half of all fractional instants, so a reloaded
    // alarm was off by ~1e-7 s and no longer `==` the saved one. The file now keeps Date's own value.
    @Test("Fractional instants survive a round trip exactly", arguments: [
        821_692_800.123456789, 821_692_800.1 + 1e-7, -12_345.678_901_234_5, 1e-300, 0.1 + 0.2,
    ])
    func fractionalInstants(referenceSeconds: TimeInterval) throws {
        try withTemporaryDirectory { root in
            let created = Date(timeIntervalSinceReferenceDate: referenceSeconds)
            let alarm = Fixture.alarm(duration: 59.123456789, state: .alerting(since: created.addingTimeInterval(0.000_123)), createdAt: created)
            let store = AlarmStore(directory: root)
            try store.save([alarm, Fixture.alarm(id: fixedID(2), createdAt: created)])
            guard case .loaded(let loaded) = store.load(now: t0), let back = loaded.first else {
                Issue.record("expected loaded alarms")
                return
            }
            #expect(back.createdAt.timeIntervalSinceReferenceDate.bitPattern == referenceSeconds.bitPattern)
            #expect(back == alarm)
            #expect(loaded.count == 2)
        }
    }

    @Test("Instants taken from the clock survive a round trip exactly")
    func clockInstants() throws {
        try withTemporaryDirectory { root in
            let store = AlarmStore(directory: root)
            var book = AlarmBook()
            for number in 1...50 {
                _ = try book.schedule(AlarmRequest(duration: 60.5), id: fixedID(number), now: Date())
            }
            try store.save(book.alarms)
            #expect(store.load(now: t0) == .loaded(book.alarms))
        }
    }

    // MARK: corrupt files

    struct Corrupt: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: Data
        var reason: [String]
        var testDescription: String { name }
    }

    static let corruptFiles: [Corrupt] = [
        Corrupt(name: "garbage bytes", bytes: Data([0xFF, 0x00, 0xFE, 0x7B, 0x0A, 0x80, 0x81]),
                reason: ["it is not a valid Tocsin state file", "not valid JSON"]),
        Corrupt(name: "empty file", bytes: Data(), reason: ["it is not a valid Tocsin state file"]),
        Corrupt(name: "truncated JSON", bytes: Data(#"{"alarms":[],"form"#.utf8), reason: ["it is not a valid Tocsin state file"]),
        Corrupt(name: "an array", bytes: Data("[]".utf8), reason: ["it is not a valid Tocsin state file"]),
        Corrupt(name: "missing alarms", bytes: Data(#"{"format":2}"#.utf8), reason: ["it is not a valid Tocsin state file", "missing “alarms”"]),
        Corrupt(name: "format as a string", bytes: Data(#"{"format":"2","alarms":[]}"#.utf8), reason: ["wrong type at format"]),
        Corrupt(name: "bad alarm", bytes: Data(#"{"format":2,"alarms":[{"id":"nope"}]}"#.utf8), reason: ["it is not a valid Tocsin state file"]),
        // Format 2 added the late limit: a current file without one is corrupt (only version 1 is migrated).
        Corrupt(name: "format 2 alarm without a late limit", bytes: Data(#"{"format":2,"alarms":[{"countdownDuration":60,"createdAt":821692800,"hooks":{"commands":{}},"id":"00000000-0000-0000-0000-000000000001","kind":"timer","ringLimit":600,"sound":{"standard":{}},"state":{"countdown":{"_0":{"duration":60,"fireDate":821692860,"followsWallClock":false}}},"title":"Pasta"}]}"#.utf8),
                reason: ["it is not a valid Tocsin state file", "missing “lateLimit”"]),
        Corrupt(name: "format version 0", bytes: Data(#"{"format":0}"#.utf8),
                reason: ["it is not a valid Tocsin state file", "format version 0"]),
        Corrupt(name: "negative format version", bytes: Data(#"{"format":-1,"alarms":[]}"#.utf8),
                reason: ["it is not a valid Tocsin state file", "format version -1"]),
        Corrupt(name: "missing format", bytes: Data(#"{"alarms":[]}"#.utf8),
                reason: ["it is not a valid Tocsin state file", "missing “format”"]),
    ]

    @Test("A corrupt file is moved aside byte for byte and load says why; a later save writes a fresh file and leaves it alone",
          arguments: corruptFiles)
    func corruptSetAside(corrupt: Corrupt) throws {
        try withTemporaryDirectory { root in
            let store = AlarmStore(directory: root.appendingPathComponent("tocsin"))
            try write(corrupt.bytes, to: store)
            guard case .setAside(let reason, let movedTo) = store.load(now: t0) else {
                Issue.record("expected setAside")
                return
            }
            for part in corrupt.reason {
                #expect(reason.contains(part), "reason “\(reason)” should contain “\(part)”")
            }
            #expect(movedTo.deletingLastPathComponent().standardizedFileURL.path == store.directory.standardizedFileURL.path)
            // Named by the time passed in (t0), not by a clock the store reads.
            #expect(movedTo.lastPathComponent == "alarms.json.unreadable-20270115T080000")
            #expect(try Data(contentsOf: movedTo) == corrupt.bytes)
            #expect(!Self.fileManager.fileExists(atPath: store.fileURL.path))
            #expect(store.isWritable)

            try store.save(Fixture.varied)
            #expect(try Data(contentsOf: movedTo) == corrupt.bytes, "the set-aside file is untouched")
            #expect(AlarmStore(directory: store.directory).load(now: t0) == .loaded(Fixture.varied))
            #expect(try Self.fileManager.contentsOfDirectory(atPath: store.directory.path).sorted()
                    == ["alarms.json", movedTo.lastPathComponent])
        }
    }

    @Test("A directory where the state file should be is set aside, and load says it is not a regular file")
    func directoryInsteadOfFile() throws {
        try withTemporaryDirectory { root in
            let store = AlarmStore(directory: root)
            try Self.fileManager.createDirectory(at: store.fileURL, withIntermediateDirectories: false)
            try Data("inside".utf8).write(to: store.fileURL.appendingPathComponent("inside"))
            guard case .setAside(let reason, let movedTo) = store.load(now: t0) else {
                Issue.record("expected setAside")
                return
            }
            #expect(reason == "it is not a regular file")
            #expect(movedTo.lastPathComponent.hasPrefix("alarms.json.unreadable-"))
            var isDirectory: ObjCBool = false
            #expect(Self.fileManager.fileExists(atPath: movedTo.path, isDirectory: &isDirectory) && isDirectory.boolValue)
            #expect(try Data(contentsOf: movedTo.appendingPathComponent("inside")) == Data("inside".utf8))
            #expect(!Self.fileManager.fileExists(atPath: store.fileURL.path))
            try store.save([])
            #expect(store.load(now: t0) == .loaded([]))
        }
    }

    // Opening a FIFO for reading blocks until a writer comes, so load() must look before it opens.
    // Should it block anyway, a watchdog opens the FIFO for writing after 5 s and closes it, so the
    // load ends (reading an empty file) and the test fails on the reason instead of hanging the run.
    @Test("A FIFO where the state file should be is set aside without blocking")
    func fifoInsteadOfFile() throws {
        try withTemporaryDirectory { root in
            let store = AlarmStore(directory: root)
            #expect(mkfifo(store.fileURL.path, 0o600) == 0)
            let path = store.fileURL.path
            DispatchQueue.global().asyncAfter(deadline: .now() + 5) {
                let descriptor = open(path, O_WRONLY | O_NONBLOCK)
                if descriptor >= 0 { close(descriptor) }
            }
            let started = Date()
            guard case .setAside(let reason, let movedTo) = store.load(now: t0) else {
                Issue.record("expected setAside")
                return
            }
            #expect(Date().timeIntervalSince(started) < 4)
            #expect(reason == "it is not a regular file")
            var status = stat()
            #expect(lstat(movedTo.path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "the FIFO itself is set aside")
            #expect(!Self.fileManager.fileExists(atPath: store.fileURL.path))
            #expect(store.isWritable)
        }
    }

    @Test("A symbolic link loop cannot be examined; the link itself is set aside")
    func symlinkLoop() throws {
        try withTemporaryDirectory { root in
            let store = AlarmStore(directory: root)
            try Self.fileManager.createSymbolicLink(atPath: store.fileURL.path, withDestinationPath: "alarms.json")
            guard case .setAside(let reason, let movedTo) = store.load(now: t0) else {
                Issue.record("expected setAside")
                return
            }
            #expect(reason == "it could not be examined (Too many levels of symbolic links)")
            #expect(try Self.fileManager.destinationOfSymbolicLink(atPath: movedTo.path) == "alarms.json")
            try store.save([])
            #expect(store.load(now: t0) == .loaded([]))
        }
    }

    @Test("A state directory that is a regular file: the path cannot be examined nor moved, the store is unusable")
    func directoryIsAFile() throws {
        try withTemporaryDirectory { root in
            let notADirectory = root.appendingPathComponent("tocsin")
            try Data("x".utf8).write(to: notADirectory)
            let store = AlarmStore(directory: notADirectory)
            #expect(store.load(now: t0) == .unusable(reason: "it could not be examined (Not a directory), and moving it aside failed: Not a directory"))
            #expect(!store.isWritable)
            #expect(throws: StoreError.self) { try store.save([]) }
            #expect(try Data(contentsOf: notADirectory) == Data("x".utf8))
        }
    }

    // The format version is checked before the alarms are decoded, so a newer file whose alarms look
    // different is reported as written by a newer Tocsin (the user is told to upgrade), not as
    // "not a valid Tocsin state file (missing “id”)". It belongs to that newer Tocsin: it stays where
    // it is, byte for byte, and nothing is saved over it.
    @Test("A future format version is reported as such even when its alarms have a new shape, and is left in place untouched")
    func futureFormatNewShape() throws {
        try withTemporaryDirectory { root in
            let store = AlarmStore(directory: root)
            let bytes = Data(#"{"format":3,"alarms":[{"uuid":"x","timer":{"seconds":60}}],"extra":true}"#.utf8)
            try write(bytes, to: store)
            #expect(store.load(now: t0) == .unusable(reason: "it was written by a newer Tocsin (format version 3; this one reads up to 2); it is left untouched"))
            #expect(!store.isWritable)
            #expect(try Data(contentsOf: store.fileURL) == bytes)
            #expect(try Self.fileManager.contentsOfDirectory(atPath: root.path) == ["alarms.json"], "not moved aside")
            let error = try #require(throws: StoreError.self) { try store.save(Fixture.varied) }
            #expect(error.message.hasPrefix("Not saving to \(store.fileURL.path)"))
            #expect(try Data(contentsOf: store.fileURL) == bytes)
        }
    }

    // The set-aside name has one-second resolution. It used to be taken with rename(2), which replaces
    // an existing file: a second corrupt file set aside in the same second (an agent restarting in a
    // crash loop) destroyed the first one. Now a taken name gets a numbered suffix.
    @Test("Setting aside never overwrites an earlier set-aside file; a taken name gets a -2 suffix")
    func setAsideKeepsEarlierOnes() throws {
        try withTemporaryDirectory { root in
            let store = AlarmStore(directory: root)
            let earlier = [root.appendingPathComponent(setAsideName(at: t0))]
            for url in earlier { try Data("earlier".utf8).write(to: url) }
            try write(Data("garbage".utf8), to: store)
            guard case .setAside(_, let movedTo) = store.load(now: t0) else {
                Issue.record("expected setAside")
                return
            }
            #expect(try Data(contentsOf: movedTo) == Data("garbage".utf8))
            #expect(movedTo.lastPathComponent == earlier[0].lastPathComponent + "-2")
            for url in earlier {
                #expect(try Data(contentsOf: url) == Data("earlier".utf8), "\(url.lastPathComponent) was overwritten")
            }
            #expect(!Self.fileManager.fileExists(atPath: store.fileURL.path))
        }
    }

    @Test("Corrupt files set aside one after another within seconds are all kept, under distinct names")
    func crashLoop() throws {
        try withTemporaryDirectory { root in
            var kept: [URL: Data] = [:]
            for round in 1...12 {
                let store = AlarmStore(directory: root)
                let garbage = Data("garbage \(round)".utf8)
                try write(garbage, to: store)
                guard case .setAside(_, let movedTo) = store.load(now: t0) else {
                    Issue.record("expected setAside in round \(round)")
                    return
                }
                #expect(kept[movedTo] == nil, "\(movedTo.lastPathComponent) reused")
                kept[movedTo] = garbage
            }
            for (url, data) in kept {
                #expect(try Data(contentsOf: url) == data, "\(url.lastPathComponent)")
            }
            #expect(try Self.fileManager.contentsOfDirectory(atPath: root.path).count == 12)
        }
    }

    // Where hard links are impossible (a directory in place of the file, or a file system without
    // them) the store falls back to rename(2), but only onto a free name. A taken name still answers
    // link() with EEXIST (the new name is checked first), so the fallback moves on to “-2” too.
    @Test("The rename fallback also moves on to a numbered name when the first one is taken")
    func renameFallbackNumbered() throws {
        try withTemporaryDirectory { root in
            let store = AlarmStore(directory: root)
            let earlier = [root.appendingPathComponent(setAsideName(at: t0))]
            for url in earlier { try Data("earlier".utf8).write(to: url) }
            try Self.fileManager.createDirectory(at: store.fileURL, withIntermediateDirectories: false)
            guard case .setAside(let reason, let movedTo) = store.load(now: t0) else {
                Issue.record("expected setAside")
                return
            }
            #expect(reason == "it is not a regular file")
            #expect(movedTo.lastPathComponent == earlier[0].lastPathComponent + "-2")
            var isDirectory: ObjCBool = false
            #expect(Self.fileManager.fileExists(atPath: movedTo.path, isDirectory: &isDirectory) && isDirectory.boolValue)
            for url in earlier {
                #expect(try Data(contentsOf: url) == Data("earlier".utf8), "\(url.lastPathComponent) was overwritten")
            }
        }
    }

    // As root, permission bits stop neither link(2) nor rename(2), and since numbered names are
    // tried, a few taken names no longer block the move. What does: every name load(now:) may
    // pick for that time — the plain one and “-2” … “-100” — is taken already.
    @Test("A corrupt file that cannot be moved aside makes the store unusable; save refuses and the file is kept")
    func unusable() throws {
        try withTemporaryDirectory { root in
            let store = AlarmStore(directory: root)
            let name = setAsideName(at: t0)
            let blockers = (1...100).map { attempt in root.appendingPathComponent(attempt == 1 ? name : "\(name)-\(attempt)") }
            for blocker in blockers { try Data().write(to: blocker) }
            let garbage = Data("not json at all".utf8)
            try write(garbage, to: store)
            guard case .unusable(let reason) = store.load(now: t0) else {
                Issue.record("expected unusable")
                return
            }
            #expect(reason.hasPrefix("it is not a valid Tocsin state file"))
            #expect(reason.hasSuffix(", and moving it aside failed: no free name"), "got “\(reason)”")
            #expect(!store.isWritable)

            let error = try #require(throws: StoreError.self) { try store.save(Fixture.varied) }
            #expect(error.message.hasPrefix("Not saving to \(store.fileURL.path)"))
            #expect(error.description == error.message)
            #expect(try Data(contentsOf: store.fileURL) == garbage, "the unreadable file is not overwritten")
            #expect(try Self.fileManager.contentsOfDirectory(atPath: root.path).count == blockers.count + 1)
            #expect(blockers.allSatisfy { (try? Data(contentsOf: $0)) == Data() })
        }
    }

    /// Whether `chattr +i` works here: root with CAP_LINUX_IMMUTABLE, on a file system with the
    /// attribute (ext4, xfs, btrfs), under the temporary directory the tests use.
    static let immutableFilesWork: Bool = {
        let probe = fileManager.temporaryDirectory.appendingPathComponent("TocsinCoreTests-chattr-\(UUID().uuidString)")
        guard fileManager.createFile(atPath: probe.path, contents: Data()) else { return false }
        defer { chattr("-i", probe); try? fileManager.removeItem(at: probe) }
        guard chattr("+i", probe) else { return false }
        return link(probe.path, probe.path + ".link") != 0 && errno == EPERM
    }()

    @discardableResult
    static func chattr(_ flag: String, _ url: URL) -> Bool {
        let process = try? SpawnedProcess(URL(fileURLWithPath: "/usr/bin/chattr"), [flag, url.path], standardError: .null)
        return process?.waitUntilExit() == 0
    }

    // An immutable file can be neither linked nor renamed, even by root: both ways fail with EPERM.
    @Test("An immutable corrupt file makes the store unusable, naming the error",
          .enabled(if: immutableFilesWork, "needs chattr +i: root with CAP_LINUX_IMMUTABLE on ext4, xfs or btrfs"))
    func unusableImmutable() throws {
        try withTemporaryDirectory { root in
            let store = AlarmStore(directory: root)
            let garbage = Data("not json at all".utf8)
            try write(garbage, to: store)
            #expect(Self.chattr("+i", store.fileURL))
            defer { Self.chattr("-i", store.fileURL) }
            guard case .unusable(let reason) = store.load(now: t0) else {
                Issue.record("expected unusable")
                return
            }
            #expect(reason.hasPrefix("it is not a valid Tocsin state file"))
            #expect(reason.hasSuffix(", and moving it aside failed: Operation not permitted"), "got “\(reason)”")
            #expect(!store.isWritable)
            #expect(throws: StoreError.self) { try store.save([]) }
            #expect(try Data(contentsOf: store.fileURL) == garbage)
            #expect(try Self.fileManager.contentsOfDirectory(atPath: root.path) == ["alarms.json"])
        }
    }

    @Test("Saving where the directory cannot be created fails with a StoreError naming it, and writes nothing")
    func saveFailure() throws {
        try withTemporaryDirectory { root in
            let blocker = root.appendingPathComponent("file")
            try Data("x".utf8).write(to: blocker)
            let store = AlarmStore(directory: blocker.appendingPathComponent("tocsin"))
            let error = try #require(throws: StoreError.self) { try store.save([]) }
            #expect(error.message.contains("could not create the directory \(store.directory.path)"), "\(error.message)")
            #expect(try Data(contentsOf: blocker) == Data("x".utf8))
        }
    }

    // MARK: default directory

    @Test("defaultDirectory honours an absolute XDG_STATE_HOME and otherwise falls back to HOME/.local/state", arguments: [
        (["XDG_STATE_HOME": "/xdg/state", "HOME": "/home/ada"], "/xdg/state/tocsin"),
        (["XDG_STATE_HOME": "/xdg/state/", "HOME": "/home/ada"], "/xdg/state/tocsin"),
        (["HOME": "/home/ada"], "/home/ada/.local/state/tocsin"),
        (["XDG_STATE_HOME": "", "HOME": "/home/ada"], "/home/ada/.local/state/tocsin"),
        (["XDG_STATE_HOME": "relative/state", "HOME": "/home/ada"], "/home/ada/.local/state/tocsin"),
    ])
    func defaultDirectory(environment: [String: String], path: String) {
        #expect(AlarmStore.defaultDirectory(environment: environment).path == path)
    }

    @Test("defaultDirectory without HOME uses the account's home directory")
    func defaultDirectoryWithoutHome() {
        let path = AlarmStore.defaultDirectory(environment: [:]).path
        #expect(path == NSHomeDirectory() + "/.local/state/tocsin")
    }
}
