import Foundation
import TocsinCore

/// Builds `Schedule` dictionaries from fuzz input, and runs one through everything the agent does
/// with it: decode, validate, schedule, encode for `List`/`Get`/signals, save and load, render the
/// notifications, let time pass and apply the intents. Any trap here is a crash of the agent.
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
        var book = AlarmBook(timeZone: zone)
        let scheduled: AlarmEvent
        do {
            scheduled = try book.schedule(request, now: now, owner: input.bool() ? nil : "io.github.tocsin.fuzz", ownerLimit: 100)
        } catch {
            checkMessage(error.description)
            return
        }
        // What a client (the CLI, TocsinKit) sends for an accepted request must decode to the same request.
        do {
            let again = try AlarmWireFormat.decodeRequest(AlarmWireFormat.encode(request))
            guard sameRequest(again, request) else {
                fatalError("decodeRequest(encode(request)) is another request:\n\(request)\n\(again)")
            }
        } catch {
            fatalError("the encoding of an accepted request is refused: \(error.message)\n\(request)")
        }
        var now = now
        afterCommit([scheduled], book: book, now: now, writer: writer)

        // Time passes and the user acts: the agent's loop, in a few steps.
        for _ in 0..<input.choice(12) {
            var events: [AlarmEvent] = []
            switch input.choice(6) {
            case 0, 1:
                // The timer wakes the agent at the next deadline (or a bit after: suspend).
                guard let deadline = book.nextDeadline else { break }
                now = max(now, deadline.addingTimeInterval(input.pick([0, 0, 0.001, 1, 59, 601, 3600, 86_401, 400 * 86_400])))
                events = book.advance(to: now)
            case 2:
                let intent = input.pick(AlarmIntent.allCases)
                now = now.addingTimeInterval(input.pick([0, 0.25, 1, 30]))
                events += book.advance(to: now)
                if let event = try? book.perform(intent, on: scheduled.alarm.id, now: now) { events.append(event) }
            case 3:
                // The zone changed (a flight, a DST rule update).
                events = book.changeTimeZone(to: input.pick(zones), now: now)
            case 4:
                // The system clock was set: the agent measures the offset and shifts elapsed-time countdowns.
                let offset: TimeInterval = input.pick([-946_080_000, -3600, -1, 1, 3600, 946_080_000])
                now = now.addingTimeInterval(offset)
                book.shiftElapsedTimeCountdowns(by: offset)
                events = book.advance(to: now)
            default:
                // A countdown tick: the clock's next whole second, when every countdown on screen
                // is updated.
                if !book.countingDown.isEmpty {
                    now = CountdownClock.nextTick(after: now)
                }
                events = book.advance(to: now)
            }
            afterCommit(events, book: book, now: now, writer: writer)
        }
        restart(book, now: now)
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
        let restarted = AlarmBook(alarms: alarms, timeZone: store.savedTimeZone ?? book.timeZone)
        afterCommit([], book: restarted, now: now, writer: NotificationContentWriter(timeZone: restarted.timeZone, localeIdentifier: "en_US"))
    }

    /// What the agent does after a change (besides saving, see `restart`): notify, signal, arm its timers.
    static func afterCommit(_ events: [AlarmEvent], book: AlarmBook, now: Date, writer: NotificationContentWriter) {
        for event in events {
            let alarm = event.alarm
            _ = "“\(alarm.title)” (\(alarm.id.uuidString.lowercased())): \(event.kind.rawValue)."
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
            if !event.removesAlarm, let content = writer.liveActivity(for: alarm, at: now) {
                checkNotification(content, alarm: alarm)
            }
            switch event.kind {
            case .unacknowledged: checkNotification(writer.unacknowledgedNotice(for: alarm), alarm: alarm)
            case .missed: checkNotification(writer.missedNotice(for: alarm, dueAt: event.dueDate ?? now), alarm: alarm)
            case .fired:
                // The ringer's gain (Ringer.decibels) and the hook's TOCSIN_FIRE_TIME.
                let target = 20 * log10(alarm.volume ?? 1)
                let progress = alarm.crescendo.map { min(1, max(0, 0.5 / $0)) } ?? 1
                _ = String(format: "%.2f", target - 30 * (1 - progress))
            default: break
            }
            if event.kind.hookEvent != nil, let fireTime = event.dueDate ?? alarm.fireDate {
                _ = fireTime.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            }
        }
        // Agent.rearm: the wall-clock timer is armed for the next deadline or countdown tick,
        // the wake timer for the next alarm, both through DeadlineTimer.arm.
        var next = book.nextDeadline
        if !book.countingDown.isEmpty {
            let tick = CountdownClock.nextTick(after: now)
            next = min(next ?? tick, tick)
        }
        DeadlineTimerModel.arm(at: next)
        DeadlineTimerModel.arm(at: book.nextAlarmFireDate)
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
