import FoundationEssentials

/// Every alarm the agent holds, and the only way to change them.
///
/// Each operation takes `now` and returns the events that happened, in order. Only
/// `AlarmDecider` changes a book (its changes are internal to TocsinCore): it turns the events
/// into effects. Others read it. Nothing here reads the clock.
///
/// Every change goes through one place (`write`), which also keeps the indexes the agent asks
/// on every call — the next deadline, the countdowns, what is on screen, each application's
/// count — so that a change costs O(log n) however many alarms are held, and which records,
/// inside a transaction, what a change overwrote so that it can be undone.
public struct AlarmBook: Sendable, Equatable {
    /// The most alarms the book holds; scheduling beyond fails with `AlarmError.limitReached`.
    public let capacity: Int
    /// The zone local schedules ("07:00 on weekdays") are resolved in; change it with
    /// `changeTimeZone(to:now:)` so waiting alarms move.
    public private(set) var timeZone: TimeZoneRules
    private var alarmsByID = AlarmTable()
    /// Every alarm's next deadline (`Alarm.nextDeadline`).
    private var deadlines = DeadlineIndex()
    /// The fire dates of alarms (not timers) that wait or count down: when the machine must be awake.
    private var alarmFireDates = DeadlineIndex()
    private var countingDownIDs: Set<UUID> = []
    /// The alarms not merely waiting (counting down, paused or ringing): what notifications and
    /// panels show, so the per-second tray refresh need not look at thousands of waiting alarms.
    private var onScreenIDs: Set<UUID> = []
    private var alarmCountByApp: [String: Int] = [:]
    /// While a transaction is open: each alarm changed in it, as it was before its first change
    /// (`nil`: it did not exist).
    private var transactionUndo: [UUID: Alarm?]?

    /// The most alarms a book holds unless told otherwise.
    public static let defaultCapacity = 20_000

    /// Creates a book holding `alarms` (e.g. loaded from disk).
    public init(alarms: [Alarm] = [], capacity: Int = AlarmBook.defaultCapacity, timeZone: TimeZoneRules = .utc) {
        self.capacity = capacity
        self.timeZone = timeZone
        alarmsByID.reserveCapacity(alarms.count)
        deadlines.reserveCapacity(alarms.count)
        alarmFireDates.reserveCapacity(alarms.lazy.filter { $0.kind == .alarm }.count)
        for alarm in alarms where !alarmsByID.contains(alarm.id) {
            write(alarm.id, alarm)
        }
    }

    /// Books are equal when they hold the same alarms, in the same zone, with the same capacity.
    public static func == (lhs: AlarmBook, rhs: AlarmBook) -> Bool {
        lhs.capacity == rhs.capacity && lhs.timeZone == rhs.timeZone && lhs.alarmsByID.holdsTheSameAlarms(as: rhs.alarmsByID)
    }

    /// All alarms, oldest first (then by id, so the order is stable).
    public var alarms: [Alarm] {
        alarmsByID.values(sortedBy: Self.oldestFirst)
    }

    /// The order `alarms` comes in: oldest first, then by id.
    public static func oldestFirst(_ a: Alarm, _ b: Alarm) -> Bool {
        a.createdAt != b.createdAt ? a.createdAt < b.createdAt : a.id < b.id
    }

    /// The alarms on screen in `alarms`' order: what a look at every alarm that is not merely
    /// waiting finds, without sorting the thousands that are.
    public var onScreenOldestFirst: [Alarm] {
        onScreen.sorted(by: Self.oldestFirst)
    }

    /// Every alarm, in no particular order: for a look at all of them that needs no order
    /// (`alarms` sorts, which costs several milliseconds at 10,000 alarms).
    public var unorderedAlarms: some Collection<Alarm> { alarmsByID.values }

    /// The alarms counting down, in no particular order (cheaper than `alarms` for per-second work).
    public var countingDown: [Alarm] {
        countingDownIDs.compactMap { alarmsByID[$0] }
    }

    /// The alarms on screen — counting down, paused or ringing, not waiting — in no particular
    /// order: what panels show (`PanelSummary`), at a cost that does not grow with waiting alarms.
    public var onScreen: [Alarm] {
        onScreenIDs.compactMap { alarmsByID[$0] }
    }

    /// The earliest instant at which an alarm (not a timer) rings: the machine should be awake then.
    public var nextAlarmFireDate: Date? { alarmFireDates.first?.date }

    /// The alarm that rings next without anyone pressing anything, and when: the earliest end of
    /// a countdown (timers, snoozes, pre-alerts) or of an alarm waiting for its time; ties go to
    /// the alarm created first. `nil` when nothing will ring (only paused or ringing ones, or none).
    public var nextToRing: (alarm: Alarm, date: Date)? {
        var next: (alarm: Alarm, date: Date)?
        if let entry = alarmFireDates.first, let alarm = alarmsByID[entry.id] { next = (alarm, entry.date) }
        for alarm in countingDown {
            guard case .countdown(let phase) = alarm.state else { continue }
            if let current = next, current.date < phase.fireDate || (current.date == phase.fireDate && Self.oldestFirst(current.alarm, alarm)) { continue }
            next = (alarm, phase.fireDate)
        }
        return next
    }

