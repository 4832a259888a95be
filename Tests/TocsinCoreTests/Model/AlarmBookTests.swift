import Foundation
import Testing
@testable import TocsinCore
import HeadlessSession
import TocsinFiles
import TocsinTestSupport

@Suite("AlarmBook")
struct AlarmBookTests {
    // MARK: schedule

    @Test("schedule validates the request, stores the alarm and reports `scheduled`")
    func schedule() throws {
        var book = AlarmBook()
        let event = try book.schedule(AlarmRequest(title: "Tea", duration: 180), id: fixedID(7), now: t0)
        #expect(event.kind == .scheduled)
        #expect(event.alarm.id == fixedID(7))
        #expect(event.alarm.title == "Tea")
        #expect(event.alarm.createdAt == t0)
        #expect(event.alarm.state == .countdown(CountdownPhase(fireDate: at(180), duration: 180)))
        #expect(book.count == 1)
        #expect(book[fixedID(7)] == event.alarm)
        #expect(book.alarms == [event.alarm])
        #expect(book.nextDeadline == at(180))
    }

    @Test("schedule refuses an invalid request with invalidArgument and adds nothing")
    func scheduleInvalid() throws {
        var book = AlarmBook()
        let error = try #require(throws: AlarmError.self) {
            try book.schedule(AlarmRequest(duration: 0), id: fixedID(1), now: t0)
        }
        guard case .invalidArgument(let inputError) = error else {
            Issue.record("expected invalidArgument, got \(error)")
            return
        }
        #expect(inputError.message.contains("timer duration"))
        #expect(error.description == inputError.message)
        #expect(book.count == 0)
        #expect(book[fixedID(1)] == nil)
    }

    @Test("Without an explicit id, each scheduled alarm gets a new one")
    func generatedIDs() throws {
        var book = AlarmBook()
        let first = try book.schedule(AlarmRequest(duration: 60), now: t0)
        let second = try book.schedule(AlarmRequest(duration: 60), now: t0)
        #expect(first.alarm.id != second.alarm.id)
        #expect(book.count == 2)
    }

    // A caller-chosen id that is already in use used to replace the alarm holding it silently: the
    // first "Tea" timer vanished without a `cancelled` event. Now the second schedule is refused.
    @Test("Scheduling with an id already in use is refused and leaves the existing alarm")
    func duplicateID() throws {
        var book = AlarmBook()
        let first = try book.schedule(AlarmRequest(title: "Tea", duration: 60), id: fixedID(1), now: t0)
        let before = book
        let error = try #require(throws: AlarmError.self) {
            try book.schedule(AlarmRequest(title: "Eggs", duration: 420), id: fixedID(1), now: at(1))
        }
        #expect(error == .invalidArgument(AlarmInputError("An alarm with the id 00000000-0000-0000-0000-000000000001 already exists.")))
        #expect(book[fixedID(1)] == first.alarm)
        #expect(book.count == 1)
        #expect(book == before)
        #expect(book.nextDeadline == at(60))
    }

    @Test("The duplicate-id message names the id in lowercase, and applies in any state")
    func duplicateIDWhileRinging() throws {
        let id = try #require(UUID(uuidString: "ABCDEF01-2345-6789-ABCD-EF0123456789"))
        var book = AlarmBook(alarms: [Fixture.alarm(id: id, state: .alerting(since: at(60)))])
        let before = book
        let error = try #require(throws: AlarmError.self) { try book.schedule(AlarmRequest(duration: 5), id: id, now: at(70)) }
        #expect(error.description == "An alarm with the id abcdef01-2345-6789-abcd-ef0123456789 already exists.")
        #expect(book == before)
        // Once the alarm is gone, its id may be used again.
        _ = try book.perform(.stop, on: id, now: at(71))
        #expect(try book.schedule(AlarmRequest(duration: 5), id: id, now: at(72)).alarm.id == id)
    }

    // MARK: capacity

    @Test("Capacity: scheduling beyond it fails with limitReached; a cancel frees a place")
    func capacity() throws {
        var book = AlarmBook(capacity: 2)
        #expect(book.capacity == 2)
        _ = try book.schedule(AlarmRequest(duration: 60), id: fixedID(1), now: t0)
        _ = try book.schedule(AlarmRequest(duration: 60), id: fixedID(2), now: t0)
        let before = book
        let error = try #require(throws: AlarmError.self) {
            try book.schedule(AlarmRequest(duration: 60), id: fixedID(3), now: t0)
        }
        #expect(error == .limitReached(limit: 2))
        #expect(error.description.contains("2 alarms"))
        #expect(book == before)
        #expect(book[fixedID(3)] == nil)

        _ = try book.perform(.cancel, on: fixedID(1), now: at(1))
        _ = try book.schedule(AlarmRequest(duration: 60), id: fixedID(3), now: at(2))
        #expect(book.count == 2)
    }

    @Test("The default capacity is 20 000")
    func defaultCapacity() {
        #expect(AlarmBook().capacity == 20_000)
        #expect(AlarmBook.defaultCapacity == 20_000)
    }

    @Test("A full book reports limitReached even for an invalid request (capacity is checked first)")
    func capacityBeforeValidation() throws {
        var book = AlarmBook(capacity: 0)
        let error = try #require(throws: AlarmError.self) { try book.schedule(AlarmRequest(duration: -1), now: t0) }
        #expect(error == .limitReached(limit: 0))
    }

    // MARK: ordering and init

    @Test("alarms lists oldest first, then by id, whatever the insertion order")
    func ordering() throws {
        var book = AlarmBook()
        _ = try book.schedule(AlarmRequest(duration: 60), id: fixedID(3), now: at(5))
        _ = try book.schedule(AlarmRequest(duration: 60), id: fixedID(2), now: at(1))
        _ = try book.schedule(AlarmRequest(duration: 9), id: fixedID(9), now: at(-10))
        _ = try book.schedule(AlarmRequest(duration: 60), id: fixedID(1), now: at(1))
        #expect(book.alarms.map(\.id) == [fixedID(9), fixedID(1), fixedID(2), fixedID(3)])
    }

    @Test("init(alarms:) keeps the first of duplicate ids")
    func initDeduplicates() {
        let first = Fixture.alarm(id: fixedID(1), title: "first")
        let second = Fixture.alarm(id: fixedID(1), title: "second")
        let book = AlarmBook(alarms: [first, second, Fixture.alarm(id: fixedID(2))])
        #expect(book.count == 2)
        #expect(book[fixedID(1)]?.title == "first")
    }

    // MARK: perform

    @Test("perform on an unknown id is notFound, naming the id")
    func notFound() throws {
        var book = AlarmBook(alarms: [Fixture.alarm(id: fixedID(1))])
        let missing = fixedID(42)
        let error = try #require(throws: AlarmError.self) { try book.perform(.cancel, on: missing, now: t0) }
        #expect(error == .notFound(id: missing))
        #expect(error.description.contains(missing.uuidString.lowercased()))
        #expect(book.count == 1)
    }

    @Test("perform stores the new state for lasting events and removes the alarm for removing ones")
    func performRecords() throws {
        var book = AlarmBook(alarms: [Fixture.alarm(id: fixedID(1))])
        let paused = try book.perform(.pause, on: fixedID(1), now: at(10))
        #expect(book[fixedID(1)] == paused.alarm)
        #expect(book.nextDeadline == nil)
        let resumed = try book.perform(.resume, on: fixedID(1), now: at(20))
        #expect(book[fixedID(1)]?.state == .countdown(CountdownPhase(fireDate: at(70), duration: 60)))
        #expect(book[fixedID(1)] == resumed.alarm)
        let cancelled = try book.perform(.cancel, on: fixedID(1), now: at(30))
        #expect(cancelled.kind == .cancelled)
        #expect(book[fixedID(1)] == nil)
        #expect(book.count == 0)
    }

    @Test("perform removes on stop and on a custom secondary, keeps on snooze", arguments: [
        (AlarmIntent.stop, Fixture.snoozeButton, false),
        (.countdown, Fixture.snoozeButton, true),
        (.secondary, Fixture.snoozeButton, true),
        (.secondary, Fixture.customButton, false),
    ])
    func performWhileRinging(intent: AlarmIntent, button: SecondaryButton, kept: Bool) throws {
        let snooze: TimeInterval? = button.behavior == .countdown ? 300 : nil
        var book = AlarmBook(alarms: [Fixture.alarm(snooze: snooze, button: button, state: .alerting(since: at(60)))])
        let event = try book.perform(intent, on: fixedID(1), now: at(70))
        #expect((book[fixedID(1)] != nil) == kept)
        #expect(event.removesAlarm == !kept)
        if kept { #expect(book.nextDeadline == at(370)) }
    }

    @Test("A refused perform leaves the book unchanged and passes the state error through")
    func performRefused() throws {
        var book = AlarmBook(alarms: [Fixture.alarm()])
        let before = book
        let error = try #require(throws: AlarmError.self) { try book.perform(.resume, on: fixedID(1), now: at(5)) }
        guard case .invalidState(_, _, let state, _) = error else {
            Issue.record("expected invalidState, got \(error)")
            return
        }
        #expect(state == .countdown)
        #expect(book == before)
    }

    // MARK: advance

    @Test("advance fires at the due time, not before, and only once")
    func advanceFires() throws {
        var book = AlarmBook(alarms: [Fixture.alarm()]) // fires at t+60
        #expect(book.advance(to: at(59.999)).isEmpty)
        #expect(book[fixedID(1)]?.state.name == .countdown)
        let events = book.advance(to: at(60))
        #expect(events.map(\.kind) == [.fired])
        #expect(events.first?.alarm.state == .alerting(since: at(60)))
        #expect(book[fixedID(1)]?.state == .alerting(since: at(60)))
        #expect(book.advance(to: at(60)).isEmpty)
        #expect(book.advance(to: at(61)).isEmpty)
        #expect(book.nextDeadline == at(660))
    }

    @Test("advance ends a ring at its limit as unacknowledged and removes the alarm")
    func advanceRingLimit() throws {
        var book = AlarmBook(alarms: [Fixture.alarm(ringLimit: 600)])
        _ = book.advance(to: at(60))
        #expect(book.advance(to: at(659.999)).isEmpty)
        let events = book.advance(to: at(660))
        #expect(events.map(\.kind) == [.unacknowledged])
        #expect(events.first?.alarm.state == .alerting(since: at(60)), "the removed alarm is carried as it rang")
        #expect(book.count == 0)
        #expect(book.nextDeadline == nil)
    }

    // A ring is never stale: after a long absence an alarm is missed when it is later than its
    // late limit, and otherwise rings from the moment it is noticed, its ring limit counted from then.
    @Test("After a long absence: missed beyond the late limit; within it, it rings from now for its whole ring limit")
    func longAbsence() throws {
        var book = AlarmBook(alarms: [Fixture.alarm(ringLimit: 600)]) // due at t+60, late limit 600
        let events = book.advance(to: at(86_400))
        #expect(events.map(\.kind) == [.missed])
        #expect(events.first?.dueDate == at(60))
        #expect(events.first?.removesAlarm == true)
        #expect(events.first?.alarm.state == .countdown(CountdownPhase(fireDate: at(60), duration: 60)), "carried as it was")
        #expect(book.count == 0)

        var patient = AlarmBook(alarms: [Fixture.alarm(ringLimit: 600, lateLimit: 86_400)])
        let rung = patient.advance(to: at(86_400))
        #expect(rung.map(\.kind) == [.fired])
        #expect(rung.first?.dueDate == at(60))
        #expect(patient[fixedID(1)]?.state == .alerting(since: at(86_400)))
        #expect(patient.nextDeadline == at(87_000))
        #expect(patient.advance(to: at(86_999)).isEmpty)
        #expect(patient.advance(to: at(87_000)).map(\.kind) == [.unacknowledged])
        #expect(patient.count == 0)
    }

    /// Lets time pass as the agent does: waking at every deadline up to `end`, then at `end`.
    static func advanceStepwise(_ book: inout AlarmBook, through end: Date) -> [AlarmEvent] {
        var events: [AlarmEvent] = []
        while let deadline = book.nextDeadline, deadline <= end {
            let step = book.advance(to: deadline)
            #expect(!step.isEmpty, "advancing to nextDeadline must produce an event")
            events += step
        }
        return events + book.advance(to: end)
    }

    @Test("Several alarms fire in deadline order, their ring limits interleaved by time")
    func deadlineOrder() throws {
        let alarms = [
            Fixture.alarm(id: fixedID(1), title: "A", duration: 100, ringLimit: 600),   // fires 100, gives up 700
            Fixture.alarm(id: fixedID(2), title: "B", duration: 10, ringLimit: 20),     // fires 10, gives up 30
            Fixture.alarm(id: fixedID(3), title: "C", duration: 20, ringLimit: 600),    // fires 20, gives up 620
            Fixture.alarm(id: fixedID(4), title: "D", duration: 50, state: .paused(PausedPhase(remaining: 5, duration: 50))),
        ]
        var book = AlarmBook(alarms: alarms)
        #expect(book.nextDeadline == at(10))
        let events = Self.advanceStepwise(&book, through: at(650))
        #expect(events.map { "\($0.alarm.title) \($0.kind.rawValue)" } == [
            "B fired", "C fired", "B unacknowledged", "A fired", "C unacknowledged",
        ])
        #expect(book.alarms.map(\.title) == ["A", "D"])
        #expect(book.nextDeadline == at(700))

        // Noticed all at once at t+650, each is judged in deadline order against its late limit
        // (600 s): B (640 s late) and C (630 s) are missed, A (550 s) rings from now.
        var late = AlarmBook(alarms: alarms)
        let lateEvents = late.advance(to: at(650))
        #expect(lateEvents.map { "\($0.alarm.title) \($0.kind.rawValue)" } == ["B missed", "C missed", "A fired"])
        #expect(lateEvents.map(\.dueDate) == [at(10), at(20), at(100)])
        #expect(late.alarms.map(\.title) == ["A", "D"])
        #expect(late[fixedID(1)]?.state == .alerting(since: at(650)))
        #expect(late.nextDeadline == at(1250))
    }

    @Test("Alarms due at the same instant all fire in the same advance")
    func sameDeadline() throws {
        var book = AlarmBook(alarms: (1...5).map { Fixture.alarm(id: fixedID($0), duration: 60) })
        let events = book.advance(to: at(60))
        #expect(events.count == 5)
        #expect(events.map(\.alarm.id) == (1...5).map(fixedID), "same createdAt: by id")
        #expect(events.allSatisfy { $0.kind == .fired })
    }

    /// Seven alarms whose deadlines all fall at `at(60)`: countdowns, a scheduled alarm (no
    /// pre-alert), and a ring reaching its limit.
    static let simultaneous: [Alarm] = [
        Fixture.alarm(id: fixedID(5), title: "E", duration: 60, createdAt: t0),
        Fixture.alarm(id: fixedID(3), title: "C", duration: 30, createdAt: at(30)),
        Fixture.alarm(id: fixedID(4), title: "D", duration: 60, createdAt: t0),
        Fixture.alarm(id: fixedID(2), title: "B", state: .scheduled(fireDate: at(60)), createdAt: at(10)),
        Fixture.alarm(id: fixedID(1), title: "A", ringLimit: 50, state: .alerting(since: at(10)), createdAt: at(-20)),
        // Same instant and createdAt as D and E: the id breaks the tie, …09 before …0A.
        Fixture.alarm(id: UUID(uuidString: "00000000-0000-0000-0000-00000000000A")!, title: "F", duration: 60, createdAt: t0),
        Fixture.alarm(id: fixedID(9), title: "G", duration: 60, createdAt: t0),
    ]

    // The events of one advance drive notifications, sounds and hooks in order, so alarms due at the
    // same instant must come out in one fixed order — (deadline, createdAt, id) — not in the
    // dictionary's hash order, which changes with insertion history and from run to run.
    @Test("Alarms due at the same instant come out in (deadline, createdAt, id) order, whatever the insertion order")
    func simultaneousOrder() throws {
        let expected = ["A unacknowledged", "D fired", "E fired", "G fired", "F fired", "B fired", "C fired"]
        var orders: Set<[String]> = []
        var alarms = Self.simultaneous
        for round in 0..<200 {
            // Different insertion orders (rotations and a seeded shuffle) give different dictionary layouts.
            var generator = SplitMix(seed: UInt64(round))
            if round > 0 { alarms.shuffle(using: &generator) }
            var book = AlarmBook(alarms: alarms)
            #expect(book.nextDeadline == at(60))
            #expect(book.advance(to: at(59.999)).isEmpty)
            let events = book.advance(to: at(60))
            orders.insert(events.map { "\($0.alarm.title) \($0.kind.rawValue)" })
        }
        #expect(orders == [expected])
    }

    @Test("Scheduled through the book at the same instant, alarms fire in creation order, then by id")
    func simultaneousThroughSchedule() throws {
        var book = AlarmBook()
        _ = try book.schedule(AlarmRequest(title: "late", duration: 10), id: fixedID(1), now: at(50))
        _ = try book.schedule(AlarmRequest(title: "early-2", duration: 60), id: fixedID(3), now: t0)
        _ = try book.schedule(AlarmRequest(title: "early-1", duration: 60), id: fixedID(2), now: t0)
        _ = try book.schedule(AlarmRequest(title: "middle", duration: 40), id: fixedID(0), now: at(20))
        #expect(book.nextDeadline == at(60))
        #expect(book.advance(to: at(59.999)).isEmpty)
        let fired = book.advance(to: at(60))
        #expect(fired.map { "\($0.alarm.title) \($0.kind.rawValue)" } == [
            "early-1 fired", "early-2 fired", "middle fired", "late fired",
        ])
        // Their ring limits (600 s) also run out at the same instant, in the same order.
        let ended = book.advance(to: at(1000))
        #expect(ended.map { "\($0.alarm.title) \($0.kind.rawValue)" } == [
            "early-1 unacknowledged", "early-2 unacknowledged", "middle unacknowledged", "late unacknowledged",
        ])
    }

    @Test("A snoozed alarm rings again after the snooze; its ring limit restarts")
    func snoozeThenRingAgain() throws {
        var book = AlarmBook(alarms: [Fixture.snoozable(in: .countdown)])
        _ = book.advance(to: at(60))
        _ = try book.perform(.countdown, on: fixedID(1), now: at(70))
        #expect(book.nextDeadline == at(370))
        #expect(book.advance(to: at(369)).isEmpty)
        let events = book.advance(to: at(370))
        #expect(events.map(\.kind) == [.fired])
        #expect(book[fixedID(1)]?.state == .alerting(since: at(370)))
        #expect(book.nextDeadline == at(970))
    }

    @Test("A paused timer never fires, however much time passes")
    func pausedNeverFires() throws {
        var book = AlarmBook(alarms: [Fixture.alarm()])
        _ = try book.perform(.pause, on: fixedID(1), now: at(10))
        #expect(book.advance(to: at(1_000_000)).isEmpty)
        #expect(book[fixedID(1)]?.state == .paused(PausedPhase(remaining: 50, duration: 60)))
    }

    @Test("nextDeadline is the earliest of all states' deadlines; nil when nothing is pending")
    func nextDeadline() throws {
        #expect(AlarmBook().nextDeadline == nil)
        #expect(AlarmBook().alarms.isEmpty)
        var empty = AlarmBook()
        #expect(empty.advance(to: at(1_000_000)).isEmpty)

        var book = AlarmBook(alarms: [
            Fixture.alarm(id: fixedID(1), state: .countdown(CountdownPhase(fireDate: at(60), duration: 60))),
            Fixture.alarm(id: fixedID(2), state: .paused(PausedPhase(remaining: 1, duration: 60))),
            Fixture.alarm(id: fixedID(3), ringLimit: 40, state: .alerting(since: at(10))),   // deadline 50
            Fixture.alarm(id: fixedID(4), state: .scheduled(fireDate: at(55))),
        ])
        #expect(book.nextDeadline == at(50))
        _ = try book.perform(.stop, on: fixedID(3), now: at(20))
        #expect(book.nextDeadline == at(55))
        _ = try book.perform(.cancel, on: fixedID(4), now: at(20))
        #expect(book.nextDeadline == at(60))
        _ = try book.perform(.pause, on: fixedID(1), now: at(20))
        #expect(book.nextDeadline == nil)
    }
}

