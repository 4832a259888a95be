import Foundation
import Testing
@testable import TocsinCore
import TocsinTestSupport

// AlarmDecider.swift and EffectPlan.swift: decisions that reach several stages at once come out
// stage after stage, each effect in its place, and the timers are armed once, from the state
// the decision left.
@Suite("Alarm decider: the order of the stages")
struct AlarmDeciderOrderTests {
    static func summary(_ effects: [AgentEffect]) -> [String] { AlarmDeciderTests.summary(effects) }

    static func deadlines(_ effects: [AgentEffect]) -> [Date?] {
        effects.compactMap { if case .armDeadline(let date) = $0 { date } else { nil } }
    }

    /// The default output muted at 3 %, as the sound server reports it.
    static let muted = AgentInput.soundOutputChanged(AlarmDeciderOutputTests.report(["speakers": AlarmDeciderOutputTests.levels(3, muted: true)]))
    /// The default output at 70 %, as the server reports it once raised.
    static let raised = AgentInput.soundOutputChanged(AlarmDeciderOutputTests.report(["speakers": AlarmDeciderOutputTests.levels(70)]))

    @Test("A ring that starts while a countdown ticks, the lock screen changes and a panel shows the tray: sound, output, player, display, signal, notifications, follow-ups, lock screen, save, timers, tray")
    func ringWhileACountdownTicks() throws {
        var run = try DeciderRun(AlarmRequest(title: "Tea", duration: 60, hooks: AlarmHooks([.fire: "echo ring"])),
                                 AlarmRequest(title: "Eggs", duration: 120))
        _ = run.feed(Self.muted, at: 1)
        _ = run.feed(.panelChanged(isShown: true), at: 1)
        let effects = run.feed(.timePassed, at: 60)
        #expect(Self.summary(effects) == ["ring", "save output", "set output", "player", "hold display", "wake display",
                                          "signal fired", "show alert", "tick", "check alert", "hook fire",
                                          "lock screen", "save 1", "arm", "wake", "tray"], "\(effects)")
        // Armed once, for the earliest of Eggs' next second and the display's next wake.
        #expect(Self.deadlines(effects) == [at(61)])
        #expect(run.state.screen.nextDisplayWake == at(60 + AgentState.displayWakeInterval))
    }

    @Test("A Stop that ends the last sound: saved first, answered, then silence, the output put back, the player gone, the display let go, the signal, the notification, the follow-ups, the lock screen, and the deadline armed anew for what comes next")
    func stopOfTheLastSound() throws {
        var run = try DeciderRun(AlarmRequest(title: "Tea", duration: 60, sound: .file("/state/sounds/a.wav"), hooks: AlarmHooks([.stop: "echo stop"])),
                                 AlarmRequest(kind: .alarm, schedule: .fixed(at(3600)), title: "Wake up", duration: 0))
        _ = run.feed(Self.muted, at: 1)
        let rang = run.feed(.timePassed, at: 60)
        #expect(Self.deadlines(rang) == [at(60 + AgentState.displayWakeInterval)], "while it rings, the display's wake comes first")
        _ = run.feed(Self.raised, at: 61)
        let asked = run.feed(.asked(.perform(.stop, on: run.id(1)), by: .press), at: 65)
        #expect(Self.summary(asked) == ["arm", "wake", "commit 1"], "time's timers, then the commit: \(asked)")
        let saved = run.feed(.changeSaved, at: 65)
        #expect(Self.summary(saved) == ["answer made", "silence", "set output", "forget output", "player gone", "release display",
                                        "signal stopped", "withdraw", "discard sound", "hook stop", "lock screen", "arm", "wake"], "\(saved)")
        #expect(Self.deadlines(saved) == [at(3600)], "armed once, for the next alarm, the display's wakes over")
        #expect(run.state.screen.nextDisplayWake == nil)
    }

    @Test("A snooze saved: the sound stops and the output is put back before the signal; the countdown shown; the timers armed once, for its next second")
    func snoozeSaved() throws {
        var run = try DeciderRun(AlarmRequest(title: "Tea", duration: 60, snoozeDuration: 300))
        _ = run.feed(Self.muted, at: 1)
        _ = run.feed(.timePassed, at: 60)
        _ = run.feed(Self.raised, at: 61)
        let asked = run.feed(.asked(.perform(.countdown, on: run.id(1)), by: .press), at: 61.5)
        #expect(Self.summary(asked) == ["arm", "wake", "commit 1"], "\(asked)")
        let saved = run.feed(.changeSaved, at: 61.5)
        #expect(Self.summary(saved) == ["answer made", "silence", "set output", "forget output", "player gone", "release display",
                                        "signal snoozed", "show countdown", "lock screen", "arm", "wake"], "\(saved)")
        #expect(Self.deadlines(saved) == [at(62)])
        #expect(saved.last == .armWake(nil), "a snooze is a timer: it does not wake a suspended machine")
    }

    @Test("Stop all, two ringing: both sounds stop before any signal; the output, the player and the display follow once; then each stage for both")
    func stopEverythingThatRings() throws {
        var run = try DeciderRun(AlarmRequest(title: "Tea", duration: 60), AlarmRequest(title: "Eggs", duration: 60), AlarmRequest(title: "Soup", duration: 600))
        _ = run.feed(Self.muted, at: 1)
        _ = run.feed(.timePassed, at: 60)
        _ = run.feed(Self.raised, at: 60.5)
        let saved = run.ask(.stopEveryRinging, at: 61.5)
        #expect(Self.summary(saved) == ["tick", "arm", "wake", "commit 2",
                                        "answer made", "silence", "silence", "set output", "forget output", "player gone", "release display",
                                        "signal stopped", "signal stopped", "withdraw", "withdraw", "discard sound", "discard sound",
                                        "lock screen", "arm", "wake"], "\(saved)")
        #expect(Self.deadlines(saved).last == at(62), "Soup's next second")
    }

    @Test("A ring that comes due as a change is asked: time's decision whole — its player, display and lock screen included — then the commit; the save brings only the change")
    func ringAsAChangeIsAsked() throws {
        var run = try DeciderRun(AlarmRequest(title: "Eggs", duration: 90), AlarmRequest(title: "Soup", duration: 600))
        let asked = run.feed(.asked(.perform(.pause, on: run.id(2)), by: .press), at: 90)
        #expect(Self.summary(asked) == ["ring", "player", "hold display", "wake display", "signal fired", "show alert", "tick", "check alert",
                                        "lock screen", "save 1", "arm", "wake", "commit 1"], "\(asked)")
        #expect(Self.deadlines(asked) == [at(91)], "armed for the book as time left it, before the pause")
        let saved = run.feed(.changeSaved, at: 90)
        #expect(Self.summary(saved) == ["answer made", "signal paused", "show paused", "lock screen", "arm", "wake"], "\(saved)")
        #expect(Self.deadlines(saved) == [at(90 + AgentState.displayWakeInterval)], "Soup paused: Eggs' display wake is next")
    }

    @Test("A change refused as a ring comes due: time's decision whole, its lock screen included, then the answer")
    func refusalAsARingComesDue() throws {
        var run = try DeciderRun(AlarmRequest(title: "Eggs", duration: 90), AlarmRequest(title: "Soup", duration: 600))
        let asked = run.feed(.asked(.perform(.stop, on: run.id(2)), by: .press), at: 90)
        #expect(Self.summary(asked) == ["ring", "player", "hold display", "wake display", "signal fired", "show alert", "tick", "check alert",
                                        "lock screen", "save 1", "arm", "wake", "answer refused"], "\(asked)")
        #expect(Self.deadlines(asked) == [at(91)])
    }
}
