import Foundation

/// Every alarm the agent holds, and the only way to change them.
///
/// Each operation takes `now` and returns the events that happened, in order; the caller performs
/// the effects (saving, notifications, sound, hooks, signals). Nothing here reads the clock.
public struct AlarmBook: Sendable, Equatable {
    /// The most alarms the book holds; scheduling beyond fails with `AlarmError.limitReached`.
    public let capacity: Int
    /// The zone local schedules ("07:00 on weekdays") are resolved in; change it with
    /// `changeTimeZone(to:now:)` so waiting alarms move.
    public private(set) var timeZone: TimeZone
    private var alarmsByID: [UUID: Alarm]

    /// The most alarms a book holds unless told otherwise.
    public static let defaultCapacity = 20_000

    /// Creates a book holding `alarms` (e.g. loaded from disk).
    public init(alarms: [Alarm] = [], capacity: Int = AlarmBook.defaultCapacity, timeZone: TimeZone = .gmt) {
        self.capacity = capacity
        self.timeZone = timeZone
        self.alarmsByID = Dictionary(alarms.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// All alarms, oldest first (then by id, so the order is stable).
    public var alarms: [Alarm] {
        alarmsByID.values.sorted { $0.createdAt != $1.createdAt ? $0.createdAt < $1.createdAt : $0.id < $1.id }
    }

    /// All alarms in no particular order: for work that does not need `alarms`' sorting.
    public var unorderedAlarms: Dictionary<UUID, Alarm>.Values { alarmsByID.values }

    /// The alarms counting down, in no particular order (cheaper than `alarms` for per-second work).
    public var countingDown: [Alarm] {
        alarmsByID.values.filter { $0.state.name == .countdown }
    }

    /// How many alarms the book holds.
    public var count: Int { alarmsByID.count }

    /// The alarm with `id`, if any.
    public subscript(id: UUID) -> Alarm? { alarmsByID[id] }

    /// Adds the alarm `request` describes, counting down from `now`.
    ///
    /// `owner` is the scheduling application (`nil`: the user's command line); an application
    /// other than the command line holds at most `ownerLimit` alarms.
    public mutating func schedule(_ request: AlarmRequest, id: UUID = UUID(), now: Date, owner: String? = nil, ownerLimit: Int? = nil) throws(AlarmError) -> AlarmEvent {
        guard alarmsByID.count < capacity else { throw .limitReached(limit: capacity) }
        if let owner, let ownerLimit, alarmsByID.values.lazy.filter({ $0.appID == owner }).count >= ownerLimit {
            throw .appLimitReached(app: owner, limit: ownerLimit)
        }
        guard alarmsByID[id] == nil else {
            throw .invalidArgument(AlarmInputError("An alarm with the id \(id.uuidString.lowercased()) already exists."))
        }
        var alarm: Alarm
        do {
            alarm = try request.makeAlarm(id: id, now: now, timeZone: timeZone)
        } catch {
            throw .invalidArgument(error)
        }
        alarm.appID = owner
        alarmsByID[alarm.id] = alarm
        return AlarmEvent(.scheduled, alarm)
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
    public mutating func changeTimeZone(to newZone: TimeZone, now: Date) -> [AlarmEvent] {
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
                // alarm, the next occurrence is simply the next one.
                guard sameDay <= now else {
                    newFireDate = sameDay
                    break
                }
                guard let next = ScheduleCalculator.nextOccurrence(of: schedule, after: now, in: newZone) else { continue }
                newFireDate = next
            case .fixed:
                continue
            }
            guard newFireDate != oldFireDate else { continue }
            let moved = alarm.with(state: alarm.waitingState(until: newFireDate, now: now))
            alarmsByID[alarm.id] = moved
            events.append(AlarmEvent(.rescheduled, moved))
        }
        return events
    }

    /// Moves every countdown that measures elapsed time (timers, snoozes) by `offset`, after the
    /// system clock was set by that much: a 5-minute timer still ends 5 minutes after it started,
    /// and a ringing alarm still rings for its ring limit. Alarms waiting for a wall-clock time
    /// stay where they are.
    public mutating func shiftElapsedTimeCountdowns(by offset: TimeInterval) {
        guard offset != 0 else { return }
        for (id, alarm) in alarmsByID {
            switch alarm.state {
            case .countdown(var phase) where !phase.followsWallClock:
                phase.fireDate = phase.fireDate.addingTimeInterval(offset)
                alarmsByID[id] = alarm.with(state: .countdown(phase))
            case .alerting(let since):
                // The ring limit measures ringing time too.
                alarmsByID[id] = alarm.with(state: .alerting(since: since.addingTimeInterval(offset)))
            default:
                break
            }
        }
    }

    /// Applies `intent` to the alarm `id` at `now`.
    public mutating func perform(_ intent: AlarmIntent, on id: UUID, now: Date) throws(AlarmError) -> AlarmEvent {
        guard let alarm = alarmsByID[id] else { throw .notFound(id: id.uuidString.lowercased()) }
        let event = try alarm.applying(intent, at: now, in: timeZone)
        record(event)
        return event
    }

    /// Lets time pass up to `now`: due countdowns start ringing, expired rings end. Events come in
    /// the order their deadlines fell; an alarm may produce several (fired, then unacknowledged)
    /// when the agent was away long enough.
    public mutating func advance(to now: Date) -> [AlarmEvent] {
        var events: [AlarmEvent] = []
        // `nextDeadline` and `advanced(to:)` agree, so nothing should be skipped; if they ever
        // disagree, one alarm must not hold back the others.
        var inert: Set<UUID> = []
        while let (alarm, deadline) = earliestDeadline(excluding: inert), deadline <= now {
            // An event that leaves the alarm as it was would come back forever.
            guard let event = alarm.advanced(to: now, in: timeZone), event.removesAlarm || event.alarm != alarm else {
                inert.insert(alarm.id)
                continue
            }
            record(event)
            events.append(event)
        }
        return events
    }

    /// The next instant at which time alone changes an alarm; `nil` when nothing is pending.
    public var nextDeadline: Date? { earliestDeadline()?.deadline }

    private func earliestDeadline(excluding excluded: Set<UUID> = []) -> (alarm: Alarm, deadline: Date)? {
        alarmsByID.values.lazy
            .filter { !excluded.contains($0.id) }
            .compactMap { alarm in alarm.nextDeadline.map { (alarm: alarm, deadline: $0) } }
            .min { first, second in
                if first.deadline != second.deadline { return first.deadline < second.deadline }
                if first.alarm.createdAt != second.alarm.createdAt { return first.alarm.createdAt < second.alarm.createdAt }
                return first.alarm.id < second.alarm.id
            }
    }

    private mutating func record(_ event: AlarmEvent) {
        if event.removesAlarm {
            alarmsByID[event.alarm.id] = nil
        } else {
            alarmsByID[event.alarm.id] = event.alarm
        }
    }
}
