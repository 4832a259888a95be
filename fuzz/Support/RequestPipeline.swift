import Foundation
import TocsinCore
import TocsinFiles

/// Builds `Schedule` dictionaries from fuzz input, and runs one through everything the agent does
/// with it: decode, then the decider's inputs — schedule, time passing, intents, zone and clock
/// changes, a restart — with every effect's data checked as its part would use it (signals
/// encoded for clients, notifications rendered, timers armed), and save and load. Any trap here
/// is a crash of the agent.
enum RequestPipeline {
    static let requestKeys = AlarmWireFormat.RequestKey.allCases.map(\.rawValue)

    /// A dictionary of up to 12 entries: mostly known keys, with values of every wire type.
    static func dictionary(from input: inout FuzzInput, now: Date) -> [String: WireValue] {
        var dictionary: [String: WireValue] = [:]
        let count = input.choice(13)
        for _ in 0..<count {
            let key = input.choice(8) == 0 ? input.string() : input.pick(requestKeys)
            dictionary[key] = value(from: &input, now: now, depth: 0)
        }
        return dictionary
    }

    /// A value of any wire type; the type is chosen first, as a sender would.
    static func value(from input: inout FuzzInput, now: Date, depth: Int) -> WireValue {
        switch input.choice(10) {
        case 0, 1: return .string(input.string())
        case 2, 3: return .double(input.double(now: now))
        case 4: return .integer(input.integer())
        case 5: return .bool(input.bool())
        case 6:
            var map: [String: String] = [:]
            for _ in 0..<input.choice(8) {
                let event = input.bool() ? input.pick(HookEvent.allCases.map(\.rawValue)) : input.string()
                map[event] = input.string()
            }
            return .stringMap(map)
        case 7 where depth < 3:
            var nested: [String: WireValue] = [:]
            for _ in 0..<input.choice(4) {
                nested[input.bool() ? input.pick(requestKeys) : input.string()] = value(from: &input, now: now, depth: depth + 1)
            }
            return .dictionary(nested)
        case 8: return .unsupported(signature: input.pick(["ay", "as", "(ss)", "v", "h", "o", "g", "aa{sv}", "a{sd}", "mv"]))
        default: return input.bool() ? .double(input.pick(FuzzValues.doubles)) : .string(input.pick(FuzzValues.strings))
        }
    }

    /// The instants the agent may be asked at: its clock, give or take, in the years it will run.
    static func now(from input: inout FuzzInput) -> Date {
        let base: [TimeInterval] = [1_790_000_000, 1_774_747_800 /* Berlin spring forward 2026 */, 1_792_889_400 /* fall back */,
                                    1_767_225_599 /* new year's eve */, 4_102_444_799 /* 2099 */, 946_684_800]
        return Date(timeIntervalSince1970: input.pick(base) + Double(Int16(truncatingIfNeeded: Int(input.byte()) << 8 | Int(input.byte()))) * 37)
    }

    static let zones: [TimeZoneRules] = ["UTC", "Europe/Berlin", "America/St_Johns", "Pacific/Chatham", "Australia/Lord_Howe",
                                    "Pacific/Kiritimati", "Pacific/Pago_Pago", "America/Sao_Paulo", "Asia/Kathmandu"].compactMap({ TimeZoneRules(identifier: $0) })
    static let locales = ["en_US", "de_DE", "ar_EG", "fa_IR", "ja_JP", "en_US_POSIX", "en_US.UTF-8", "C"]

