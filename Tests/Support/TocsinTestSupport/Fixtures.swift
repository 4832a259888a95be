import Foundation
import TocsinCore
import TocsinFiles

// Fixtures shared by the test targets. Time is always an input: every instant is built from `t0`, never from the clock.

/// The instant the tests count from (2027-01-15 08:00:00 UTC).
public let t0 = Date(timeIntervalSince1970: 1_800_000_000)

/// `seconds` after `t0`.
public func at(_ seconds: TimeInterval) -> Date {
    t0.addingTimeInterval(seconds)
}

/// A fixed, readable id: `00000000-0000-0000-0000-0000000000nn`.
public func fixedID(_ number: Int) -> UUID {
    let digits = String(number)
    return UUID(uuidString: "00000000-0000-0000-0000-" + String(repeating: "0", count: 12 - digits.count) + digits)!
}

public enum Fixture {
    public static let snoozeButton = SecondaryButton(label: "Snooze", behavior: .countdown)
    public static let customButton = SecondaryButton(label: "Next step", behavior: .custom)

    /// An alarm built directly (no validation). By default: "Pasta", a 60 s timer created at `t0`,
    /// counting down to `at(60)`, ringing for at most 600 s, late limit 600 s, no second button.
    ///
    /// Timers never wait in `.scheduled`: that state belongs to scheduled alarms. So unless `kind`
    /// says otherwise, a `.scheduled` state or a `schedule` makes a scheduled alarm (kind `.alarm`,
    /// no pre-alert unless `duration` gives one), and an alarm without a `schedule` gets
    /// `.fixed(fireDate)` — the instant of its `.scheduled` state, else `createdAt + 60`.
    public static func alarm(
        id: UUID = fixedID(1),
        title: String = "Pasta",
        kind: AlarmKind? = nil,
        schedule: AlarmSchedule? = nil,
        duration: TimeInterval? = nil,
        snooze: TimeInterval? = nil,
        button: SecondaryButton? = nil,
        sound: AlarmSound = .standard,
        ringLimit: TimeInterval = 600,
        lateLimit: TimeInterval = AlarmRequest.defaultLateLimit,
        hooks: AlarmHooks = AlarmHooks(),
        state: AlarmState? = nil,
        createdAt: Date = t0
    ) -> Alarm {
        let scheduledFireDate: Date? = if case .scheduled(let fireDate)? = state { fireDate } else { nil }
        let kind = kind ?? (schedule != nil || scheduledFireDate != nil ? .alarm : .timer)
        let duration = duration ?? (kind == .timer ? 60 : 0)
        let schedule = schedule ?? (kind == .alarm ? .fixed(scheduledFireDate ?? createdAt.addingTimeInterval(60)) : nil)
        let defaultState: AlarmState = switch schedule {
        case nil:
            .countdown(CountdownPhase(fireDate: createdAt.addingTimeInterval(duration), duration: duration))
        case let schedule?:
            .scheduled(fireDate: ScheduleCalculator.nextOccurrence(of: schedule, after: createdAt, in: .utc) ?? createdAt.addingTimeInterval(60))
        }
        return Alarm(
            id: id, title: title, kind: kind, schedule: schedule, countdownDuration: duration,
            snoozeDuration: snooze, secondaryButton: button, sound: sound, ringLimit: ringLimit, lateLimit: lateLimit,
            hooks: hooks, state: state ?? defaultState, createdAt: createdAt
        )
    }

    /// A 60 s timer with a 300 s snooze behind a "Snooze" button, in the state named `name`
    /// (for `.scheduled`: an alarm at `at(60)` without pre-alert, with the same buttons).
    public static func snoozable(in name: AlarmStateName) -> Alarm {
        alarm(snooze: 300, button: snoozeButton, state: state(name))
    }

    /// A representative state for each state name: scheduled for `at(60)` (an alarm's state),
    /// and, for a 60 s timer started at `t0`, counting down to `at(60)`, paused with 50 s left,
    /// ringing since `at(60)`.
    public static func state(_ name: AlarmStateName) -> AlarmState {
        switch name {
        case .scheduled: .scheduled(fireDate: at(60))
        case .countdown: .countdown(CountdownPhase(fireDate: at(60), duration: 60))
        case .paused: .paused(PausedPhase(remaining: 50, duration: 60))
        case .alerting: .alerting(since: at(60))
        }
    }