/// The book's indexes (next deadline, next alarm to wake for, countdowns, what is on screen, each
/// application's count) against the same answers worked out by looking at every alarm, through
/// many random changes; and transactions that undo exactly what they changed.
@Suite("AlarmBook indexes and transactions")
struct AlarmBookIndexTests {
    /// The answers the indexes give, worked out the slow way.
    static func expectIndexesMatch(_ book: AlarmBook, _ context: String) {
        let alarms = book.alarms
        let deadlines: [Date] = alarms.compactMap(\.nextDeadline)
        #expect(book.nextDeadline == deadlines.min(), "\(context): next deadline")
        #expect(book.nextAlarmFireDate == alarms.filter { $0.kind == .alarm }.compactMap(\.fireDate).min(), "\(context): next alarm")
        #expect(Set(book.countingDown.map(\.id)) == Set(alarms.filter { $0.state.name == .countdown }.map(\.id)), "\(context): countdowns")
        #expect(Set(book.onScreen.map(\.id)) == Set(alarms.filter { $0.state.name != .scheduled }.map(\.id)), "\(context): on screen")
        #expect(book.onScreen.count == alarms.filter { $0.state.name != .scheduled }.count, "\(context): each on screen once")
        for app in ["org.example.A", "org.example.B"] {
            #expect(book.alarmCount(ownedBy: app) == alarms.filter { $0.appID == app }.count, "\(context): count of \(app)")
        }
    }

