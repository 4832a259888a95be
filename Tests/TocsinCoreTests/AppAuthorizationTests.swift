import Foundation
import Testing
@testable import TocsinCore

// AppAuthorization.swift: the consent states and their store; AlarmBook's per-application limit.
@Suite("Application authorization and limits")
struct AppAuthorizationTests {
    @Test("The command line is always authorized; others start undetermined; notDetermined forgets")
    func states() {
        var authorizations = AppAuthorizations()
        #expect(authorizations.state(of: "tocsin") == .authorized)
        #expect(authorizations.state(of: "org.example.Cook") == .notDetermined)
        authorizations.set(.denied, for: "org.example.Cook")
        #expect(authorizations.state(of: "org.example.Cook") == .denied)
        authorizations.set(.notDetermined, for: "org.example.Cook")
        #expect(authorizations.answers.isEmpty)
        authorizations.set(.denied, for: "tocsin")
        #expect(authorizations.state(of: "tocsin") == .authorized, "the user's own command line cannot be locked out")
    }

    @Test("Application ids are checked", arguments: ["", "a b", "x;rm -rf", String(repeating: "a", count: 256), "é"])
    func badAppIDs(text: String) {
        #expect(throws: AlarmInputError.self) { try AppAuthorizations.validatedAppID(text) }
    }

    @Test("Answers survive a save and load; an unreadable file is reported and asks everyone again")
    func store() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tocsin-auth-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = AuthorizationStore(directory: directory)
        #expect(store.load().0 == AppAuthorizations())
        var authorizations = AppAuthorizations()
        authorizations.set(.authorized, for: "org.example.Cook")
        authorizations.set(.denied, for: "spam")
        try store.save(authorizations)
        let (loaded, problem) = store.load()
        #expect(loaded == authorizations)
        #expect(problem == nil)
        let mode = try FileManager.default.attributesOfItem(atPath: store.fileURL.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        try Data("garbage".utf8).write(to: store.fileURL)
        let (afterCorruption, reason) = store.load()
        #expect(afterCorruption == AppAuthorizations())
        #expect(reason?.contains("every application will be asked again") == true)
    }

    @Test("An application holds at most its limit; the command line and other applications are not counted against it")
    func perApplicationLimit() throws {
        var book = AlarmBook()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        for _ in 0..<2 {
            _ = try book.schedule(AlarmRequest(duration: 60), now: now, owner: "org.example.Cook", ownerLimit: 2)
        }
        #expect(throws: AlarmError.appLimitReached(app: "org.example.Cook", limit: 2)) {
            try book.schedule(AlarmRequest(duration: 60), now: now, owner: "org.example.Cook", ownerLimit: 2)
        }
        _ = try book.schedule(AlarmRequest(duration: 60), now: now, owner: "org.example.Other", ownerLimit: 2)
        _ = try book.schedule(AlarmRequest(duration: 60), now: now)
        #expect(book.count == 4)
        #expect(book.alarms.filter { $0.owner == "tocsin" }.count == 1)
        #expect(AlarmError.appLimitReached(app: "org.example.Cook", limit: 2).description == "“org.example.Cook” already holds 2 alarms, the most an application may; cancel some first.")
    }
}
