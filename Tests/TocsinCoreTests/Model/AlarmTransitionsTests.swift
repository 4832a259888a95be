import Foundation
import Testing
@testable import TocsinCore
import TocsinTestSupport

@Suite("Alarm.applying: the state machine")
struct AlarmTransitionsTests {
    /// The only (intent, state) pairs the state machine allows, and the event each produces
    /// (for a snoozable alarm: 300 s snooze behind a "Snooze" button).
    static let allowed: [AlarmIntent: [AlarmStateName: AlarmEvent.Kind]] = [
        .pause: [.countdown: .paused],
        .resume: [.paused: .resumed],
        .cancel: [.scheduled: .cancelled, .countdown: .cancelled, .paused: .cancelled, .alerting: .cancelled],
        .stop: [.alerting: .stopped],
        .countdown: [.alerting: .snoozed],
        .secondary: [.alerting: .snoozed],
    ]

    @Test("Full intent × state matrix: allowed pairs give their event, every other pair is refused naming the state",
          arguments: AlarmIntent.allCases, AlarmStateName.allCases)
    func matrix(intent: AlarmIntent, stateName: AlarmStateName) throws {
        let alarm = Fixture.snoozable(in: stateName)
        #expect(alarm.state.name == stateName)
        if let expectedKind = Self.allowed[intent]?[stateName] {
            let event = try alarm.applying(intent, at: at(70))
            #expect(event.kind == expectedKind)
            #expect(event.alarm.id == alarm.id)
        } else {
            let error = try #require(throws: AlarmError.self) { try alarm.applying(intent, at: at(70)) }
            guard case .invalidState(let refusedIntent, let title, let state, let requirement) = error else {
                Issue.record("expected invalidState, got \(error)")
                return
            }
            #expect(refusedIntent == intent)
            #expect(title == "Pasta")
            #expect(state == stateName)
            #expect(!requirement.isEmpty)
            let message = error.description
            #expect(message.contains("(\(stateName.rawValue))"), "message must name the state: \(message)")
            #expect(message.contains("it is \(stateName.phrase)"), "message must say the state: \(message)")
            #expect(message.contains("“Pasta”"))
            #expect(message.hasPrefix("Cannot \(intent.verb) "))
        }
    }

    @Test("The matrix refuses exactly 15 of the 24 pairs (cancel is never refused)")
    func refusedCount() {
        var refused = 0
        for intent in AlarmIntent.allCases {
            for name in AlarmStateName.allCases where (try? Fixture.snoozable(in: name).applying(intent, at: at(70))) == nil {
                refused += 1
                #expect(intent != .cancel)
            }
        }
        #expect(refused == 15)
    }

    @Test("Pause and resume are refused with their requirement, whatever the kind", arguments: [
        (AlarmIntent.pause, AlarmStateName.paused, "only a countdown can be paused"),
        (.pause, .alerting, "only a countdown can be paused"),
        (.pause, .scheduled, "only a countdown can be paused"),
        (.resume, .countdown, "only a paused countdown can be resumed"),
        (.resume, .alerting, "only a paused countdown can be resumed"),
        (.resume, .scheduled, "only a paused countdown can be resumed"),
    ])
    func pauseResumeRequirements(intent: AlarmIntent, stateName: AlarmStateName, requirement: String) throws {
        let alarm = Fixture.snoozable(in: stateName)
        let error = try #require(throws: AlarmError.self) { try alarm.applying(intent, at: at(70)) }
        #expect(error == .invalidState(intent: intent, title: "Pasta", state: stateName, requirement: requirement))
    }

    // MARK: pause / resume

    @Test("Pause keeps the time left; resume continues from there (pause at t+10, resume at t+100 → fires at t+150)")
    func pauseAndResume() throws {
        let alarm = Fixture.alarm() // 60 s, fires at t+60
        let paused = try alarm.applying(.pause, at: at(10))
        #expect(paused.kind == .paused)
        #expect(paused.alarm.state == .paused(PausedPhase(remaining: 50, duration: 60)))
        #expect(paused.alarm.nextDeadline == nil)
        #expect(paused.alarm.advanced(to: at(10_000)) == nil, "a paused timer never fires")

        let resumed = try paused.alarm.applying(.resume, at: at(100))
        #expect(resumed.kind == .resumed)
        #expect(resumed.alarm.state == .countdown(CountdownPhase(fireDate: at(150), duration: 60)))
        #expect(resumed.alarm.nextDeadline == at(150))
        #expect(resumed.alarm.advanced(to: at(149.999)) == nil)
        #expect(resumed.alarm.advanced(to: at(150))?.kind == .fired)
    }

