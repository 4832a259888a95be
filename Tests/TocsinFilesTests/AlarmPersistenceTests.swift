import Foundation
import Testing
@testable import TocsinCore
import TocsinFiles
import TocsinTestSupport

// AlarmPersistence.swift and AlarmJournal.swift: a snapshot plus a journal of changes.
@Suite("AlarmPersistence: snapshot and journal")
struct AlarmPersistenceTests {
    static func directory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("tocsin-persistence-\(UUID())")
    }

    static func alarm(_ number: Int, title: String = "Tea") -> Alarm {
        Fixture.alarm(id: fixedID(number), title: title)
    }

    @Test("Changes are journaled, survive a reload, and the journal is folded into the snapshot on load")
    func recordAndReload() throws {
        let root = Self.directory()
        defer { try? FileManager.default.removeItem(at: root) }
        let persistence = AlarmPersistence(directory: root)
        var book: [Alarm] = []
        for number in 1...3 {
            book.append(Self.alarm(number))
            try persistence.record([.put(book.last!)], count: book.count, current: { book }, timeZone: .utc)
        }
        book.remove(at: 1)
        try persistence.record([.remove(fixedID(2))], count: book.count, current: { book }, timeZone: .utc)
        var renamed = book[0]
        renamed.title = "Coffee"
        book[0] = renamed
        try persistence.record([.put(renamed), .zone("Europe/Berlin")], count: book.count, current: { book }, timeZone: .utc)
        #expect(!FileManager.default.fileExists(atPath: persistence.fileURL.path), "a short journal needs no snapshot yet")
        #expect(persistence.journal.count == 6)

        let reloaded = AlarmPersistence(directory: root).load(now: t0)
        #expect(reloaded.outcome == .loaded(book))
        #expect(reloaded.timeZone?.identifier == "Europe/Berlin")
        #expect(reloaded.journalNote == nil)
        #expect(FileManager.default.fileExists(atPath: persistence.fileURL.path), "the journal was not folded in")
        #expect(!FileManager.default.fileExists(atPath: persistence.journal.fileURL.path))
        #expect(AlarmPersistence(directory: root).load(now: t0).outcome == .loaded(book))
    }

    @Test("A change cut short by a crash is dropped, and the next change starts on a whole line")
    func tornTail() throws {
        let root = Self.directory()
        defer { try? FileManager.default.removeItem(at: root) }
        let persistence = AlarmPersistence(directory: root)
        let first = Self.alarm(1)
        try persistence.record([.put(first)], count: [first].count, current: { [first] }, timeZone: .utc)
        let handle = try FileHandle(forWritingTo: persistence.journal.fileURL)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"put":{"_0":{"id":"#.utf8))
        try handle.close()
        // The next agent's first append cuts the torn tail off first. (The crashed agent's
        // persistence is never used again: a torn tail only comes from a process that died.)
        let second = Self.alarm(2)
        let restarted = AlarmPersistence(directory: root)
        try restarted.record([.put(second)], count: [first, second].count, current: { [first, second] }, timeZone: .utc)
        #expect(AlarmJournal(directory: root).read(now: t0) == .read([.put(first), .put(second)]))

        // A torn tail found at start-up is reported and dropped.
        let other = Self.directory()
        defer { try? FileManager.default.removeItem(at: other) }
        let crashed = AlarmPersistence(directory: other)
        try crashed.record([.put(first)], count: [first].count, current: { [first] }, timeZone: .utc)
        let tornChange = #"{"remove":{"_0":"#
        let written = String(decoding: try Data(contentsOf: crashed.journal.fileURL), as: UTF8.self)
        try Data((written + tornChange).utf8).write(to: crashed.journal.fileURL)
        let loaded = AlarmPersistence(directory: other).load(now: t0)
        #expect(loaded.outcome == .loaded([first]))
        #expect(loaded.journalNote?.contains("was cut short") == true)
    }

    @Test("A journal deleted meanwhile is created again by the next change")
    func deletedJournalIsRecreated() throws {
        let root = Self.directory()
        defer { try? FileManager.default.removeItem(at: root) }
        let persistence = AlarmPersistence(directory: root)
        let first = Self.alarm(1), second = Self.alarm(2), third = Self.alarm(3)
        try persistence.record([.put(first)], count: 1, current: { [first] }, timeZone: .utc)
        try persistence.record([.put(second)], count: 2, current: { [first, second] }, timeZone: .utc)
        #expect(AlarmJournal(directory: root).read(now: t0) == .read([.put(first), .put(second)]))
        try FileManager.default.removeItem(at: persistence.journal.fileURL)
        try persistence.record([.put(third)], count: 3, current: { [first, second, third] }, timeZone: .utc)
        // Only what came after the deletion is there, but it is there, in a file others can read.
        #expect(AlarmJournal(directory: root).read(now: t0) == .read([.put(third)]))
    }

    @Test("A journal with an unreadable line in the middle is set aside, never overwritten")
    func corruptJournal() throws {
        let root = Self.directory()
        defer { try? FileManager.default.removeItem(at: root) }
        let persistence = AlarmPersistence(directory: root)
        let first = Self.alarm(1)
        try persistence.saveAll([first], timeZone: .utc)
        let garbage = Data("not json\n{\"remove\":{\"_0\":\"00000000-0000-0000-0000-000000000001\"}}\n".utf8)
        try garbage.write(to: persistence.journal.fileURL)
        let loaded = AlarmPersistence(directory: root).load(now: t0)
        #expect(loaded.outcome == .loaded([first]), "the snapshot is used without the journal")
        #expect(loaded.journalNote?.contains("line 1 is not a change Tocsin wrote") == true)
        let kept = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { $0.hasPrefix("alarms.journal.unreadable-") }
        #expect(kept.count == 1)
        #expect(try Data(contentsOf: root.appendingPathComponent(kept[0])) == garbage)
    }

    @Test("A long journal is folded into a new snapshot while recording")
    func compaction() throws {
        let root = Self.directory()
        defer { try? FileManager.default.removeItem(at: root) }
        let persistence = AlarmPersistence(directory: root)
        var book: [Alarm] = []
        for number in 1...AlarmPersistence.minimumJournalLength {
            book.append(Self.alarm(number))
            try persistence.record([.put(book.last!)], count: book.count, current: { book }, timeZone: .utc)
        }
        #expect(persistence.journal.count == 0, "the journal was not folded in")
        #expect(AlarmStore(directory: root).load(now: t0) == .loaded(book))
    }

    @Test("A state file that must not be overwritten refuses changes and leaves the journal alone")
    func unusableSnapshot() throws {
        let root = Self.directory()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let newer = Data(#"{"format":99,"alarms":[]}"#.utf8)
        try newer.write(to: root.appendingPathComponent("alarms.json"))
        let persistence = AlarmPersistence(directory: root)
        guard case .unusable = persistence.load(now: t0).outcome else {
            Issue.record("a newer state file was not refused")
            return
        }
        #expect(throws: StoreError.self) { try persistence.record([.put(Self.alarm(1))], count: [].count, current: { [] }, timeZone: .utc) }
        #expect(!FileManager.default.fileExists(atPath: persistence.journal.fileURL.path))
        #expect(try Data(contentsOf: root.appendingPathComponent("alarms.json")) == newer)
    }

    @Test("The journal of a snapshot that was set aside is set aside with it")
    func journalOfASetAsideSnapshot() throws {
        let root = Self.directory()
        defer { try? FileManager.default.removeItem(at: root) }
        let persistence = AlarmPersistence(directory: root)
        try persistence.record([.put(Self.alarm(1))], count: [Self.alarm(1)].count, current: { [Self.alarm(1)] }, timeZone: .utc)
        try Data("garbage".utf8).write(to: persistence.fileURL)
        let loaded = AlarmPersistence(directory: root).load(now: t0)
        guard case .setAside = loaded.outcome else {
            Issue.record("the garbage snapshot was not set aside: \(loaded.outcome)")
            return
        }
        #expect(loaded.journalNote?.contains("The journal of that snapshot was kept as") == true)
        #expect(!FileManager.default.fileExists(atPath: persistence.journal.fileURL.path))
    }
}
