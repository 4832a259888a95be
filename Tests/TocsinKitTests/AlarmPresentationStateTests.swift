import Foundation
import Testing
import TocsinCore
@testable import TocsinKit

// AlarmPresentationState.swift: what a live activity draws, from the agent's state of an alarm.
@Suite("Presentation states")
struct AlarmPresentationStateTests {
    let id = UUID()
    let fire = Date(timeIntervalSince1970: 1_800_000_000)
    var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }

    @Test("Counting down: the whole length, and a start date that gives the progress")
    func countdown() throws {
        let state = try #require(AlarmPresentationState(alarmID: id, state: .countdown(.init(fireDate: fire, duration: 300)), calendar: utc))
        #expect(state.alarmID == id)
        #expect(state.mode == .countdown(.init(totalCountdownDuration: 300, previouslyElapsedDuration: 0,
                                               startDate: fire.addingTimeInterval(-300), fireDate: fire)))
        guard case .countdown(let countdown) = state.mode else { return }
        let oneMinuteIn = fire.addingTimeInterval(-240)
        #expect((countdown.previouslyElapsedDuration + oneMinuteIn.timeIntervalSince(countdown.startDate)) / countdown.totalCountdownDuration == 0.2)
    }

    @Test("Paused: how much had elapsed; ringing: the time of day it rang; waiting: none")
    func pausedAlertScheduled() throws {
        #expect(AlarmPresentationState(alarmID: id, state: .paused(.init(remaining: 90, duration: 300)), calendar: utc)?.mode
            == .paused(.init(totalCountdownDuration: 300, previouslyElapsedDuration: 210)))
        #expect(AlarmPresentationState(alarmID: id, state: .alerting(since: fire), calendar: utc)?.mode
            == .alert(.init(time: .init(hour: 8, minute: 0))), "1 800 000 000 is 08:00 UTC")
        #expect(AlarmPresentationState(alarmID: id, state: .scheduled(fireDate: fire), calendar: utc) == nil)
    }
}
