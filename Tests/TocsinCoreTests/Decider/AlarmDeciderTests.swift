import Foundation
import Testing
@testable import TocsinCore
import HeadlessSession
import TocsinFiles
import TocsinTestSupport

// AlarmDecider.swift and AgentState+*.swift: what each input does, in what order.
@Suite("Alarm decider")
struct AlarmDeciderTests {
    /// The index of the first effect matching `predicate`.
    static func index(in effects: [AgentEffect], _ predicate: (AgentEffect) -> Bool) -> Int? {
        effects.firstIndex(where: predicate)
    }

    static func isRing(_ effect: AgentEffect) -> Bool { if case .ring = effect { true } else { false } }
    static func isSilence(_ effect: AgentEffect) -> Bool { if case .silence = effect { true } else { false } }
    static func isSignal(_ effect: AgentEffect) -> Bool { if case .signal = effect { true } else { false } }
    static func isShow(_ effect: AgentEffect) -> Bool { if case .show = effect { true } else { false } }
    static func isWithdraw(_ effect: AgentEffect) -> Bool { if case .withdraw = effect { true } else { false } }
    static func isHook(_ effect: AgentEffect) -> Bool { if case .runHook = effect { true } else { false } }
    static func isSave(_ effect: AgentEffect) -> Bool { if case .save = effect { true } else { false } }
    static func isArm(_ effect: AgentEffect) -> Bool { if case .armDeadline = effect { true } else { false } }
    static func isAnswer(_ effect: AgentEffect) -> Bool { if case .answer = effect { true } else { false } }

    /// What `effects` do, in a word or two each (logs left out): what the table below compares.
    static func summary(_ effects: [AgentEffect]) -> [String] {
        effects.compactMap { effect in
            switch effect {
            case .log: nil
            case .ring: "ring"
            case .silence: "silence"
            case .saveOutputRecord(let record): record == nil ? "forget output" : "save output"
            case .setOutput: "set output"
            case .setStream: "set stream"
            case .signal(let event): "signal \(event.kind.rawValue)"
            case .show(_, let content, let isTick): isTick ? "tick" : "show \(content.role)"
            case .withdraw: "withdraw"
            case .announce: "announce"
            case .runHook(_, let event, _, _): "hook \(event.rawValue)"
            case .performAppIntent: "app intent"
            case .ringPhones: "ring phones"
            case .checkAlertVisibility: "check alert"
            case .discardSoundCopy: "discard sound"
            case .save(let changes): "save \(changes.count)"
            case .saveAll: "save all"
            case .commit(let changes): "commit \(changes.count)"
            case .answer(.made): "answer made"
            case .answer(.refused): "answer refused"
            case .answer(.notSaved): "answer not saved"
            case .showTray(let content): content == nil ? "tray hidden" : "tray"
            case .showPlayer(let content): content == nil ? "player gone" : "player"
            case .showLockScreen: "lock screen"
            case .wakeDisplay: "wake display"
            case .holdDisplayAwake(let awake): awake ? "hold display" : "release display"
            case .armDeadline: "arm"
            case .armWake: "wake"
            }
        }
    }

    /// A step of a table row: an input at a time, or a change asked for then saved.
    enum Step {
        case input(AgentInput, at: TimeInterval)
        case ask(AlarmChange, at: TimeInterval)
    }