    @Test("Through 2,000 random schedules, intents, passing time and zone changes, the indexes agree with every alarm")
    func indexesFollowEveryChange() {
        var random = SplitMix(seed: 20261130)
        var book = AlarmBook(timeZone: Fixture.zone("Europe/Berlin"))
        var now = t0
        var ids: [UUID] = []
        var mostHeld = 0
        var states: Set<AlarmStateName> = []
        for step in 0..<2000 {
            let roll = random.next() % 100
            switch roll {
            case 0..<35:
                let owner = ["org.example.A", "org.example.B", nil][Int(random.next() % 3)]
                let seconds = TimeInterval(1 + random.next() % 600)
                let request = random.next() % 2 == 0
                    ? AlarmRequest(title: "T\(step)", duration: seconds, snoozeDuration: 30)
                    : AlarmRequest(kind: .alarm, schedule: .fixed(now.addingTimeInterval(seconds * 3)), title: "A\(step)",
                                   duration: TimeInterval(random.next() % 3) * 60, snoozeDuration: 30)
                if let event = try? book.schedule(request, now: now, owner: owner, ownerLimit: 1_000) { ids.append(event.alarm.id) }
            case 35..<65 where !ids.isEmpty:
                let intent: AlarmIntent = [.pause, .resume, .cancel, .stop, .countdown, .secondary][Int(random.next() % 6)]
                _ = try? book.perform(intent, on: ids[Int(random.next() % UInt64(ids.count))], now: now)
            case 65..<95:
                now = now.addingTimeInterval(TimeInterval(random.next() % 120))
                _ = book.advance(to: now)
            default:
                _ = book.changeTimeZone(to: Fixture.zone(["Europe/Berlin", "Asia/Tokyo", "America/New_York"][Int(random.next() % 3)]), now: now)
            }
            Self.expectIndexesMatch(book, "step \(step)")
            mostHeld = max(mostHeld, book.count)
            states.formUnion(book.alarms.map(\.state.name))
        }
        #expect(mostHeld > 20, "the walk held too few alarms at once to mean much: \(mostHeld)")
        #expect(states == [.scheduled, .countdown, .paused, .alerting], "the walk did not visit every state: \(states)")
    }

