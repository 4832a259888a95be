import Foundation
import Testing
@testable import TocsinCore
import TocsinTestSupport

// AgentState+Player.swift: the media player there from the first ring to the last Stop, showing
// the alarm ringing longest; its controls are presses of the alarm's buttons.
@Suite("Decider: the media player while alarms ring")
struct AlarmDeciderPlayerTests {
    /// The `.showPlayer` effects among `effects`, in order.
    static func players(_ effects: [AgentEffect]) -> [RingingPlayerContent?] {
        effects.compactMap { if case .showPlayer(let content) = $0 { content } else { nil } }
    }

    static func twoTimers() throws -> DeciderRun {
        try DeciderRun(AlarmRequest(title: "Tea", duration: 60, snoozeDuration: 300), AlarmRequest(title: "Eggs", duration: 90))
    }

    @Test("Shown when the first alarm rings, right after its sound; left as it is when a second one rings; changed when the first is answered; gone after the last")
    func followsTheRing() throws {
        var run = try Self.twoTimers()
        #expect(Self.players(run.feed(.timePassed, at: 30)).isEmpty, "nothing rings: no player")
        let fired = run.feed(.timePassed, at: 60)
        let tea = try #require(RingingPlayerContent(alarms: run.book.alarms))
        #expect(Self.players(fired) == [tea] && tea.title == "Tea")
        let ring = try #require(fired.firstIndex { if case .ring = $0 { true } else { false } })
        #expect(fired[ring + 1] == .showPlayer(tea), "right after the sound, before the signal: \(fired)")
        #expect(run.state.screen.player == tea)

        #expect(Self.players(run.feed(.timePassed, at: 90)).isEmpty, "Eggs rings too: Tea, ringing longest, still shows")
        let stoppedTea = run.perform(.stop, on: run.id(1), at: 95)
        let eggs = try #require(Self.players(stoppedTea).first ?? nil)
        #expect(Self.players(stoppedTea).count == 1 && eggs.title == "Eggs" && eggs.artist == "Play/Pause or Stop: stop" && !eggs.canGoNext)
        let stoppedEggs = run.perform(.stop, on: run.id(2), at: 96)
        #expect(Self.players(stoppedEggs) == [nil], "the last Stop: the player goes")
        #expect(Self.players(run.feed(.timePassed, at: 97)).isEmpty, "and stays gone")
    }

    @Test("A control pressed is the press of a button: Play/Pause stops, Next snoozes; the snoozed alarm rings again with its player")
    func controls() throws {
        var run = try DeciderRun(AlarmRequest(title: "Tea", duration: 60, snoozeDuration: 300))
        _ = run.feed(.timePassed, at: 60)
        let player = try #require(run.state.screen.player)
        let snoozed = run.perform(try #require(player.intent(for: .next)), on: player.alarmID, by: .press, at: 62)
        #expect(run.book[run.id(1)]?.state.name == .countdown && Self.players(snoozed) == [nil])
        let again = run.feed(.timePassed, at: 362)
        #expect(Self.players(again).map { $0?.title } == ["Tea"])
        let player2 = try #require(run.state.screen.player)
        let stopped = run.perform(try #require(player2.intent(for: .playPause)), on: player2.alarmID, by: .press, at: 363)
        #expect(stopped.contains(.silence(run.id(1))) && run.book[run.id(1)] == nil && Self.players(stopped) == [nil])
    }

    @Test("A change waiting for its save leaves the player as it is; a ring in the same decision shows once the save is reported")
    func pendingChange() throws {
        var run = try Self.twoTimers()
        _ = run.feed(.timePassed, at: 60)
        // Stop asked, not yet saved: the book has Tea gone, but it still rings.
        #expect(Self.players(run.feed(.asked(.perform(.stop, on: run.id(1)), by: .press), at: 61)).isEmpty)
        #expect(Self.players(run.feed(.changeNotSaved(reason: "The disk is full."), at: 61)).isEmpty, "undone: Tea still rings and shows")
        #expect(run.state.screen.player?.title == "Tea")
        _ = run.perform(.stop, on: run.id(1), at: 62)
        #expect(run.state.screen.player == nil)

        // Eggs comes due as a pause of nothing in particular is asked: it rings at once, and
        // its player comes with the report of the save.
        var second = try DeciderRun(AlarmRequest(title: "Eggs", duration: 90), AlarmRequest(title: "Soup", duration: 600))
        let asked = second.feed(.asked(.perform(.pause, on: second.id(2)), by: .press), at: 90)
        #expect(asked.contains { if case .ring = $0 { true } else { false } } && Self.players(asked).isEmpty)
        let saved = second.feed(.changeSaved, at: 90)
        #expect(Self.players(saved).map { $0?.title } == ["Eggs"] && saved.first == .showPlayer(second.state.screen.player))
    }

    @Test("After a restart, an alarm that was ringing rings again, and its player with it")
    func restart() throws {
        var book = AlarmBook()
        _ = try book.schedule(AlarmRequest(title: "Wake up", duration: 10, snoozeDuration: 300), id: fixedID(1), now: t0)
        _ = book.advance(to: at(10))
        var state = AgentState(book: book, localeIdentifier: "C")
        let effects = AlarmDecider.decide(&state, .started(in: .utc), now: at(20))
        #expect(Self.players(effects).map { $0?.title } == ["Wake up"])
    }
}
