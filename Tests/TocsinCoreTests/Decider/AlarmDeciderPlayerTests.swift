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

    @Test("A change waiting for its save leaves the player as it is; a ring that time brings as the change is asked shows at once, right after its sound, before the commit")
    func pendingChange() throws {
        var run = try Self.twoTimers()
        _ = run.feed(.timePassed, at: 60)
        // Stop asked, not yet saved: the book has Tea gone, but it still rings.
        #expect(Self.players(run.feed(.asked(.perform(.stop, on: run.id(1)), by: .press), at: 61)).isEmpty)
        #expect(Self.players(run.feed(.changeNotSaved(reason: "The disk is full."), at: 61)).isEmpty, "undone: Tea still rings and shows")
        #expect(run.state.screen.player?.title == "Tea")
        _ = run.perform(.stop, on: run.id(1), at: 62)
        #expect(run.state.screen.player == nil)

        // Eggs comes due as a pause of nothing in particular is asked: time's part of the
        // decision is followed before the change is made, so its player comes right after its
        // sound, as for any ring, and the report of the save has nothing to catch up.
        var second = try DeciderRun(AlarmRequest(title: "Eggs", duration: 90), AlarmRequest(title: "Soup", duration: 600))
        let asked = second.feed(.asked(.perform(.pause, on: second.id(2)), by: .press), at: 90)
        let ring = try #require(asked.firstIndex { if case .ring = $0 { true } else { false } })
        let eggs = try #require(second.state.screen.player)
        #expect(Self.players(asked) == [eggs] && eggs.title == "Eggs" && asked[ring + 1] == .showPlayer(eggs), "\(asked)")
        #expect(asked.last.map(DeciderRun.isCommit) == true, "the commit after time's effects: \(asked)")
        let saved = second.feed(.changeSaved, at: 90)
        #expect(Self.players(saved).isEmpty && saved.first == .answer(.made), "\(saved)")
        #expect(second.state.screen.player == eggs)
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

    @Test("While Plasma's screen is locked the player stays between rings, waiting with the next alarm: through a snooze, after a Stop while another counts down; it goes with the lock screen")
    func waitsOnPlasmasLockScreen() throws {
        var run = try DeciderRun(AlarmRequest(title: "Nap", duration: 60, snoozeDuration: 300), AlarmRequest(title: "Eggs", duration: 900))
        _ = run.feed(.timePassed, at: 10)
        let locked = run.feed(.lockScreenKeepingPlayerChanged(isUp: true), at: 20)
        let nap = try #require(Self.players(locked).first ?? nil)
        #expect(Self.players(locked).count == 1 && !nap.isRinging && nap.title == "Nap" && nap.artist.hasPrefix("Rings at "), "\(locked)")
        #expect(Self.players(run.feed(.lockScreenKeepingPlayerChanged(isUp: true), at: 21)).isEmpty, "told twice: nothing new")

        // It rings: the player plays, right after the sound, as without the lock screen.
        let fired = run.feed(.timePassed, at: 60)
        let ring = try #require(fired.firstIndex { if case .ring = $0 { true } else { false } })
        #expect(Self.players(fired).count == 1 && fired[ring + 1] == .showPlayer(RingingPlayerContent(alarms: run.book.alarms)))
        // Snoozed: the player stays, waiting for the snooze's end (t+362), not gone.
        let snoozed = run.perform(.secondary, on: run.id(1), by: .press, at: 62)
        let waiting = try #require(Self.players(snoozed).first ?? nil)
        #expect(Self.players(snoozed).count == 1 && !waiting.isRinging && waiting.title == "Nap", "\(snoozed)")
        #expect(waiting.artist == "Rings at \(run.state.contentWriter.timeOfDay(at(362)))")
        #expect(Self.players(run.feed(.timePassed, at: 362)).first??.isRinging == true, "the snoozed alarm rings again with its player")
        // Stopped: Eggs counts down still, and the player waits with it.
        let stopped = run.perform(.stop, on: run.id(1), by: .press, at: 363)
        #expect(Self.players(stopped).map { $0?.title } == ["Eggs"] && run.state.screen.player?.isRinging == false)
        // Cancelled too: nothing will ring, no player; a new timer set while locked brings it back.
        #expect(Self.players(run.perform(.cancel, on: run.id(2), by: .press, at: 364)) == [nil])
        let tea = run.ask(.schedule(AlarmRequest(title: "Tea", duration: 30), id: fixedID(9), owner: nil, confinement: .unconfined, ownerLimit: nil), at: 365)
        #expect(Self.players(tea).map { $0?.title } == ["Tea"] && run.state.screen.player?.isRinging == false)
        // Unlocked: the player goes.
        #expect(Self.players(run.feed(.lockScreenKeepingPlayerChanged(isUp: false), at: 366)) == [nil])
    }

    @Test("An alarm days away waits on Plasma's lock screen with its day; once less than a day away, with its time alone")
    func waitsWithTheDayOfAnAlarmDaysAway() throws {
        let ring: TimeInterval = 2 * 86_400 + 7 * 3600
        var run = try DeciderRun(AlarmRequest(kind: .alarm, schedule: .fixed(at(ring)), title: "Wake up", duration: 0))
        let writer = run.state.contentWriter
        let locked = try #require(Self.players(run.feed(.lockScreenKeepingPlayerChanged(isUp: true), at: 20)).first ?? nil)
        #expect(locked.artist == "Rings \(writer.dayOfMonth(at(ring))) at \(writer.timeOfDay(at(ring)))", "\(locked)")
        #expect(locked.artist == "Rings Sun 17 Jan at 15:00", "t0 is Fri 15 Jan 2027 08:00 UTC")
        // The next decision less than a day before the ring says its time alone.
        let nearer = try #require(Self.players(run.feed(.timePassed, at: ring - 3600)).first ?? nil)
        #expect(nearer.artist == "Rings at 15:00" && !nearer.isRinging && nearer.title == "Wake up", "\(nearer)")
    }

    @Test("Not locked (or another desktop's lock screen): a snooze takes the player off the bus, as it always did")
    func goesWithoutPlasmasLockScreen() throws {
        var run = try DeciderRun(AlarmRequest(title: "Nap", duration: 60, snoozeDuration: 300), AlarmRequest(title: "Eggs", duration: 900))
        _ = run.feed(.timePassed, at: 60)
        #expect(Self.players(run.perform(.secondary, on: run.id(1), by: .press, at: 62)) == [nil])
        #expect(run.state.screen.player == nil)
    }
}
