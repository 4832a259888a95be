import Foundation
import Testing
@testable import TocsinCore
import TocsinFiles

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

    @Test("A sandboxed application's request with hooks is refused; where an app ran is recorded on its alarms")
    func sandboxedHooks() throws {
        var book = AlarmBook()
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let withHook = AlarmRequest(duration: 60, hooks: AlarmHooks([.fire: "touch \"$HOME/escaped\""]))
        #expect(throws: AlarmError.hooksFromSandbox(app: "org.example.Sandboxed", confinement: .flatpak)) {
            try book.schedule(withHook, now: now, owner: "org.example.Sandboxed", confinement: .flatpak)
        }
        #expect(book.count == 0)
        let sandboxed = try book.schedule(AlarmRequest(duration: 60), now: now, owner: "org.example.Sandboxed", confinement: .flatpak).alarm
        #expect(sandboxed.appConfinement == .flatpak)
        #expect(!sandboxed.mayRunHooks)
        let native = try book.schedule(withHook, now: now, owner: "org.example.Cook", confinement: .unconfined).alarm
        #expect(native.appConfinement == .unconfined)
        #expect(native.mayRunHooks)
        // The command line's alarms record no confinement: it is never sandboxed.
        let mine = try book.schedule(withHook, now: now).alarm
        #expect(mine.appConfinement == nil)
        #expect(mine.mayRunHooks)
        let message = AlarmError.hooksFromSandbox(app: "org.example.Sandboxed", confinement: .flatpak).description
        #expect(message.hasPrefix("“org.example.Sandboxed” runs in a Flatpak sandbox, and Tocsin runs no command for a sandboxed app"))
        #expect(message.contains("perform App Intents in the app"))
    }

    @Test("An app's alarm saved before confinements were recorded runs no hooks")
    func unknownOriginRunsNoHooks() throws {
        var book = AlarmBook()
        var legacy = try book.schedule(AlarmRequest(duration: 60, hooks: AlarmHooks([.fire: "true"])), now: Date(), owner: "org.example.Cook").alarm
        legacy.appConfinement = nil
        #expect(!legacy.mayRunHooks)
    }

    @Test("Where apps run is kept with the answers; a file without it (written before) still loads")
    func confinementsAreStored() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tocsin-auth-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = AuthorizationStore(directory: directory)
        var authorizations = AppAuthorizations()
        let news = [
            authorizations.note(.flatpak, for: "org.example.Sandboxed"),
            authorizations.note(.flatpak, for: "org.example.Sandboxed"),
            authorizations.note(.unconfined, for: "gdbus"),
            authorizations.note(.unconfined, for: "tocsin"),
        ]
        // The same news twice is no news; the command line is never recorded.
        #expect(news == [true, false, true, false])
        authorizations.set(.authorized, for: "org.example.Sandboxed")
        try store.save(authorizations)
        #expect(store.load().0 == authorizations)
        #expect(store.load().0.confinements == ["org.example.Sandboxed": .flatpak, "gdbus": .unconfined])
        try Data(#"{"applications":{"org.example.Cook":"authorized"},"format":1}"#.utf8).write(to: store.fileURL)
        let (older, problem) = store.load()
        #expect(problem == nil)
        #expect(older.state(of: "org.example.Cook") == .authorized)
        #expect(older.confinements.isEmpty)
    }

    @Test("The consent question says what is granted and what the sandbox means")
    func consentQuestion() {
        let sandboxed = NotificationContentWriter.consentQuestion(app: "org.example.Sandboxed", confinement: .flatpak, alarmLimit: 100)
        #expect(sandboxed.summary == "Allow “org.example.Sandboxed” to set alarms?")
        #expect(sandboxed.body == "It could keep up to 100 alarms and timers that ring with sound even during Do Not Disturb. It runs in a Flatpak sandbox: Tocsin runs no commands for it and reads only files its sandbox shows it. You can change this later with “tocsin auth”.")
        #expect(sandboxed.actions.map(\.label) == ["Allow", "Don’t Allow"])
        #expect(sandboxed.urgency == .critical)
        let native = NotificationContentWriter.consentQuestion(app: "gdbus", confinement: .unconfined, alarmLimit: 5)
        #expect(native.body.hasPrefix("It could keep up to 5 alarms"))
        #expect(native.body.contains("It is not sandboxed: like any program you run, it has your rights, and its alarms may run commands."))
    }

    @Test("The applications list: every app answered or seen, sorted, and its wire dictionary read back")
    func applicationRecords() {
        var authorizations = AppAuthorizations()
        authorizations.set(.denied, for: "spam")
        _ = authorizations.note(.flatpak, for: "org.example.Sandboxed")
        authorizations.set(.authorized, for: "org.example.Sandboxed")
        let records = authorizations.records(alarmCount: { $0 == "org.example.Sandboxed" ? 2 : 0 })
        #expect(records == [
            ApplicationRecord(appID: "org.example.Sandboxed", authorization: .authorized, confinement: .flatpak, alarmCount: 2),
            ApplicationRecord(appID: "spam", authorization: .denied, confinement: nil, alarmCount: 0),
        ])
        for record in records {
            #expect(AlarmWireFormat.decodeApplication(AlarmWireFormat.encode(record)) == record)
        }
        #expect(AlarmWireFormat.encode(records[1])["confinement"] == nil)
        #expect(AlarmWireFormat.decodeApplication(["app-id": .string("x")]) == nil, "without an authorization and a count")
    }
}