    @Test("Pause and resume several times accumulates the elapsed time")
    func pauseResumeTwice() throws {
        var alarm = Fixture.alarm() // 60 s
        alarm = try alarm.applying(.pause, at: at(10)).alarm   // 50 left
        alarm = try alarm.applying(.resume, at: at(20)).alarm  // fires at 70
        alarm = try alarm.applying(.pause, at: at(45)).alarm   // 25 left
        #expect(alarm.state == .paused(PausedPhase(remaining: 25, duration: 60)))
        alarm = try alarm.applying(.resume, at: at(1000)).alarm
        #expect(alarm.state == .countdown(CountdownPhase(fireDate: at(1025), duration: 60)))
    }

    @Test("Pausing after the fire date (before time was advanced) keeps zero, never a negative time")
    func pauseOverdue() throws {
        let event = try Fixture.alarm().applying(.pause, at: at(75))
        #expect(event.alarm.state == .paused(PausedPhase(remaining: 0, duration: 60)))
    }

    @Test("Pausing a snoozed countdown keeps the snooze's duration as the phase length")
    func pauseAfterSnooze() throws {
        let snoozed = try Fixture.snoozable(in: .alerting).applying(.countdown, at: at(70)).alarm
        let paused = try snoozed.applying(.pause, at: at(100))
        #expect(paused.alarm.state == .paused(PausedPhase(remaining: 270, duration: 300)))
    }

    // MARK: cancel / stop

    @Test("Cancel is allowed in every state, removes the alarm and carries it unchanged",
          arguments: AlarmStateName.allCases)
    func cancelFromAnyState(stateName: AlarmStateName) throws {
        let alarm = Fixture.snoozable(in: stateName)
        let event = try alarm.applying(.cancel, at: at(70))
        #expect(event == AlarmEvent(.cancelled, alarm, removesAlarm: true))
        #expect(event.removesAlarm)
        #expect(event.dueDate == nil)
        #expect(event.kind.hookEvent == .cancel)
    }

    @Test("Stop ends a ringing timer or one-shot alarm: removed, carrying the alarm as it rang", arguments: [
        Fixture.alarm(state: .alerting(since: at(60))),
        Fixture.alarm(kind: .alarm, schedule: .fixed(at(60)), state: .alerting(since: at(60))),
        Fixture.alarm(schedule: .localDateTime(Fixture.date(2027, 1, 15), Fixture.time(8, 1)), state: .alerting(since: at(60))),
    ])
    func stop(alarm: Alarm) throws {
        let event = try alarm.applying(.stop, at: at(65))
        #expect(event == AlarmEvent(.stopped, alarm, removesAlarm: true))
        #expect(event.removesAlarm)
        #expect(event.kind.hookEvent == .stop)
    }

    @Test("Stop is refused outside alerting and points to cancel", arguments: [AlarmStateName.scheduled, .countdown, .paused])
    func stopRefusal(stateName: AlarmStateName) throws {
        let error = try #require(throws: AlarmError.self) { try Fixture.snoozable(in: stateName).applying(.stop, at: at(1)) }
        #expect(error.description.contains("use cancel"))
    }

    // MARK: snooze (countdown intent)

    @Test("Snooze counts down the snooze duration from the moment it is pressed, then rings again")
    func snooze() throws {
        let ringing = Fixture.snoozable(in: .alerting) // ringing since t+60, snooze 300
        let event = try ringing.applying(.countdown, at: at(70))
        #expect(event.kind == .snoozed)
        #expect(!event.removesAlarm)
        #expect(event.kind.hookEvent == .snooze)
        #expect(event.alarm.state == .countdown(CountdownPhase(fireDate: at(370), duration: 300)))
        #expect(event.alarm.countdownDuration == 60, "the timer's own duration is unchanged")
        #expect(event.alarm.advanced(to: at(369)) == nil)
        let again = try #require(event.alarm.advanced(to: at(370)))
        #expect(again.kind == .fired)
        #expect(again.alarm.state == .alerting(since: at(370)))
        #expect(again.dueDate == at(370))
    }

