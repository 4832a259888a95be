import Foundation
import Testing
@testable import TocsinCore
import HeadlessSession

// AgentPlanner.swift: what the agent does about each event, tick and dismissal, in what order.
@Suite("Agent planner")
struct AgentPlannerTests {
    static func planner() -> AgentPlanner {
        AgentPlanner(contentWriter: NotificationContentWriter(timeZone: .utc, localeIdentifier: "C"))
    }

    /// A book holding `requests` scheduled at `t0`, with their ids.
    static func book(_ requests: AlarmRequest...) throws -> (AlarmBook, [UUID]) {
        var book = AlarmBook()
        var ids: [UUID] = []
        for (index, request) in requests.enumerated() {
            ids.append(try book.schedule(request, id: fixedID(index + 1), now: t0).alarm.id)
        }
        return (book, ids)
    }

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

    @Test("A timer that comes due: sound first, then the signal, the alert, the do-not-disturb check, the hook, the save, the timers")
    func firingOrder() throws {
        var (book, ids) = try Self.book(AlarmRequest(title: "Tea", duration: 60, snoozeDuration: 300, hooks: AlarmHooks([.fire: "echo ring"])))
        var planner = Self.planner()
        _ = planner.arm(book, now: t0)
        let events = book.advance(to: at(60))
        let effects = planner.timePassed(events, book: book, now: at(60))
        let ring = try #require(Self.index(in: effects, Self.isRing))
        let signal = try #require(Self.index(in: effects, Self.isSignal))
        let show = try #require(Self.index(in: effects, Self.isShow))
        let check = try #require(Self.index(in: effects) { if case .checkAlertVisibility = $0 { true } else { false } })
        let hook = try #require(Self.index(in: effects, Self.isHook))
        let save = try #require(Self.index(in: effects, Self.isSave))
        let arm = try #require(Self.index(in: effects, Self.isArm))
        #expect([ring, signal, show, check, hook, save, arm] == [ring, signal, show, check, hook, save, arm].sorted(), "\(effects)")
        #expect(effects[ring] == .ring(ids[0], AlarmRing(sound: .standard, volume: nil, crescendo: nil, since: at(60))))
        guard case .show(_, let alert, isTick: false) = effects[show] else { Issue.record("\(effects[show])"); return }
        #expect(alert.urgency == .critical)
        #expect(alert.actions.map(\.label) == ["Stop", "Snooze"])
        #expect(effects[hook] == .runHook(command: "echo ring", event: .fire, alarm: book[ids[0]]!, fireTime: at(60)))
        #expect(effects[save] == .save([.put(book[ids[0]]!)]))
        // Ringing: its ring limit is the next deadline, and nothing counts down.
        #expect(effects.last == .armWake(nil))
        #expect(effects[arm] == .armDeadline(at(660)))
        #expect(planner.nextCountdownTick == nil)
    }

    @Test("Stopped: the sound stops before the signal, the notification goes, and a sound copy with it")
    func stopOrder() throws {
        var (book, ids) = try Self.book(AlarmRequest(title: "Tea", duration: 60, sound: .file("/state/sounds/a.wav"), hooks: AlarmHooks([.stop: "echo stop"])))
        var planner = Self.planner()
        _ = planner.timePassed(book.advance(to: at(60)), book: book, now: at(60))
        let stopped = try book.perform(.stop, on: ids[0], now: at(61))
        let effects = planner.react(to: [stopped], now: at(61))
        let silence = try #require(Self.index(in: effects, Self.isSilence))
        let signal = try #require(Self.index(in: effects, Self.isSignal))
        let withdraw = try #require(Self.index(in: effects, Self.isWithdraw))
        let hook = try #require(Self.index(in: effects, Self.isHook))
        #expect(silence < signal && signal < withdraw && withdraw < hook, "\(effects)")
        #expect(effects.contains(.discardSoundCopy(.file("/state/sounds/a.wav"))))
        #expect(!effects.contains(where: Self.isSave), "a client's change is saved before it is made")
    }

    @Test("Countdowns are updated on whole seconds, only when the seconds shown change, and only while on screen")
    func ticks() throws {
        let (book, ids) = try Self.book(AlarmRequest(title: "A", duration: 60), AlarmRequest(title: "B", duration: 120))
        var planner = Self.planner()
        _ = planner.react(to: book.alarms.map { AlarmEvent(.scheduled, $0) }, now: t0)
        var effects = planner.arm(book, now: t0)
        #expect(effects.first == .armDeadline(at(1)), "the next whole second")
        #expect(planner.tick(book, now: at(0.5)).isEmpty, "before the tick")
        effects = planner.tick(book, now: at(1))
        #expect(effects.count == 2)
        #expect(effects.allSatisfy { if case .show(_, _, isTick: true) = $0 { true } else { false } })
        // The same second again (a deadline wake-up within it) sends nothing.
        _ = planner.arm(book, now: at(1))
        #expect(planner.tick(book, now: at(1.2)).isEmpty)
        // Closed by the user: left alone until its next change; with none on screen, no ticks.
        _ = planner.dismissed(book[ids[0]]!, now: at(1.3))
        _ = planner.dismissed(book[ids[1]]!, now: at(1.3))
        #expect(planner.arm(book, now: at(1.3)).first == .armDeadline(at(60)))
        #expect(planner.nextCountdownTick == nil)
        #expect(planner.tick(book, now: at(2)).isEmpty)
        // A change (paused) shows it again.
        var changed = book
        let paused = try changed.perform(.pause, on: ids[1], now: at(3))
        #expect(planner.react(to: [paused], now: at(3)).contains(where: Self.isShow))
    }