    /// Runs `dictionary` through the agent's path; `script` chooses what happens afterwards.
    static func run(_ dictionary: [String: WireValue], now: Date, script input: inout FuzzInput) {
        let zone = input.pick(zones)
        let writer = NotificationContentWriter(timeZone: zone, localeIdentifier: input.pick(locales))

        let request: AlarmRequest
        do {
            request = try AlarmWireFormat.decodeRequest(dictionary)
        } catch {
            checkMessage(error.message)
            return
        }
        // The agent: its state, fed through the decider as RunningAgent feeds it.
        var agent = AgentRun(state: AgentState(book: AlarmBook(timeZone: zone), localeIdentifier: input.pick(locales)))
        let id = UUID()
        let owner: String? = input.bool() ? nil : "io.github.tocsin.fuzz"
        let change = AlarmChange.schedule(request, id: id, owner: owner, confinement: .unconfined, ownerLimit: owner == nil ? nil : 100)
        var now = now
        let scheduling = agent.feed(.asked(change, by: .client(owner ?? "tocsin")), now: now)
        if let refusal = scheduling.lazy.compactMap({ effect -> AlarmError? in if case .answer(.refused(let error)) = effect { error } else { nil } }).first {
            checkMessage(refusal.description)
            return
        }
        guard agent.state.book[id] != nil else { fatalError("an accepted request left no alarm: \(scheduling)") }
        // What a client (the CLI, TocsinKit) sends for an accepted request must decode to the same request.
        do {
            let again = try AlarmWireFormat.decodeRequest(AlarmWireFormat.encode(request))
            guard sameRequest(again, request) else {
                fatalError("decodeRequest(encode(request)) is another request:\n\(request)\n\(again)")
            }
        } catch {
            fatalError("the encoding of an accepted request is refused: \(error.message)\n\(request)")
        }
        check(scheduling, of: agent, now: now)

        // Time passes and the user acts: the agent's loop, in a few steps.
        for _ in 0..<input.choice(12) {
            let effects: [AgentEffect]
            switch input.choice(6) {
            case 0, 1:
                // The timer wakes the agent at the next deadline (or a bit after: suspend).
                guard let deadline = agent.state.book.nextDeadline else { continue }
                now = max(now, deadline.addingTimeInterval(input.pick([0, 0, 0.001, 1, 59, 601, 3600, 86_401, 400 * 86_400])))
                effects = agent.feed(.timePassed, now: now)
            case 2:
                let intent = input.pick(AlarmIntent.allCases)
                now = now.addingTimeInterval(input.pick([0, 0.25, 1, 30]))
                effects = agent.feed(.asked(.perform(intent, on: id), by: .press), now: now)
            case 3:
                // The zone changed (a flight, a DST rule update).
                effects = agent.feed(.timeZoneChanged(input.pick(zones)), now: now)
            case 4:
                // The system clock was set: the agent measures the offset and shifts elapsed-time countdowns.
                let offset: TimeInterval = input.pick([-946_080_000, -3600, -1, 1, 3600, 946_080_000])
                now = now.addingTimeInterval(offset)
                effects = agent.feed(.clockSet(by: offset), now: now)
            default:
                // A countdown tick: the clock's next whole second, when every countdown on screen
                // is updated.
                if !agent.state.book.countingDown.isEmpty {
                    now = CountdownClock.nextTick(after: now)
                }
                effects = agent.feed(.timePassed, now: now)
            }
            check(effects, of: agent, now: now)
        }
        restart(agent.state.book, now: now)
    }

    /// The agent's state, fed as `RunningAgent` feeds it: every input through
    /// `AlarmDecider.decide`, a commit reported saved at once.
    struct AgentRun {
        var state: AgentState

        /// The effects of `input` at `now` (and of the save it asked for).
        mutating func feed(_ input: AgentInput, now: Date) -> [AgentEffect] {
            var effects: [AgentEffect] = []
            var next: AgentInput? = input
            while let input = next {
                next = nil
                for effect in AlarmDecider.decide(&state, input, now: now) {
                    effects.append(effect)
                    if case .commit = effect { next = .changeSaved }
                }
            }
            return effects
        }
    }

    /// Where the state file goes: memory, so that fsync costs nothing.
    static let stateDirectory: URL = {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        atexit { try? FileManager.default.removeItem(at: RequestPipeline.stateDirectory) }
        return URL(fileURLWithPath: base).appendingPathComponent("tocsin-fuzz-\(getpid())")
    }()