    @Test("Each snooze is counted, and the count goes when the ring ends: a repeating alarm's next occurrence rings afresh")
    func snoozesCounted() throws {
        let ringing = Fixture.snoozable(in: .alerting) // ringing since t+60, snooze 300
        #expect(ringing.snoozes == nil)
        let once = try ringing.applying(.countdown, at: at(70)).alarm
        #expect(once.snoozes == 1)
        let ringsAgain = try #require(once.advanced(to: at(370))).alarm
        #expect(ringsAgain.snoozes == 1, "the re-ring knows it follows a snooze")
        let twice = try ringsAgain.applying(.secondary, at: at(380)).alarm
        #expect(twice.snoozes == 2)
        #expect(try twice.applying(.pause, at: at(400)).alarm.snoozes == 2)

        var daily = Fixture.alarm(schedule: .timeOfDay(Fixture.time(8), weekdays: Weekday.everyDay), snooze: 300,
                                  button: Fixture.snoozeButton, state: .alerting(since: at(0)))
        daily.snoozes = 3
        let stopped = try daily.applying(.stop, at: at(10))
        #expect(!stopped.removesAlarm)
        #expect(stopped.alarm.snoozes == nil)
    }

    @Test("Snooze without a snooze duration is refused even while ringing; the message names the state")
    func snoozeWithoutDuration() throws {
        let alarm = Fixture.alarm(button: Fixture.customButton, state: .alerting(since: at(60)))
        let error = try #require(throws: AlarmError.self) { try alarm.applying(.countdown, at: at(70)) }
        #expect(error == .invalidState(intent: .countdown, title: "Pasta", state: .alerting,
                                       requirement: "it was set without a snooze duration, so it can only be stopped"))
        #expect(error.description == "Cannot snooze “Pasta”: it is ringing (alerting); it was set without a snooze duration, so it can only be stopped.")
    }

    @Test("The snooze intent works with a snooze duration even when the alarm has no button")
    func snoozeWithoutButton() throws {
        let alarm = Fixture.alarm(snooze: 120, state: .alerting(since: at(60)))
        let event = try alarm.applying(.countdown, at: at(60))
        #expect(event.alarm.state == .countdown(CountdownPhase(fireDate: at(180), duration: 120)))
    }

    // MARK: secondary

    @Test("Secondary with snooze behaviour snoozes (same as the snooze intent)")
    func secondarySnoozes() throws {
        let ringing = Fixture.alarm(snooze: 300, button: SecondaryButton(label: "Repeat", behavior: .countdown),
                                    state: .alerting(since: at(60)))
        let viaSecondary = try ringing.applying(.secondary, at: at(80))
        let viaSnooze = try ringing.applying(.countdown, at: at(80))
        #expect(viaSecondary.kind == .snoozed)
        #expect(viaSecondary == viaSnooze)
        #expect(viaSecondary.alarm.state == .countdown(CountdownPhase(fireDate: at(380), duration: 300)))
    }

    @Test("Secondary with custom behaviour ends the alarm with a `secondary` event")
    func secondaryCustom() throws {
        let ringing = Fixture.alarm(button: Fixture.customButton, hooks: AlarmHooks([.secondary: "make next"]),
                                    state: .alerting(since: at(60)))
        let event = try ringing.applying(.secondary, at: at(80))
        #expect(event == AlarmEvent(.secondary, ringing, removesAlarm: true))
        #expect(event.removesAlarm)
        #expect(event.kind.hookEvent == .secondary)
    }

    @Test("Secondary without a button is refused while ringing, naming the state")
    func secondaryNone() throws {
        let ringing = Fixture.alarm(state: .alerting(since: at(60)))
        let error = try #require(throws: AlarmError.self) { try ringing.applying(.secondary, at: at(80)) }
        #expect(error == .invalidState(intent: .secondary, title: "Pasta", state: .alerting,
                                       requirement: "it was set without a second button"))
        #expect(error.description.contains("it is ringing (alerting)"))
    }

    @Test("Secondary with snooze behaviour but no snooze duration is refused")
    func secondarySnoozeWithoutDuration() throws {
        let ringing = Fixture.alarm(button: Fixture.snoozeButton, state: .alerting(since: at(60)))
        let error = try #require(throws: AlarmError.self) { try ringing.applying(.secondary, at: at(80)) }
        #expect(error == .invalidState(intent: .secondary, title: "Pasta", state: .alerting, requirement: "it has no snooze duration"))
    }

    // MARK: time alone: advanced(to:) and nextDeadline

    @Test("A countdown fires at its fire date, not before; noticed late (within the late limit) it rings from when it is noticed, and the event says when it was due")
    func countdownFires() throws {
        let alarm = Fixture.alarm()
        #expect(alarm.advanced(to: at(59.999)) == nil)
        let onTime = try #require(alarm.advanced(to: at(60)))
        #expect(onTime.kind == .fired)
        #expect(onTime.kind.hookEvent == .fire)
        #expect(!onTime.removesAlarm)
        #expect(onTime.alarm.state == .alerting(since: at(60)))
        #expect(onTime.dueDate == at(60))
        let late = try #require(alarm.advanced(to: at(500)))
        #expect(late.kind == .fired)
        #expect(late.alarm.state == .alerting(since: at(500)), "the ring limit counts from when ringing began")
        #expect(late.dueDate == at(60))
        #expect(late.alarm.nextDeadline == at(1100))
    }

    @Test("A scheduled alarm without pre-alert fires at its date")
    func scheduledFires() throws {
        let alarm = Fixture.alarm(state: .scheduled(fireDate: at(30)))
        #expect(alarm.kind == .alarm)
        #expect(alarm.countdownDuration == 0)
        #expect(alarm.advanced(to: at(29)) == nil)
        var ringing = alarm
        ringing.state = .alerting(since: at(30))
        ringing.lastOccurrence = at(30)
        #expect(alarm.advanced(to: at(30)) == AlarmEvent(.fired, ringing, dueDate: at(30)))
    }

    @Test("The clock set back after a daily alarm rang: stopped, unanswered or snoozed and stopped, it waits for tomorrow, not for the same 07:00")
    func clockSetBackAfterTheRing() throws {
        let daily = AlarmSchedule.timeOfDay(try TimeOfDay(hour: 7), weekdays: Set(Weekday.allCases))
        let seven = ScheduleCalculator.nextOccurrence(of: daily, after: t0, in: .utc)!
        var book = AlarmBook()
        let id = try book.schedule(AlarmRequest(kind: .alarm, schedule: daily, title: "Wake", duration: 0, snoozeDuration: 300, ringLimit: 60), id: fixedID(1), now: t0).alarm.id
        #expect(book.advance(to: seven).map(\.kind) == [.fired])
        // Rang at 07:00; the clock is then set back 20 minutes, to 06:40 (and the ring's elapsed time with it).
        book.shiftElapsedTimeCountdowns(by: -1200)
        var stopped = book
        let stop = try stopped.perform(.stop, on: id, now: seven.addingTimeInterval(-1190))
        #expect(stop.alarm.fireDate == seven.addingTimeInterval(86_400), "Stop at 06:40 waits for tomorrow's 07:00")
        var unanswered = book
        #expect(unanswered.advance(to: seven.addingTimeInterval(-1100)).map(\.kind) == [.unacknowledged])
        #expect(unanswered[id]?.fireDate == seven.addingTimeInterval(86_400), "unanswered, it waits for tomorrow too")
        var snoozed = book
        _ = try snoozed.perform(.countdown, on: id, now: seven.addingTimeInterval(-1190))
        #expect(snoozed.advance(to: seven.addingTimeInterval(-890)).map(\.kind) == [.fired], "the snooze rings")
        let afterSnooze = try snoozed.perform(.stop, on: id, now: seven.addingTimeInterval(-880))
        #expect(afterSnooze.alarm.fireDate == seven.addingTimeInterval(86_400), "stopped after its snooze, still tomorrow")
    }

    @Test("A scheduled alarm with a pre-alert starts counting down (following the wall clock) at fireDate − pre-alert, then fires")
    func scheduledPreAlert() throws {
        let alarm = Fixture.alarm(duration: 20, state: .scheduled(fireDate: at(30)))
        #expect(alarm.nextDeadline == at(10))
        #expect(alarm.advanced(to: at(9.999)) == nil)
        let preAlert = try #require(alarm.advanced(to: at(10)))
        #expect(preAlert.kind == .preAlert)
        #expect(preAlert.kind.hookEvent == nil)
        #expect(!preAlert.removesAlarm)
        #expect(preAlert.dueDate == nil)
        #expect(preAlert.alarm.state == .countdown(CountdownPhase(fireDate: at(30), duration: 20, followsWallClock: true)))
        #expect(preAlert.alarm.nextDeadline == at(30))
        #expect(preAlert.alarm.advanced(to: at(29.999)) == nil)
        let fired = try #require(preAlert.alarm.advanced(to: at(30)))
        #expect(fired.kind == .fired)
        #expect(fired.alarm.state == .alerting(since: at(30)))
        // Noticed only after the fire date, it goes straight to ringing: no pre-alert first.
        #expect(alarm.advanced(to: at(31))?.kind == .fired)
    }

    @Test("A due alarm later than its late limit is missed: no ring, removed if one-shot; exactly at the limit it still rings")
    func lateLimit() throws {
        let alarm = Fixture.alarm(lateLimit: 120) // a 60 s timer due at t+60
        let atLimit = try #require(alarm.advanced(to: at(180)))
        #expect(atLimit.kind == .fired)
        #expect(atLimit.alarm.state == .alerting(since: at(180)))
        let beyond = try #require(alarm.advanced(to: at(180.001)))
        #expect(beyond == AlarmEvent(.missed, alarm, removesAlarm: true, dueDate: at(60)))
        #expect(beyond.kind.hookEvent == .missed)
    }

    @Test("Pausing a pre-alert and resuming it makes it an elapsed-time countdown")
    func resumedPreAlert() throws {
        let alarm = Fixture.alarm(duration: 20, state: .countdown(CountdownPhase(fireDate: at(30), duration: 20, followsWallClock: true)))
        let paused = try alarm.applying(.pause, at: at(15))
        #expect(paused.alarm.state == .paused(PausedPhase(remaining: 15, duration: 20)))
        let resumed = try paused.alarm.applying(.resume, at: at(100))
        #expect(resumed.alarm.state == .countdown(CountdownPhase(fireDate: at(115), duration: 20, followsWallClock: false)))
    }

    @Test("A ringing alarm ends unacknowledged when its ring limit runs out, not before")
    func ringLimit() throws {
        let alarm = Fixture.alarm(ringLimit: 120, state: .alerting(since: at(60)))
        #expect(alarm.advanced(to: at(179.999)) == nil)
        let event = try #require(alarm.advanced(to: at(180)))
        #expect(event == AlarmEvent(.unacknowledged, alarm, removesAlarm: true))
        #expect(event.removesAlarm)
        #expect(event.kind.hookEvent == nil)
    }

    @Test("nextDeadline in each state (the scheduled one is an alarm without pre-alert)", arguments: [
        (AlarmState.scheduled(fireDate: at(30)), at(30) as Date?),
        (.countdown(CountdownPhase(fireDate: at(60), duration: 60)), at(60)),
        (.paused(PausedPhase(remaining: 50, duration: 60)), nil),
        (.alerting(since: at(60)), at(660)),
    ])
    func nextDeadline(state: AlarmState, expected: Date?) {
        let alarm = Fixture.alarm(ringLimit: 600, state: state)
        #expect(alarm.nextDeadline == expected)
        if let expected {
            #expect(alarm.advanced(to: expected) != nil, "advanced(to: nextDeadline) must produce an event")
            #expect(alarm.advanced(to: expected.addingTimeInterval(-0.001)) == nil)
        }
    }
}
