import Foundation
import TocsinCore

/// Alarms as the agent would hold them at `t0` (2027-01-15 08:00 UTC, a Friday), made the way
/// the agent makes them (`AlarmRequest.makeAlarm`), in the states a test needs.
enum Sample {
    /// "Pasta": a 3-minute timer started a minute ago, ringing at 08:02.
    static func pasta() throws -> Alarm {
        try timer(id: id("a1b2c3d4"), title: "Pasta", duration: 180, startedAt: at(-60))
    }

    /// "Tea": a 5-minute timer paused with 1:05 left. Its id shares "a1b2" with Pasta's.
    static func tea() throws -> Alarm {
        var tea = try timer(id: id("a1b2ffff"), title: "Tea", duration: 300, startedAt: at(-600))
        tea.state = .paused(PausedPhase(remaining: 65, duration: 300))
        return tea
    }

    /// "Wake up": 07:00 on weekdays, next on Monday 18 January, with a 9-minute Snooze and a
    /// hook, set at `t0`.
    static func wakeUp() throws -> Alarm {
        let request = AlarmRequest(
            kind: .alarm, schedule: .timeOfDay(try TimeOfDay(hour: 7), weekdays: Weekday.workdays),
            title: "Wake up", duration: 0, snoozeDuration: 540, hooks: AlarmHooks([.fire: "echo hi"]))
        return try request.makeAlarm(id: id("7e57"), now: t0, timeZone: .utc)
    }

    /// "Bell": a 1-minute timer ringing since 07:59:30.
    static func bell() throws -> Alarm {
        var bell = try timer(id: id("be11"), title: "Bell", duration: 60, startedAt: at(-90))
        bell.state = .alerting(since: at(-30))
        return bell
    }

    static func timer(id: UUID, title: String, duration: TimeInterval, startedAt: Date) throws -> Alarm {
        try AlarmRequest(kind: .timer, title: title, duration: duration).makeAlarm(id: id, now: startedAt, timeZone: .utc)
    }
}