    /// The agent saves after every change and, on its next start, loads the file and arms its
    /// timers: what it saved must load back as it was, and must not crash it again.
    static func restart(_ book: AlarmBook, now: Date) {
        do {
            try AlarmStore(directory: stateDirectory).save(book.alarms, timeZone: book.timeZone)
        } catch {
            return  // The agent refuses the change (StorageFailed); nothing is saved.
        }
        let store = AlarmStore(directory: stateDirectory)
        guard case .loaded(let alarms) = store.load(now: Date()) else { fatalError("the saved state does not load: \(store.load(now: Date()))") }
        let saved = book.alarms.map { WireValue.dictionary(AlarmWireFormat.encode($0)) }
        let loaded = alarms.map { WireValue.dictionary(AlarmWireFormat.encode($0)) }
        guard saved.count == loaded.count, zip(saved, loaded).allSatisfy(sameWire) else {
            fatalError("the saved alarms load back differently:\n\(book.alarms)\n\(alarms)")
        }
        let zone = store.savedTimeZone ?? book.timeZone
        var restarted = AgentRun(state: AgentState(book: AlarmBook(alarms: alarms, timeZone: zone), localeIdentifier: "en_US"))
        check(restarted.feed(.started(in: zone), now: now), of: restarted, now: now)
    }

    /// What the agent does with a decision (besides saving, see `restart`): notify, signal,
    /// ring, arm its timers — each effect as its part would take it.
    static func check(_ effects: [AgentEffect], of agent: AgentRun, now: Date) {
        let book = agent.state.book, writer = agent.state.contentWriter
        var alarmsSeen: [UUID: Alarm] = [:]
        for case .signal(let event) in effects { alarmsSeen[event.alarm.id] = event.alarm }
        for effect in effects {
            switch effect {
            case .signal(let event):
                let alarm = event.alarm
                // The Changed/Removed signal carries the alarm dictionary; the client reads it back.
                let wire = AlarmWireFormat.encode(alarm)
                do {
                    let decoded = try AlarmWireFormat.decodeAlarm(wire)
                    // Instants go through seconds since 1970 while Date keeps seconds since 2001: the
                    // last bit may change, so the numbers are compared to a microsecond.
                    guard sameWire(.dictionary(AlarmWireFormat.encode(decoded)), .dictionary(wire)) else {
                        fatalError("decodeAlarm(encode(alarm)) differs:\n\(alarm)\n\(decoded)")
                    }
                } catch {
                    fatalError("a client cannot read the alarm dictionary the agent sends: \(error.message)\n\(wire)")
                }
                switch event.kind {
                case .unacknowledged: checkNotification(writer.unacknowledgedNotice(for: alarm), alarm: alarm)
                case .missed: checkNotification(writer.missedNotice(for: alarm, dueAt: event.dueDate ?? now), alarm: alarm)
                default: break
                }
            case .show(let id, let content, _):
                guard let alarm = alarmsSeen[id] ?? book[id] else { fatalError("a notification for an alarm that is not there: \(content)") }
                checkNotification(content, alarm: alarm)
            case .ring(_, let ring):
                // The ringer's gain (Ringer.decibels).
                let target = 20 * log10(ring.volume ?? 1)
                let progress = ring.crescendo.map { min(1, max(0, now.timeIntervalSince(ring.since) / $0)) } ?? 1
                _ = String(format: "%.2f", target - 30 * (1 - progress))
            case .runHook(_, _, _, let fireTime):
                // The hook's TOCSIN_FIRE_TIME.
                _ = fireTime?.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            case .armDeadline(let date), .armWake(let date):
                // The wall-clock and wake timers, both through DeadlineTimer.arm.
                DeadlineTimerModel.arm(at: date)
            default:
                break
            }
        }
        // The book's indexes answer what a look at every alarm would.
        precondition(book.nextAlarmFireDate == book.alarms.lazy.filter { $0.kind == .alarm }.compactMap(\.fireDate).min())
        precondition(book.nextDeadline == book.alarms.compactMap(\.nextDeadline).min())
        // `tocsin list` and `tocsin show` describe every alarm.
        for alarm in book.alarms {
            _ = alarm.schedule?.description(in: book.timeZone)
            if let fireDate = alarm.fireDate {
                _ = ScheduleCalculator.describe(fireDate, in: book.timeZone)
                _ = writer.dayOfMonth(fireDate)
                _ = writer.timeOfDay(fireDate)
            }
            _ = DurationFormat.spoken(alarm.ringLimit)
            _ = DurationFormat.spoken(alarm.lateLimit)
            if let remaining = alarm.remaining(at: now) {
                _ = DurationFormat.clock(seconds: CountdownClock.displayedSeconds(remaining: remaining))
            }
        }
    }