    /// How many alarms application `app` holds.
    public func alarmCount(ownedBy app: String) -> Int { alarmCountByApp[app, default: 0] }

    /// How many alarms the book holds.
    public var count: Int { alarmsByID.count }

    /// The alarm with `id`, if any.
    public subscript(id: UUID) -> Alarm? { alarmsByID[id] }

    /// Adds the alarm `request` describes, counting down from `now`.
    ///
    /// `owner` is the scheduling application (`nil`: the user's command line), which ran in
    /// `confinement`; an application other than the command line holds at most `ownerLimit`
    /// alarms. A sandboxed application's request may carry no hooks.
    mutating func schedule(
        _ request: AlarmRequest, id: UUID = UUID(), now: Date,
        owner: String? = nil, confinement: AppConfinement = .unconfined, ownerLimit: Int? = nil
    ) throws(AlarmError) -> AlarmEvent {
        let alarm = try newAlarm(for: request, id: id, now: now, owner: owner, confinement: confinement, ownerLimit: ownerLimit)
        write(alarm.id, alarm)
        return AlarmEvent(.scheduled, alarm)
    }

    /// The alarm `schedule` would add for the same arguments, without adding it; throws what
    /// `schedule` would. The agent asks this before it asks the user to allow an application, so
    /// a request that cannot succeed raises no consent question.
    public func newAlarm(
        for request: AlarmRequest, id: UUID, now: Date,
        owner: String? = nil, confinement: AppConfinement = .unconfined, ownerLimit: Int? = nil
    ) throws(AlarmError) -> Alarm {
        if let owner, confinement.isSandboxed, !request.hooks.isEmpty {
            throw .hooksFromSandbox(app: owner, confinement: confinement)
        }
        guard alarmsByID.count < capacity else { throw .limitReached(limit: capacity) }
        if let owner, let ownerLimit, alarmCount(ownedBy: owner) >= ownerLimit {
            throw .appLimitReached(app: owner, limit: ownerLimit)
        }
        guard !alarmsByID.contains(id) else {
            throw .invalidArgument(AlarmInputError("An alarm with the id \(id.uuidString.lowercased()) already exists."))
        }
        var alarm: Alarm
        do {
            alarm = try request.makeAlarm(id: id, now: now, timeZone: timeZone)
        } catch {
            throw .invalidArgument(error)
        }
        alarm.appID = owner
        alarm.appConfinement = owner == nil ? nil : confinement
        return alarm
    }

    /// Resolves local schedules in `newZone` from now on: every waiting alarm that follows the
    /// zone moves to the instant its local time now stands for (`rescheduled` events); fixed
    /// instants, timers, snoozes and ringing alarms stay.
    ///
    /// A repeating alarm keeps the local day it was waiting for: "07:00 tomorrow" becomes 07:00
    /// tomorrow in the new zone. Re-asking "the next 07:00 after now" instead would ring a daily
    /// alarm a second time on the day it already rang, after a flight west. When that day's time
    /// is already over in the new zone (a flight east), it moves to its next occurrence. A one-shot
    /// local date and time the move put in the past comes due at once, at the next `advance` (it
    /// rings, or is missed beyond its late limit): the user asked for that day.
    mutating func changeTimeZone(to newZone: TimeZoneRules, now: Date) -> [AlarmEvent] {
        guard newZone != timeZone else { return [] }
        let oldZone = timeZone
        timeZone = newZone
        var events: [AlarmEvent] = []
        for alarm in alarms {
            guard let schedule = alarm.schedule, schedule.followsTimeZone, let oldFireDate = alarm.fireDate else { continue }
            if case .countdown(let phase) = alarm.state, !phase.followsWallClock { continue }
            let newFireDate: Date
            switch schedule {
            case .localDateTime(let date, let time):
                newFireDate = ScheduleCalculator.instant(of: date, at: time, in: newZone)
            case .timeOfDay(let time, _):
                let day = ScheduleCalculator.localDate(of: oldFireDate, in: oldZone)
                let sameDay = ScheduleCalculator.instant(of: day, at: time, in: newZone)
                // After a flight east that day's time may be over already: that is not a missed
                // alarm, the next occurrence is simply the next one. Nor may it be one that
                // already rang, which a clock set back since can put ahead of now.
                let after = max(now, alarm.lastOccurrence ?? now)
                guard sameDay <= after else {
                    newFireDate = sameDay
                    break
                }
                guard let next = ScheduleCalculator.nextOccurrence(of: schedule, after: after, in: newZone) else { continue }
                newFireDate = next
            case .fixed:
                continue
            }
            guard newFireDate != oldFireDate else { continue }
            let moved = alarm.with(state: alarm.waitingState(until: newFireDate, now: now))
            write(alarm.id, moved)
            events.append(AlarmEvent(.rescheduled, moved))
        }
        return events
    }

