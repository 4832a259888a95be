import Foundation
import Testing
@testable import TocsinCore
import TocsinTestSupport

// IntentTarget.swift: which alarm an intent without an id means.
@Suite("Intent targets")
struct IntentTargetTests {
    /// A book with a waiting wake-up alarm, a timer counting down and one paused, at t0 + 10 s.
    static func book() throws -> (AlarmBook, wakeUp: UUID, pasta: UUID, tea: UUID) {
        var book = AlarmBook()
        let wakeUp = try book.schedule(AlarmRequest(kind: .alarm, schedule: .fixed(at(3600)), duration: 0), id: fixedID(1), now: t0).alarm.id
        let pasta = try book.schedule(AlarmRequest(title: "Pasta", duration: 600), id: fixedID(2), now: t0).alarm.id
        let tea = try book.schedule(AlarmRequest(title: "Tea", duration: 300), id: fixedID(3), now: at(1)).alarm.id
        _ = try book.perform(.pause, on: tea, now: at(5))
        return (book, wakeUp, pasta, tea)
    }

    @Test("Pause means the one counting down, resume the one paused; a waiting alarm is neither")
    func onePerIntent() throws {
        let (book, _, pasta, tea) = try Self.book()
        #expect(IntentTarget.of(.pause, among: book.alarms, now: at(10)) == .one(book[pasta]!))
        #expect(IntentTarget.of(.resume, among: book.alarms, now: at(10)) == .one(book[tea]!))
        #expect(IntentTarget.of(.stop, among: book.alarms, now: at(10)) == .none(needs: "ringing"))
    }

    @Test("Cancel weighs every alarm on screen, oldest first, and never the waiting one")
    func cancel() throws {
        var (book, wakeUp, pasta, tea) = try Self.book()
        #expect(IntentTarget.of(.cancel, among: book.alarms, now: at(10)) == .several([book[pasta]!, book[tea]!]))
        _ = try book.perform(.cancel, on: pasta, now: at(11))
        _ = try book.perform(.cancel, on: tea, now: at(11))
        #expect(IntentTarget.of(.cancel, among: book.alarms, now: at(12)) == .none(needs: "counting down, paused or ringing"))
        #expect(book[wakeUp] != nil)
    }

    @Test("Nothing to pause says what could have been")
    func nothing() throws {
        #expect(IntentTarget.of(.pause, among: [], now: t0) == .none(needs: "counting down"))
        #expect(IntentTarget.of(.resume, among: [], now: t0) == .none(needs: "paused"))
    }
}