    /// Input sequences and what the last step does. The timer is "Tea", 60 s with a 5-minute
    /// snooze and a fire hook, `fixedID(1)`.
    static let table: [(name: String, steps: [Step], last: [String])] = [
        ("the timer comes due: the display woken and held lit, the lock screen told",
         [.input(.timePassed, at: 60)],
         ["ring", "player", "hold display", "wake display", "signal fired", "show alert", "check alert", "hook fire", "lock screen", "save 1", "arm", "wake"]),
        ("ringing: the display woken again every 10 s",
         [.input(.timePassed, at: 60), .input(.timePassed, at: 70)],
         ["wake display", "arm", "wake"]),
        ("Stop while ringing: silence, signal, gone, saved before its effects",
         [.input(.timePassed, at: 60), .ask(.perform(.stop, on: fixedID(1)), at: 61)],
         ["arm", "wake", "commit 1", "answer made", "silence", "player gone", "release display", "signal stopped", "withdraw", "discard sound", "lock screen", "arm", "wake"]),
        ("Snooze while ringing: silent, counting down again",
         [.input(.timePassed, at: 60), .ask(.perform(.countdown, on: fixedID(1)), at: 61)],
         ["arm", "wake", "commit 1", "answer made", "silence", "player gone", "release display", "signal snoozed", "show countdown", "lock screen", "arm", "wake"]),
        ("the snooze comes due: rings again",
         [.input(.timePassed, at: 60), .ask(.perform(.countdown, on: fixedID(1)), at: 61), .input(.timePassed, at: 361)],
         ["ring", "player", "hold display", "wake display", "signal fired", "show alert", "check alert", "hook fire", "lock screen", "save 1", "arm", "wake"]),
        ("pause, then the countdown's second passes: nothing to update",
         [.ask(.perform(.pause, on: fixedID(1)), at: 10), .input(.timePassed, at: 11)],
         ["arm", "wake"]),
        ("Stop on a countdown is refused, and nothing changes",
         [.ask(.perform(.stop, on: fixedID(1)), at: 10)],
         ["tick", "arm", "wake", "answer refused"]),
        ("an unknown id is refused",
         [.ask(.perform(.pause, on: fixedID(9)), at: 10)],
         ["tick", "arm", "wake", "answer refused"]),
        ("a ring nobody answers ends unacknowledged, announced",
         [.input(.timePassed, at: 60), .input(.timePassed, at: 60 + AlarmRequest.defaultRingLimit)],
         ["silence", "player gone", "release display", "signal unacknowledged", "withdraw", "discard sound", "announce", "lock screen", "save 1", "arm", "wake"]),
        ("the clock set forward moves the timer, shows it again (so its second needs no tick), saves all",
         [.input(.clockSet(by: 30), at: 40)],
         ["show countdown", "lock screen", "save all", "arm", "wake"]),
        ("the ringing alert closed by the user is shown again",
         [.input(.timePassed, at: 60), .input(.notificationClosed(fixedID(1)), at: 62)],
         ["show alert", "arm", "wake"]),
        ("the countdown closed by the user: no more ticks, only its deadline",
         [.input(.notificationClosed(fixedID(1)), at: 5), .input(.timePassed, at: 6)],
         ["arm", "wake"]),
        ("a lost notification is shown again",
         [.input(.notificationLost(fixedID(1), .bannerHandedOver), at: 5)],
         ["show countdown"]),
        ("a new server shows everything again",
         [.input(.notificationServerChanged, at: 5)],
         ["show countdown"]),
        ("a panel comes: the ticks go on, and the tray shows the timer",
         [.input(.panelChanged(isShown: true), at: 5)],
         ["arm", "wake", "tray"]),
        ("phones on: rung after 25 s unanswered",
         [.input(.phoneSettingsChanged(PhoneRingSettings(isEnabled: true, delay: 25)), at: 1), .input(.timePassed, at: 60), .input(.timePassed, at: 85)],
         ["ring phones", "wake display", "arm", "wake"]),
        ("cancel: silent removal, its sound copy with it",
         [.ask(.perform(.cancel, on: fixedID(1)), at: 10)],
         ["tick", "arm", "wake", "commit 1", "answer made", "silence", "signal cancelled", "withdraw", "discard sound", "lock screen", "arm", "wake"]),
        ("lock-screen titles hidden while it rings: the player renamed, every notification shown again",
         [.input(.timePassed, at: 60), .input(.lockScreenSettingsChanged(LockScreenSettings(showsTitles: false)), at: 61)],
         ["player", "show alert", "lock screen"]),
        ("stop everything that rings, from the tray",
         [.input(.timePassed, at: 60), .ask(.stopEveryRinging, at: 61)],
         ["arm", "wake", "commit 1", "answer made", "silence", "player gone", "release display", "signal stopped", "withdraw", "discard sound", "lock screen", "arm", "wake"]),
    ]

    @Test("A table of input sequences: what the last input does", arguments: table.indices)
    func inputSequences(_ row: Int) throws {
        let (name, steps, expected) = Self.table[row]
        var run = try DeciderRun(AlarmRequest(title: "Tea", duration: 60, snoozeDuration: 300, hooks: AlarmHooks([.fire: "echo ring"])))
        var last: [AgentEffect] = []
        for step in steps {
            switch step {
            case .input(let input, let seconds): last = run.feed(input, at: seconds)
            case .ask(let change, let seconds): last = run.ask(change, at: seconds)
            }
        }
        #expect(Self.summary(last) == expected, "\(name): \(last)")
    }

