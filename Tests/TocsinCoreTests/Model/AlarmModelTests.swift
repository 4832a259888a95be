import Foundation
import Testing
@testable import TocsinCore
import TocsinTestSupport

// Alarm.swift, AlarmState.swift, AlarmIntent.swift, AlarmEvent.swift, AlarmError.swift.
@Suite("Alarm model, events, intents and errors")
struct AlarmModelTests {
    @Test("Which hook each event runs", arguments: [
        (AlarmEvent.Kind.scheduled, nil as HookEvent?), (.preAlert, nil), (.rescheduled, nil),
        (.paused, nil), (.resumed, nil), (.fired, .fire), (.snoozed, .snooze),
        (.stopped, .stop), (.cancelled, .cancel), (.secondary, .secondary), (.unacknowledged, nil), (.missed, .missed),
    ])
    func eventKinds(kind: AlarmEvent.Kind, hook: HookEvent?) {
        #expect(kind.hookEvent == hook)
    }

    @Test("Every event kind is in the table above")
    func eventKindsComplete() {
        #expect(AlarmEvent.Kind.allCases.count == 12)
    }

    @Test("Event kind, hook event and alarm kind names, as logged and sent over D-Bus")
    func rawNames() {
        #expect(AlarmEvent.Kind.allCases.map(\.rawValue) == [
            "scheduled", "pre-alert", "rescheduled", "paused", "resumed", "fired", "snoozed",
            "stopped", "cancelled", "secondary", "unacknowledged", "missed",
        ])
        #expect(HookEvent.allCases.map(\.rawValue) == ["fire", "stop", "snooze", "secondary", "cancel", "missed", "phone"])
        #expect(AlarmKind.allCases.map(\.rawValue) == ["timer", "alarm"])
    }

    @Test("Whether an event removes its alarm is said per event, not per kind; only fired and missed carry a due date")
    func eventFlags() {
        let alarm = Fixture.alarm()
        let lasting = AlarmEvent(.stopped, alarm)
        #expect(!lasting.removesAlarm)
        #expect(lasting.dueDate == nil)
        let removing = AlarmEvent(.stopped, alarm, removesAlarm: true)
        #expect(removing.removesAlarm)
        #expect(removing != lasting)
        #expect(AlarmEvent(.missed, alarm, removesAlarm: true, dueDate: at(60)).dueDate == at(60))
    }

    @Test("A new alarm's late limit defaults to AlarmRequest.defaultLateLimit, 10 minutes")
    func lateLimitDefault() {
        let alarm = Alarm(id: fixedID(1), title: "x", kind: .timer, countdownDuration: 1, snoozeDuration: nil, secondaryButton: nil,
                          sound: .standard, ringLimit: 1, hooks: AlarmHooks(), state: Fixture.state(.countdown), createdAt: t0)
        #expect(alarm.lateLimit == 600)
        #expect(AlarmRequest.defaultLateLimit == 600)
        #expect(alarm.schedule == nil)
        #expect(CountdownPhase(fireDate: t0, duration: 1).followsWallClock == false)
    }

    @Test("Intent verbs and state phrases for messages")
    func verbsAndPhrases() {
        #expect(AlarmIntent.allCases.map(\.verb) == ["pause", "resume", "cancel", "stop", "snooze", "press the second button of"])
        #expect(AlarmStateName.allCases.map(\.phrase) == ["scheduled", "counting down", "paused", "ringing"])
    }

    @Test("State names", arguments: AlarmStateName.allCases)
    func stateNames(name: AlarmStateName) {
        #expect(Fixture.state(name).name == name)
    }

    @Test("Hooks: subscript, isEmpty")
    func hooks() {
        var hooks = AlarmHooks()
        #expect(hooks.isEmpty)
        hooks[.fire] = "echo fire"
        #expect(hooks[.fire] == "echo fire")
        #expect(hooks[.stop] == nil)
        #expect(!hooks.isEmpty)
        hooks[.fire] = nil
        #expect(hooks.isEmpty)
        #expect(AlarmHooks([.stop: "x"]).commands == [.stop: "x"])
    }

    @Test("Error descriptions")
    func errorDescriptions() {
        #expect(AlarmError.notFound(id: UUID(uuidString: "3F2B8C1E-0000-4000-8000-00000000ABCD")!).description == "No alarm or timer has the id “3f2b8c1e-0000-4000-8000-00000000abcd”.")
        #expect(AlarmError.limitReached(limit: 3).description == "The agent already holds 3 alarms and timers, its maximum; cancel some first.")
        #expect(AlarmError.invalidArgument(AlarmInputError("Bad.")).description == "Bad.")
        #expect(AlarmError.invalidState(intent: .pause, title: "Tea", state: .alerting, requirement: "only a countdown can be paused").description
                == "Cannot pause “Tea”: it is ringing (alerting); only a countdown can be paused.")
        #expect(AlarmInputError("Bad.").description == "Bad.")
    }

    @Test("Alarms encode to JSON and back with Codable (the store's format)", arguments: Fixture.varied)
    func codable(alarm: Alarm) throws {
        let data = try JSONEncoder().encode(alarm)
        #expect(try JSONDecoder().decode(Alarm.self, from: data) == alarm)
    }
}