    @Test("A ringing alarm's notification, closed, is shown again; a paused one's stays closed")
    func dismissals() throws {
        var (book, ids) = try Self.book(AlarmRequest(title: "Tea", duration: 60), AlarmRequest(title: "Eggs", duration: 120))
        var planner = Self.planner()
        _ = book.advance(to: at(60))
        let ringing = try #require(book[ids[0]])
        #expect(planner.dismissed(ringing, now: at(61)).contains(where: Self.isShow))
        _ = try book.perform(.stop, on: ids[0], now: at(62))
        let paused = try book.perform(.pause, on: ids[1], now: at(62)).alarm
        #expect(planner.dismissed(paused, now: at(63)).isEmpty)
    }

    @Test("A missed alarm is logged and announced; a hook of unknown origin is not run but said")
    func missedAndRefusedHooks() throws {
        var alarm = Fixture.alarm(title: "Wake up", hooks: AlarmHooks([.missed: "echo missed"]), state: .scheduled(fireDate: at(60)))
        alarm.appID = "org.example.Old"
        var planner = Self.planner()
        let effects = planner.react(to: [AlarmEvent(.missed, alarm, removesAlarm: true, dueDate: at(60))], now: at(3600))
        #expect(effects.contains { if case .announce(let notice) = $0 { notice.summary.hasPrefix("Missed: Wake up") } else { false } })
        #expect(effects.contains { if case .log(.warning, let line) = $0 { line.contains("was missed") } else { false } })
        #expect(!effects.contains(where: Self.isHook))
        #expect(effects.contains { if case .log(.warning, let line) = $0 { line.contains("Not running the missed hook of “Wake up”") } else { false } })
    }

    @Test("A restart shows every alarm and rings what was ringing, leaving alone what its events show")
    func resume() throws {
        var (book, ids) = try Self.book(AlarmRequest(title: "A", duration: 60), AlarmRequest(title: "B", duration: 120), AlarmRequest(title: "C", duration: 30))
        _ = book.advance(to: at(61))  // A and C ring
        var planner = Self.planner()
        let effects = planner.resume(book.alarms, except: [ids[2]], now: at(70))
        #expect(effects.filter(Self.isShow).count == 2)
        // A rings again from when it first rang, so a crescendo goes on where it was.
        #expect(effects.filter(Self.isRing) == [.ring(ids[0], AlarmRing(of: book[ids[0]]!, now: at(70)))])
        #expect(AlarmRing(of: book[ids[0]]!, now: at(70)).since < at(70))
    }

    @Test("Random books: every fired alarm rings before its signal, every removal silences before its signal, saves and timers come last")
    func orderHoldsForRandomEvents() throws {
        var generator = SplitMix(seed: 7)
        for _ in 0..<100 {
            var book = AlarmBook()
            var planner = Self.planner()
            for index in 0..<Int.random(in: 1...8, using: &generator) {
                let request = AlarmRequest(title: "T\(index)", duration: Double(Int.random(in: 1...20, using: &generator)),
                                           snoozeDuration: Bool.random(using: &generator) ? 5 : nil, ringLimit: Double(Int.random(in: 1...30, using: &generator)))
                _ = try book.schedule(request, id: fixedID(index + 1), now: t0)
            }
            var now = t0
            for _ in 0..<20 {
                now = now.addingTimeInterval(Double(Int.random(in: 1...10, using: &generator)))
                var events = book.advance(to: now)
                if let ringing = book.alarms.first(where: { $0.state.name == .alerting }), Bool.random(using: &generator),
                   let answered = try? book.perform(Bool.random(using: &generator) ? .stop : .countdown, on: ringing.id, now: now) {
                    events.append(answered)
                }
                let effects = planner.timePassed(events, book: book, now: now)
                for event in events {
                    let signal = try #require(effects.firstIndex(of: .signal(event)))
                    switch event.kind {
                    case .fired:
                        #expect(effects[..<signal].contains(.ring(event.alarm.id, AlarmRing(of: event.alarm, now: now))))
                    case .stopped, .snoozed, .unacknowledged:
                        #expect(effects[..<signal].contains(.silence(event.alarm.id)))
                    default: break
                    }
                }
                if let save = effects.firstIndex(where: Self.isSave) {
                    #expect(effects[(save + 1)...].allSatisfy { if case .armDeadline = $0 { true } else if case .armWake = $0 { true } else { false } })
                }
                #expect(effects.suffix(2).map { if case .armDeadline = $0 { 0 } else if case .armWake = $0 { 1 } else { -1 } } == [0, 1])
            }
        }
    }
}