    /// Notification text is what a user reads: the title only ever in the summary, and nothing
    /// in either that a terminal or a markup parser would act on beyond what the user typed.
    static func checkNotification(_ content: NotificationContent, alarm: Alarm) {
        guard content.summary.contains(alarm.title) else {
            fatalError("the notification summary “\(content.summary)” lost the title “\(alarm.title)”")
        }
        if let progress = content.progress, !(0...100).contains(progress) {
            fatalError("progress \(progress) outside 0–100")
        }
        guard !alarm.title.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            fatalError("a title with control characters was accepted: \(AlarmInputError.quotable(alarm.title))")
        }
    }

    /// With TOCSIN_FUZZ_STRICT=1 (`fuzz/run --strict`), error messages count too: they end up on
    /// terminals (`tocsin` and `gdbus call` print them), so control characters the caller sent
    /// should come back quoted (AlarmInputError.quotable). Not a crash, so off by default.
    static let strict = ProcessInfo.processInfo.environment["TOCSIN_FUZZ_STRICT"] == "1"

    /// Every refusal has a message; in strict mode, one free of raw control characters.
    static func checkMessage(_ message: String) {
        if message.isEmpty { fatalError("empty error message") }
        if strict, message.unicodeScalars.contains(where: { $0.properties.generalCategory == .control && $0 != "\n" }) {
            fatalError("an error message carries a control character: \(AlarmInputError.quotable(message))")
        }
    }

    /// Equality of wire values, with numbers equal to a microsecond (or both NaN).
    static func sameWire(_ a: WireValue, _ b: WireValue) -> Bool {
        switch (a, b) {
        case (.double(let x), .double(let y)): x == y || (x.isNaN && y.isNaN) || abs(x - y) <= 1e-6 * max(1, abs(x) / 1e9)
        case (.dictionary(let x), .dictionary(let y)):
            x.count == y.count && x.allSatisfy { key, value in y[key].map { sameWire(value, $0) } ?? false }
        default: a == b
        }
    }

    private static func sameRequest(_ a: AlarmRequest, _ b: AlarmRequest) -> Bool {
        // NaN never equals itself; -0 and 0 are the same duration.
        func same(_ x: Double?, _ y: Double?) -> Bool { x == y || (x?.isNaN == true && y?.isNaN == true) }
        return a.kind == b.kind && a.schedule == b.schedule && a.title == b.title && same(a.duration, b.duration)
            && same(a.snoozeDuration, b.snoozeDuration) && a.secondaryButtonLabel == b.secondaryButtonLabel
            && a.sound == b.sound && same(a.volume, b.volume) && same(a.crescendo, b.crescendo)
            && same(a.ringLimit, b.ringLimit) && same(a.lateLimit, b.lateLimit) && a.hooks == b.hooks
            && a.metadata == b.metadata && a.id == b.id
    }
}

/// `DeadlineTimer.arm(at:)` of the agent converts the armed instant with `TimerExpiry.parts`
/// (TocsinCore), so an instant that would trap the agent traps the fuzz target too.
enum DeadlineTimerModel {
    static func arm(at date: Date?) {
        guard let date else { return }
        _ = TimerExpiry.parts(of: date)
    }
}