    /// Moves every countdown that measures elapsed time (timers, snoozes) by `offset`, after the
    /// system clock was set by that much: a 5-minute timer still ends 5 minutes after it started,
    /// and a ringing alarm still rings for its ring limit. Alarms waiting for a wall-clock time
    /// stay where they are.
    mutating func shiftElapsedTimeCountdowns(by offset: TimeInterval) {
        guard offset != 0 else { return }
        // A snapshot: the loop changes the table it walks.
        for alarm in Array(alarmsByID.values) {
            let id = alarm.id
            switch alarm.state {
            case .countdown(var phase) where !phase.followsWallClock:
                phase.fireDate = phase.fireDate.addingTimeInterval(offset)
                write(id, alarm.with(state: .countdown(phase)))
            case .alerting(let since):
                // The ring limit measures ringing time too.
                write(id, alarm.with(state: .alerting(since: since.addingTimeInterval(offset))))
            default:
                break
            }
        }
    }

    /// Applies `intent` to the alarm `id` at `now`.
    mutating func perform(_ intent: AlarmIntent, on id: UUID, now: Date) throws(AlarmError) -> AlarmEvent {
        guard let alarm = alarmsByID[id] else { throw .notFound(id: id) }
        let event = try alarm.applying(intent, at: now, in: timeZone)
        record(event)
        return event
    }

    /// Lets time pass up to `now`: due countdowns start ringing, expired rings end. Events come in
    /// the order their deadlines fell; an alarm may produce several (fired, then unacknowledged)
    /// when the agent was away long enough.
    mutating func advance(to now: Date) -> [AlarmEvent] {
        var events: [AlarmEvent] = []
        // `nextDeadline` and `advanced(to:)` agree, so nothing should be skipped; if they ever
        // disagree, one alarm must not hold back the others: it leaves the index for the loop.
        var inert: [Alarm] = []
        while let next = deadlines.first, next.date <= now, let alarm = alarmsByID[next.id] {
            // An event that leaves the alarm as it was would come back forever.
            guard let event = alarm.advanced(to: now, in: timeZone), event.removesAlarm || event.alarm != alarm else {
                inert.append(alarm)
                deadlines.remove(alarm.id)
                continue
            }
            record(event)
            events.append(event)
        }
        for alarm in inert {
            deadlines.set(alarm.id, to: alarm.nextDeadline, createdAt: alarm.createdAt)
        }
        return events
    }

    /// The next instant at which time alone changes an alarm; `nil` when nothing is pending.
    public var nextDeadline: Date? { deadlines.first?.date }

    // MARK: Transactions

    /// Starts remembering what changes overwrite, so that `rollBackTransaction()` can undo them —
    /// a change that cannot be saved must not stay made. Cheaper than keeping a copy of the book,
    /// which would copy every alarm on the first change.
    mutating func beginTransaction() {
        transactionUndo = [:]
    }

    /// Keeps the changes made since `beginTransaction()`.
    mutating func endTransaction() {
        transactionUndo = nil
    }

    /// Undoes every change made since `beginTransaction()`.
    mutating func rollBackTransaction() {
        guard let undo = transactionUndo else { return }
        transactionUndo = nil
        for (id, previous) in undo {
            write(id, previous)
        }
    }

    // MARK: Writing

    private mutating func record(_ event: AlarmEvent) {
        write(event.alarm.id, event.removesAlarm ? nil : event.alarm)
    }

    /// `alarm` with its application id pointing at the copy of the name the book already holds,
    /// so 10,000 alarms of one application keep one copy of its name instead of 10,000 (names
    /// longer than 15 bytes live on the heap, 64 bytes each).
    private func sharingOwnerName(_ alarm: Alarm) -> Alarm {
        guard let app = alarm.appID, let known = alarmCountByApp.index(forKey: app) else { return alarm }
        var shared = alarm
        shared.appID = alarmCountByApp.keys[known]
        return shared
    }

    /// Sets (or, with `nil`, removes) alarm `id`: the one place alarms change, so the indexes and
    /// the transaction's undo record follow every change.
    private mutating func write(_ id: UUID, _ alarm: Alarm?) {
        let previous = alarmsByID[id]
        if transactionUndo?.keys.contains(id) == false {
            transactionUndo?[id] = .some(previous)
        }
        alarmsByID[id] = alarm.map(sharingOwnerName)
        if let app = previous?.appID {
            alarmCountByApp[app, default: 0] -= 1
            if alarmCountByApp[app] == 0 { alarmCountByApp[app] = nil }
        }
        if let app = alarm?.appID { alarmCountByApp[app, default: 0] += 1 }
        if alarm?.state.name == .countdown { countingDownIDs.insert(id) } else { countingDownIDs.remove(id) }
        if let alarm, alarm.state.name != .scheduled { onScreenIDs.insert(id) } else { onScreenIDs.remove(id) }
        let createdAt = alarm?.createdAt ?? .distantPast
        deadlines.set(id, to: alarm?.nextDeadline, createdAt: createdAt)
        alarmFireDates.set(id, to: alarm?.kind == .alarm ? alarm?.fireDate : nil, createdAt: createdAt)
    }
}
