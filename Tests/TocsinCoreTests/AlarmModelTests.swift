import Foundation
import Testing
import TocsinCore

// Alarm.swift, AlarmState.swift, AlarmIntent.swift, AlarmEvent.swift, AlarmError.swift.
@Suite("Alarm model, events, intents and errors")
struct AlarmModelTests {
    @Test("Which events remove the alarm, and which hook each runs", arguments: [
        (AlarmEvent.Kind.scheduled, false, nil as HookEvent?),
        (.paused, false, nil), (.resumed, false, nil), (.fired, false, .fire), (.snoozed, false, .snooze),
        (.stopped, true, .stop), (.cancelled, true, .cancel), (.secondary, true, .secondary), (.unacknowledged, true, nil),
    ])
    func eventKinds(kind: AlarmEvent.Kind, removes: Bool, hook: HookEvent?) {
        #expect(kind.removesAlarm == removes)
        #expect(kind.hookEvent == hook)
    }

    @Test("Every event kind is in the table above")
    func eventKindsComplete() {
        #expect(AlarmEvent.Kind.allCases.count == 9)
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
        #expect(AlarmError.notFound(id: "abc").description == "No alarm or timer has the id “abc”.")
        #expect(AlarmError.limitReached(limit: 3).description == "The agent already holds 3 alarms and timers, its maximum; cancel some first.")
        #expect(AlarmError.invalidArgument(AlarmInputError("Bad.")).description == "Bad.")
        #expect(AlarmError.invalidState(intent: .pause, title: "Tea", state: .alerting, requirement: "only a timer that is counting down can be paused").description
                == "Cannot pause “Tea”: it is ringing (alerting); only a timer that is counting down can be paused.")
        #expect(AlarmInputError("Bad.").description == "Bad.")
    }

    @Test("Alarms encode to JSON and back with Codable (the store's format)", arguments: Fixture.varied)
    func codable(alarm: Alarm) throws {
        let data = try JSONEncoder().encode(alarm)
        #expect(try JSONDecoder().decode(Alarm.self, from: data) == alarm)
    }
}
