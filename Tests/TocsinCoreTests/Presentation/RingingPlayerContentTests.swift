import Foundation
import Testing
@testable import TocsinCore
import TocsinTestSupport

// RingingPlayerContent.swift: what Tocsin's media player shows while alarms ring, and what its
// controls do.
@Suite("Ringing player content")
struct RingingPlayerContentTests {
    /// A book holding `requests` (ids `fixedID(1)`…, scheduled at `t0`), advanced to `seconds`.
    static func book(_ requests: AlarmRequest..., advancedTo seconds: TimeInterval) throws -> AlarmBook {
        var book = AlarmBook()
        for (index, request) in requests.enumerated() { _ = try book.schedule(request, id: fixedID(index + 1), now: t0) }
        _ = book.advance(to: at(seconds))
        return book
    }

    @Test("Nothing rings: no player, however many count down, are paused or wait")
    func nothingRings() throws {
        let book = try Self.book(AlarmRequest(title: "Tea", duration: 60), AlarmRequest(kind: .alarm, schedule: .fixed(at(3600)), duration: 0), advancedTo: 30)
        #expect(RingingPlayerContent(alarms: book.alarms) == nil)
    }

    @Test("A snooze: the alarm's title, the artist line says Next snoozes, Next is the second button; play, pause and stop all stop")
    func snooze() throws {
        let book = try Self.book(AlarmRequest(title: "Tea", duration: 1, snoozeDuration: 300), advancedTo: 2)
        let content = try #require(RingingPlayerContent(alarms: book.alarms))
        #expect(content.alarmID == fixedID(1) && content.title == "Tea")
        #expect(content.artist == "Play/Pause or Stop: stop · Next: snooze")
        #expect(content.canGoNext && content.nextIntent == .secondary)
        #expect(RingingPlayerContent.Control.allCases.map { content.intent(for: $0) } == [.stop, .stop, .stop, .stop, .secondary, nil],
                "Play, Pause, PlayPause, Stop, Next, Previous")
        #expect(content.trackID == "/io/github/tocsin/Alarm/00000000_0000_0000_0000_000000000001", "an object path: no dashes")
    }

    @Test("The alarm's own second button: its label in the artist line, Next presses it")
    func customButton() throws {
        let book = try Self.book(AlarmRequest(title: "Bread", duration: 1, secondaryButtonLabel: "Next step", hooks: AlarmHooks([.secondary: "true"])), advancedTo: 2)
        let content = try #require(RingingPlayerContent(alarms: book.alarms))
        #expect(content.artist == "Play/Pause or Stop: stop · Next: Next step")
        #expect(content.intent(for: .next) == .secondary)
        let relabelled = try Self.book(AlarmRequest(title: "Nap", duration: 1, snoozeDuration: 300, secondaryButtonLabel: "Ten more minutes"), advancedTo: 2)
        #expect(RingingPlayerContent(alarms: relabelled.alarms)?.artist == "Play/Pause or Stop: stop · Next: Ten more minutes",
                "a snooze relabelled is said as the alert says it")
    }

    @Test("Neither a snooze nor a button of its own: no Next, and the artist line does not offer one")
    func stopOnly() throws {
        let book = try Self.book(AlarmRequest(title: "Eggs", duration: 1), advancedTo: 2)
        let content = try #require(RingingPlayerContent(alarms: book.alarms))
        #expect(content.artist == "Play/Pause or Stop: stop")
        #expect(!content.canGoNext && content.intent(for: .next) == nil && content.intent(for: .playPause) == .stop)
        // A snooze without a button (AlarmKit's Stop-only alert): nothing to press either.
        let buttonless = try Self.book(AlarmRequest(title: "Pill", duration: 1, snoozeDuration: 60, snoozeButton: false), advancedTo: 2)
        #expect(RingingPlayerContent(alarms: buttonless.alarms)?.canGoNext == false)
    }

    @Test("Several ring: the one ringing longest shows, not the one set first; at the same instant, the one set first")
    func several() throws {
        // Eggs is set first but rings later.
        var book = try Self.book(AlarmRequest(title: "Eggs", duration: 20), AlarmRequest(title: "Tea", duration: 10), advancedTo: 15)
        _ = book.advance(to: at(25))
        #expect(book.alarms.filter { $0.state.name == .alerting }.count == 2)
        #expect(RingingPlayerContent(alarms: book.alarms)?.title == "Tea")
        #expect(RingingPlayerContent(alarms: book.alarms.reversed())?.title == "Tea", "whatever the order given")
        let together = try Self.book(AlarmRequest(title: "One", duration: 10), AlarmRequest(title: "Two", duration: 10), advancedTo: 10)
        #expect(RingingPlayerContent(alarms: together.alarms.reversed())?.title == "One")
    }

    /// Times of day as the tests write them: seconds after `t0`.
    static func clock(_ date: Date) -> String { "t+\(Int(date.timeIntervalSince(t0)))" }
    /// Days as the tests write them: whole days after `t0`.
    static func day(_ date: Date) -> String { "day \(Int(date.timeIntervalSince(t0)) / 86_400)" }

    @Test("Waiting between rings: the alarm that rings next (a timer's end, a snooze, an alarm's time, whichever is first), when it rings, no control doing anything")
    func waiting() throws {
        // Bread waits for its time (t+3600), Tea counts down to t+600, Soup is paused.
        var book = try Self.book(AlarmRequest(kind: .alarm, schedule: .fixed(at(3600)), title: "Bread", duration: 0),
                                 AlarmRequest(title: "Tea", duration: 600), AlarmRequest(title: "Soup", duration: 60), advancedTo: 10)
        _ = try book.perform(.pause, on: fixedID(3), now: at(10))
        let content = try #require(RingingPlayerContent(waitingFor: book, now: at(10), timeOfDay: Self.clock, day: Self.day))
        #expect(content.alarmID == fixedID(2) && content.title == "Tea" && content.artist == "Rings at t+600")
        #expect(!content.isRinging && !content.canGoNext)
        #expect(RingingPlayerContent.Control.allCases.allSatisfy { content.intent(for: $0) == nil }, "a control of a player that waits does nothing")
        #expect(content.trackID == "/io/github/tocsin/Alarm/00000000_0000_0000_0000_000000000002")

        _ = try book.perform(.cancel, on: fixedID(2), now: at(20))
        #expect(RingingPlayerContent(waitingFor: book, now: at(10), timeOfDay: Self.clock, day: Self.day)?.title == "Bread", "the alarm's time, once no countdown ends sooner")
        #expect(RingingPlayerContent(waitingFor: book, now: at(20), settings: LockScreenSettings(showsTitles: false), timeOfDay: Self.clock, day: Self.day)?.title == "Alarm",
                "titles kept off the lock screen")
        _ = try book.perform(.cancel, on: fixedID(1), now: at(30))
        #expect(RingingPlayerContent(waitingFor: book, now: at(10), timeOfDay: Self.clock, day: Self.day) == nil, "only a paused one left: nothing will ring")
    }

    @Test("Waiting after a snooze: the snoozed alarm, ringing again at the snooze's end")
    func waitingForASnooze() throws {
        var book = try Self.book(AlarmRequest(title: "Nap", duration: 1, snoozeDuration: 300), AlarmRequest(title: "Eggs", duration: 900), advancedTo: 2)
        #expect(RingingPlayerContent(alarms: book.alarms)?.isRinging == true)
        _ = try book.perform(.secondary, on: fixedID(1), now: at(5))
        let content = try #require(RingingPlayerContent(waitingFor: book, now: at(10), timeOfDay: Self.clock, day: Self.day))
        #expect(content.title == "Nap" && content.artist == "Rings at t+305")
    }

    @Test("Waiting for a ring a day or more away: its day as well as its time; within a day, its time alone")
    func waitingForARingDaysAway() throws {
        // Wake up rings at t+2 days+7 h, by its fixed date.
        let ring = at(2 * 86_400 + 7 * 3600)
        let book = try Self.book(AlarmRequest(kind: .alarm, schedule: .fixed(ring), title: "Wake up", duration: 0), advancedTo: 10)
        let far = try #require(RingingPlayerContent(waitingFor: book, now: at(10), timeOfDay: Self.clock, day: Self.day))
        #expect(far.artist == "Rings day 2 at t+198000")
        let exactlyADay = try #require(RingingPlayerContent(waitingFor: book, now: ring.addingTimeInterval(-86_400), timeOfDay: Self.clock, day: Self.day))
        #expect(exactlyADay.artist == "Rings day 2 at t+198000", "a day away to the second: the same time of day is now, so the day is said")
        let near = try #require(RingingPlayerContent(waitingFor: book, now: ring.addingTimeInterval(-86_399), timeOfDay: Self.clock, day: Self.day))
        #expect(near.artist == "Rings at t+198000")
    }
}