    @Test("A timer that comes due: sound first, then the signal, the alert, the do-not-disturb check, the hook, the save, the timers")
    func firingOrder() throws {
        var run = try DeciderRun(AlarmRequest(title: "Tea", duration: 60, snoozeDuration: 300, hooks: AlarmHooks([.fire: "echo ring"])))
        let effects = run.feed(.timePassed, at: 60)
        let ring = try #require(Self.index(in: effects, Self.isRing))
        let signal = try #require(Self.index(in: effects, Self.isSignal))
        let show = try #require(Self.index(in: effects, Self.isShow))
        let check = try #require(Self.index(in: effects) { if case .checkAlertVisibility = $0 { true } else { false } })
        let hook = try #require(Self.index(in: effects, Self.isHook))
        let save = try #require(Self.index(in: effects, Self.isSave))
        let arm = try #require(Self.index(in: effects, Self.isArm))
        #expect([ring, signal, show, check, hook, save, arm] == [ring, signal, show, check, hook, save, arm].sorted(), "\(effects)")
        let tea = try #require(run.book[run.id(1)])
        #expect(effects[ring] == .ring(tea.id, AlarmRing(sound: .standard, volume: nil, crescendo: nil, since: at(60))))
        guard case .show(_, let alert, isTick: false) = effects[show] else { Issue.record("\(effects[show])"); return }
        #expect(alert.urgency == .critical)
        #expect(alert.actions.map(\.label) == ["Stop", "Snooze"])
        #expect(effects[hook] == .runHook(command: "echo ring", event: .fire, alarm: tea, fireTime: at(60)))
        #expect(effects[save] == .save([.put(tea)]))
        // Ringing: the display's next wake is the next deadline (before the ring limit), and
        // nothing counts down.
        #expect(effects.last == .armWake(nil))
        #expect(effects[arm] == .armDeadline(at(60 + AgentState.displayWakeInterval)))
        #expect(run.state.screen.nextCountdownTick == nil)
    }

    @Test("Stopped: saved before anything else, answered, then the sound stops before the signal, the notification goes, and a sound copy with it")
    func stopOrder() throws {
        var run = try DeciderRun(AlarmRequest(title: "Tea", duration: 60, sound: .file("/state/sounds/a.wav"), hooks: AlarmHooks([.stop: "echo stop"])))
        _ = run.feed(.timePassed, at: 60)
        let asked = run.feed(.asked(.perform(.stop, on: run.id(1)), by: .press), at: 61)
        #expect(asked.last == .commit([.remove(run.id(1))]), "the commit is the last thing asked: nothing takes effect before it is saved")
        #expect(!asked.contains(where: Self.isSilence))
        let effects = run.feed(.changeSaved, at: 61)
        #expect(effects.first == .answer(.made))
        let silence = try #require(Self.index(in: effects, Self.isSilence))
        let signal = try #require(Self.index(in: effects, Self.isSignal))
        let withdraw = try #require(Self.index(in: effects, Self.isWithdraw))
        let hook = try #require(Self.index(in: effects, Self.isHook))
        #expect(silence < signal && signal < withdraw && withdraw < hook, "\(effects)")
        #expect(effects.contains(.discardSoundCopy(.file("/state/sounds/a.wav"))))
        #expect(!effects.contains(where: Self.isSave), "a client's change is saved before it is made")
        #expect(run.book[run.id(1)] == nil)
    }

    @Test("A change that cannot be saved is undone: the alarm rings on, and the asker is told why")
    func unsavedChange() throws {
        var run = try DeciderRun(AlarmRequest(title: "Tea", duration: 60))
        _ = run.feed(.timePassed, at: 60)
        let ringing = run.book
        _ = run.feed(.asked(.perform(.stop, on: run.id(1)), by: .client("tocsin")), at: 61)
        #expect(run.book[run.id(1)] == nil, "made at once, in the book")
        let effects = run.feed(.changeNotSaved(reason: "The disk is full."), at: 61)
        #expect(effects == [.answer(.notSaved(reason: "The disk is full."))], "no silence, no signal: it did not happen")
        #expect(run.book == ringing)
        // A save reported with no change waiting is said, and changes nothing.
        #expect(Self.summary(run.feed(.changeSaved, at: 62)).isEmpty)
        #expect(run.book == ringing)
    }

    @Test("A change whose save is never reported is undone before the next input")
    func abandonedChange() throws {
        var run = try DeciderRun(AlarmRequest(title: "Tea", duration: 60))
        let before = run.book
        _ = run.feed(.asked(.perform(.pause, on: run.id(1)), by: .press), at: 5)
        let effects = run.feed(.timePassed, at: 6)
        #expect(effects.contains(.answer(.notSaved(reason: "The agent did not report whether the change was saved."))))
        #expect(run.book == before)
    }