    /// `hour`:`minute`, for fixtures (which cannot throw).
    public static func time(_ hour: Int, _ minute: Int = 0) -> TimeOfDay {
        try! TimeOfDay(hour: hour, minute: minute)
    }

    /// The date `year`-`month`-`day`, for fixtures.
    public static func date(_ year: Int, _ month: Int, _ day: Int) -> LocalDate {
        try! LocalDate(year: year, month: month, day: day)
    }

    /// The zone `identifier`, which the tests rely on existing.
    public static func zone(_ identifier: String) -> TimeZoneRules {
        TimeZoneRules(identifier: identifier)!
    }

    /// An instant written in ISO 8601 with its offset, e.g. "2026-03-29T01:00:00Z".
    public static func instant(_ text: String) -> Date {
        try! Date(text, strategy: .iso8601)
    }

    /// One alarm per state and per kind of schedule, each with different buttons, hooks, sounds
    /// and limits, for round trips. (`t0` is Friday 2027-01-15 08:00 UTC.)
    public static let varied: [Alarm] = [
        alarm(id: fixedID(1), title: "Scheduled", sound: .themeEvent("bell"), state: .scheduled(fireDate: at(3600)), createdAt: at(1)),
        alarm(id: fixedID(2), title: "Tea", duration: 180, snooze: 300, button: snoozeButton,
              hooks: AlarmHooks([.fire: "notify-send tea", .snooze: "echo snoozed"]), createdAt: at(2)),
        alarm(id: fixedID(3), title: "Bread – 2nd rise 🍞", duration: 2700, snooze: 60,
              button: SecondaryButton(label: "Repeat", behavior: .countdown), sound: .file("/usr/share/sounds/freedesktop/stereo/bell.oga"),
              ringLimit: 120, state: .paused(PausedPhase(remaining: 1234.5, duration: 2700)), createdAt: at(3)),
        alarm(id: fixedID(4), title: "Laundry", duration: 3600, button: customButton,
              hooks: AlarmHooks([.fire: "a", .stop: "b", .snooze: "c", .secondary: "d", .cancel: "e"]),
              state: .alerting(since: at(3604)), createdAt: at(4)),
        // Weekdays at 07:00 with a 15-minute pre-alert, counting down to Monday 07:00 UTC.
        alarm(id: fixedID(5), title: "Wake up", schedule: .timeOfDay(time(7), weekdays: Weekday.workdays), duration: 900,
              snooze: 540, button: snoozeButton, lateLimit: 1800, hooks: AlarmHooks([.missed: "echo missed"]),
              state: .countdown(CountdownPhase(fireDate: at(255_600), duration: 900, followsWallClock: true)), createdAt: at(5)),
        // A local date and time: 2027-02-01 09:30 (UTC here).
        alarm(id: fixedID(6), title: "Dentist", schedule: .localDateTime(date(2027, 2, 1), time(9, 30)), lateLimit: 60,
              state: .scheduled(fireDate: at(1_474_200)), createdAt: at(6)),
        // Mondays, Wednesdays and Fridays at 18:00, ringing since this Friday's.
        alarm(id: fixedID(7), title: "Gym", schedule: .timeOfDay(time(18), weekdays: [.monday, .wednesday, .friday]),
              sound: .themeEvent("phone-incoming-call"), ringLimit: 300, state: .alerting(since: at(36_000)), createdAt: at(7)),
    ]
}

/// The state file's members as AlarmStore declares them, for JSONEncoder and JSONDecoder to
/// write and read beside AlarmJSONWriter and AlarmJSONReader.
public struct StateFileShape: Codable, Equatable {
    public var format: Int
    public var timeZone: String?
    public var alarms: [Alarm]

    public init(format: Int, timeZone: String?, alarms: [Alarm]) {
        self.format = format
        self.timeZone = timeZone
        self.alarms = alarms
    }
}

/// A fresh directory under the system temporary directory, removed after `body`.
public func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("TocsinCoreTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}
