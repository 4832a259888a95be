import Foundation

/// Every alarm the agent holds, and the only way to change them.
///
/// Each operation takes `now` and returns the events that happened, in order; the caller performs
/// the effects (saving, notifications, sound, hooks, signals). Nothing here reads the clock.
public struct AlarmBook: Sendable, Equatable {
    /// The most alarms the book holds; scheduling beyond fails with `AlarmError.limitReached`.
    public let capacity: Int
    private var alarmsByID: [UUID: Alarm]

    /// The most alarms a book holds unless told otherwise.
    public static let defaultCapacity = 20_000

    /// Creates a book holding `alarms` (e.g. loaded from disk).
    public init(alarms: [Alarm] = [], capacity: Int = AlarmBook.defaultCapacity) {
        self.capacity = capacity
        self.alarmsByID = Dictionary(alarms.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// All alarms, oldest first (then by id, so the order is stable).
    public var alarms: [Alarm] {
        alarmsByID.values.sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }
    }

    /// The alarms counting down, in no particular order (cheaper than `alarms` for per-second work).
    public var countingDown: [Alarm] {
        alarmsByID.values.filter { $0.state.name == .countdown }
    }

    /// How many alarms the book holds.
    public var count: Int { alarmsByID.count }

    /// The alarm with `id`, if any.
    public subscript(id: UUID) -> Alarm? { alarmsByID[id] }

    /// Adds the alarm `request` describes, counting down from `now`.
    public mutating func schedule(_ request: AlarmRequest, id: UUID = UUID(), now: Date) throws(AlarmError) -> AlarmEvent {
        guard alarmsByID.count < capacity else { throw .limitReached(limit: capacity) }
        guard alarmsByID[id] == nil else {
            throw .invalidArgument(AlarmInputError("An alarm with the id \(id.uuidString.lowercased()) already exists."))
        }
        let alarm: Alarm
        do {
            alarm = try request.makeAlarm(id: id, now: now)
        } catch {
            throw .invalidArgument(error)
        }
        alarmsByID[alarm.id] = alarm
        return AlarmEvent(.scheduled, alarm)
    }

    /// Applies `intent` to the alarm `id` at `now`.
    public mutating func perform(_ intent: AlarmIntent, on id: UUID, now: Date) throws(AlarmError) -> AlarmEvent {
        guard let alarm = alarmsByID[id] else { throw .notFound(id: id.uuidString.lowercased()) }
        let event = try alarm.applying(intent, at: now)
        record(event)
        return event
    }

    /// Lets time pass up to `now`: due countdowns start ringing, expired rings end. Events come in
    /// the order their deadlines fell; an alarm may produce several (fired, then unacknowledged)
    /// when the agent was away long enough.
    public mutating func advance(to now: Date) -> [AlarmEvent] {
        var events: [AlarmEvent] = []
        while let (alarm, deadline) = earliestDeadline(), deadline <= now, let event = alarm.advanced(to: now) {
            record(event)
            events.append(event)
        }
        return events
    }

    /// The next instant at which time alone changes an alarm; `nil` when nothing is pending.
    public var nextDeadline: Date? { earliestDeadline()?.deadline }

    private func earliestDeadline() -> (alarm: Alarm, deadline: Date)? {
        alarmsByID.values.lazy
            .compactMap { alarm in alarm.nextDeadline.map { (alarm: alarm, deadline: $0) } }
            .min { ($0.deadline, $0.alarm.createdAt, $0.alarm.id.uuidString) < ($1.deadline, $1.alarm.createdAt, $1.alarm.id.uuidString) }
    }

    private mutating func record(_ event: AlarmEvent) {
        if event.kind.removesAlarm {
            alarmsByID[event.alarm.id] = nil
        } else {
            alarmsByID[event.alarm.id] = event.alarm
        }
    }
}