    @Test("A new alarm that the book refuses is answered at once, and nothing is asked to be saved")
    func refusedSchedule() throws {
        var run = try DeciderRun()
        let effects = run.feed(.asked(.schedule(AlarmRequest(duration: -5), id: fixedID(5), owner: nil, confinement: .unconfined, ownerLimit: nil), by: .press), at: 1)
        guard case .answer(.refused(.invalidArgument)) = effects.last else { Issue.record("\(effects)"); return }
        #expect(!effects.contains(where: DeciderRun.isCommit))
        #expect(run.book.count == 0)
    }

    @Test("Countdowns are updated on whole seconds, only when the seconds shown change, and only while on screen")
    func ticks() throws {
        var run = try DeciderRun(AlarmRequest(title: "A", duration: 60), AlarmRequest(title: "B", duration: 120))
        #expect(run.state.screen.nextCountdownTick == at(1), "the next whole second")
        #expect(run.feed(.timePassed, at: 0.5).filter(Self.isShow).isEmpty, "before the tick")
        let effects = run.feed(.timePassed, at: 1)
        #expect(effects.filter(Self.isShow).count == 2)
        #expect(effects.filter(Self.isShow).allSatisfy { if case .show(_, _, isTick: true) = $0 { true } else { false } })
        // The same second again (a deadline wake-up within it) sends nothing.
        #expect(run.feed(.timePassed, at: 1.2).filter(Self.isShow).isEmpty)
        // Closed by the user: left alone until its next change; with none on screen, no ticks.
        _ = run.feed(.notificationClosed(run.id(1)), at: 1.3)
        let closed = run.feed(.notificationClosed(run.id(2)), at: 1.3)
        #expect(closed.first(where: Self.isArm) == .armDeadline(at(60)))
        #expect(run.state.screen.nextCountdownTick == nil)
        #expect(run.feed(.timePassed, at: 2).filter(Self.isShow).isEmpty)
        // A change (paused) shows it again.
        #expect(run.perform(.pause, on: run.id(2), at: 3).contains(where: Self.isShow))
    }

    @Test("A ringing alarm's notification, closed, is shown again; a paused one's stays closed")
    func dismissals() throws {
        var run = try DeciderRun(AlarmRequest(title: "Tea", duration: 60), AlarmRequest(title: "Eggs", duration: 120))
        _ = run.feed(.timePassed, at: 60)
        #expect(run.feed(.notificationClosed(run.id(1)), at: 61).contains(where: Self.isShow))
        _ = run.perform(.stop, on: run.id(1), at: 62)
        _ = run.perform(.pause, on: run.id(2), at: 62)
        #expect(run.feed(.notificationClosed(run.id(2)), at: 63).filter(Self.isShow).isEmpty)
    }

    @Test("A missed alarm is logged and announced; a hook of unknown origin is not run but said")
    func missedAndRefusedHooks() throws {
        var alarm = Fixture.alarm(title: "Wake up", hooks: AlarmHooks([.missed: "echo missed"]), state: .scheduled(fireDate: at(60)))
        alarm.appID = "org.example.Old"
        var state = AgentState(book: AlarmBook(alarms: [alarm]), localeIdentifier: "C")
        // The agent was away for an hour: far beyond the late limit.
        let effects = AlarmDecider.decide(&state, .started(in: .utc), now: at(3600))
        #expect(effects.contains { if case .announce(let notice) = $0 { notice.summary.hasPrefix("Missed: Wake up") } else { false } })
        #expect(effects.contains { if case .log(.warning, let line) = $0 { line.contains("was missed") } else { false } })
        #expect(!effects.contains(where: Self.isHook))
        #expect(effects.contains { if case .log(.warning, let line) = $0 { line.contains("Not running the missed hook of “Wake up”") } else { false } })
        #expect(state.book.count == 0)
    }

    @Test("A restart shows every alarm and rings what was ringing, from when it first rang")
    func restart() throws {
        var run = try DeciderRun(AlarmRequest(title: "A", duration: 60), AlarmRequest(title: "B", duration: 120), AlarmRequest(title: "C", duration: 30))
        _ = run.feed(.timePassed, at: 61)  // A and C ring, since 61
        var restarted = AgentState(book: run.book, localeIdentifier: "C")
        let effects = AlarmDecider.decide(&restarted, .started(in: .utc), now: at(70))
        #expect(effects.filter(Self.isShow).count == 3)
        let a = try #require(run.book[run.id(1)]), c = try #require(run.book[run.id(3)])
        // Rung again from when it first rang, so a crescendo goes on where it was.
        #expect(effects.filter(Self.isRing) == [.ring(a.id, AlarmRing(of: a, now: at(70))), .ring(c.id, AlarmRing(of: c, now: at(70)))])
        #expect(AlarmRing(of: a, now: at(70)).since == at(61))
        #expect(!effects.contains(where: Self.isSignal), "nothing happened while away")
    }