    @Test("What is on screen is every alarm not waiting: a waiting alarm joins it when it rings and leaves it when stopped")
    func onScreenFollowsTheState() throws {
        var book = AlarmBook(alarms: [
            Fixture.alarm(id: fixedID(1), state: .countdown(CountdownPhase(fireDate: at(60), duration: 60))),
            Fixture.alarm(id: fixedID(2), state: .paused(PausedPhase(remaining: 30, duration: 60))),
            Fixture.alarm(id: fixedID(3), state: .scheduled(fireDate: at(40))),
        ])
        #expect(Set(book.onScreen.map(\.id)) == [fixedID(1), fixedID(2)])
        _ = book.advance(to: at(40))
        #expect(Set(book.onScreen.map(\.id)) == [fixedID(1), fixedID(2), fixedID(3)], "the waiting alarm rings")
        _ = try book.perform(.stop, on: fixedID(3), now: at(45))
        _ = try book.perform(.cancel, on: fixedID(2), now: at(45))
        #expect(book.onScreen.map(\.id) == [fixedID(1)])
    }

    @Test("A rolled-back transaction leaves the book, and its indexes, as before; an ended one keeps its changes")
    func transactions() throws {
        var book = AlarmBook()
        _ = try book.schedule(AlarmRequest(title: "Kept", duration: 300), id: fixedID(1), now: t0, owner: "org.example.A")
        _ = try book.schedule(AlarmRequest(title: "Ringing", duration: 10), id: fixedID(2), now: t0)
        _ = book.advance(to: at(10))
        let before = book

        book.beginTransaction()
        _ = try book.schedule(AlarmRequest(title: "New", duration: 60), id: fixedID(3), now: at(20), owner: "org.example.A")
        _ = try book.perform(.pause, on: fixedID(1), now: at(20))
        _ = try book.perform(.stop, on: fixedID(2), now: at(20))
        _ = try book.perform(.cancel, on: fixedID(3), now: at(20))
        book.rollBackTransaction()

        #expect(book == before)
        #expect(book.alarms == before.alarms)
        Self.expectIndexesMatch(book, "after the rollback")
        #expect(book.nextDeadline == before.nextDeadline)
        #expect(book.alarmCount(ownedBy: "org.example.A") == 1)

        book.beginTransaction()
        _ = try book.perform(.pause, on: fixedID(1), now: at(20))
        book.endTransaction()
        book.rollBackTransaction()  // nothing open: nothing undone
        #expect(book[fixedID(1)]?.state.name == .paused)
        Self.expectIndexesMatch(book, "after the ended transaction")
    }
}