    @Test("The time zone moves a local alarm, shows the countdowns' end times in the new zone, and saves the zone")
    func timeZoneMove() throws {
        let tokyo = Fixture.zone("Asia/Tokyo")
        let seven = AlarmSchedule.timeOfDay(try TimeOfDay(hour: 7), weekdays: [])
        var run = try DeciderRun(AlarmRequest(kind: .alarm, schedule: seven, title: "Wake", duration: 0), AlarmRequest(title: "Tea", duration: 600))
        let before = try #require(run.book[run.id(1)]?.fireDate)
        let effects = run.feed(.timeZoneChanged(tokyo), at: 10)
        #expect(run.book[run.id(1)]?.fireDate != before)
        #expect(effects.contains { if case .signal(let event) = $0 { event.kind == .rescheduled } else { false } })
        #expect(effects.contains { if case .save(let changes) = $0 { changes.first == .zone("Asia/Tokyo") } else { false } })
        #expect(run.state.contentWriter.timeZone == tokyo)
        #expect(effects.contains { if case .show(let id, _, isTick: false) = $0 { id == run.id(2) } else { false } })
    }

    @Test("The tray follows every change while a panel shows it, and nothing is worked out for it otherwise")
    func tray() throws {
        var run = try DeciderRun(AlarmRequest(title: "Tea", duration: 60))
        #expect(!run.feed(.timePassed, at: 1).contains { if case .showTray = $0 { true } else { false } })
        _ = run.feed(.panelChanged(isShown: true), at: 1.5)
        let paused = run.perform(.pause, on: run.id(1), at: 2)
        guard case .showTray(let content?)? = paused.last(where: { if case .showTray = $0 { true } else { false } }) else {
            Issue.record("\(paused)"); return
        }
        #expect(content.label == "Tea 0:58 paused")
        let cancelled = run.perform(.cancel, on: run.id(1), at: 3)
        #expect(cancelled.contains(.showTray(nil)), "nothing runs: the item goes")
    }

    @Test("Random books: every fired alarm rings before its signal, every removal silences before its signal, saves and timers come last")
    func orderHoldsForRandomEvents() throws {
        var generator = SplitMix(seed: 7)
        for _ in 0..<100 {
            var requests: [AlarmRequest] = []
            for index in 0..<Int.random(in: 1...8, using: &generator) {
                requests.append(AlarmRequest(title: "T\(index)", duration: Double(Int.random(in: 1...20, using: &generator)),
                                             snoozeDuration: Bool.random(using: &generator) ? 5 : nil, ringLimit: Double(Int.random(in: 1...30, using: &generator))))
            }
            var run = try DeciderRun()
            for (index, request) in requests.enumerated() {
                _ = run.ask(.schedule(request, id: fixedID(index + 1), owner: nil, confinement: .unconfined, ownerLimit: nil), at: 0)
            }
            var seconds: TimeInterval = 0
            for _ in 0..<20 {
                seconds += Double(Int.random(in: 1...10, using: &generator))
                var effects = run.feed(.timePassed, at: seconds)
                if let ringing = run.book.alarms.first(where: { $0.state.name == .alerting }), Bool.random(using: &generator) {
                    effects = run.perform(Bool.random(using: &generator) ? .stop : .countdown, on: ringing.id, at: seconds)
                }
                for case .signal(let event) in effects {
                    let signal = try #require(effects.firstIndex(of: .signal(event)))
                    switch event.kind {
                    case .fired:
                        #expect(effects[..<signal].contains(.ring(event.alarm.id, AlarmRing(of: event.alarm, now: at(seconds)))))
                    case .stopped, .snoozed, .unacknowledged:
                        #expect(effects[..<signal].contains(.silence(event.alarm.id)))
                    default: break
                    }
                }
                if let save = effects.firstIndex(where: Self.isSave) {
                    #expect(effects[(save + 1)...].allSatisfy { if case .armDeadline = $0 { true } else if case .armWake = $0 { true } else { false } })
                }
                // A refusal (Snooze without a snooze duration) is answered after the time's timers.
                let timed = effects.filter { !Self.isAnswer($0) }
                #expect(timed.suffix(2).map { if case .armDeadline = $0 { 0 } else if case .armWake = $0 { 1 } else { -1 } } == [0, 1])
            }
        }
    }
}
