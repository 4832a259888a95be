import Foundation
import TocsinCore

/// Translates between AlarmKit's schedules (`AlarmManager.Alarm.Schedule`) and the agent's
/// (`TocsinCore.AlarmSchedule`).
enum ScheduleTranslation {
    typealias KitSchedule = AlarmManager.Alarm.Schedule

    /// The agent's schedule for `schedule`; refuses a time or date that does not exist and a
    /// weekly repeat with no days.
    static func agentSchedule(_ schedule: KitSchedule) throws(AlarmManager.AlarmError) -> AlarmSchedule {
        do throws(AlarmInputError) {
            switch schedule {
            case .fixed(let date):
                return .fixed(date)
            case .relative(let relative):
                let time = try TimeOfDay(hour: relative.time.hour, minute: relative.time.minute)
                switch relative.repeats {
                case .never:
                    return .timeOfDay(time, weekdays: [])
                case .weekly(let days):
                    guard !days.isEmpty else { throw AlarmInputError("A weekly schedule needs at least one day; use .never for an alarm that rings once.") }
                    return .timeOfDay(time, weekdays: Set(try days.map { day throws(AlarmInputError) in try agentWeekday(day) }))
                }
            case .localDateTime(let local):
                return .localDateTime(try LocalDate(year: local.year, month: local.month, day: local.day),
                                      try TimeOfDay(hour: local.time.hour, minute: local.time.minute))
            }
        } catch {
            throw .invalidArgument(error.message)
        }
    }

    /// AlarmKit's schedule for the agent's `schedule`. The agent stores a one-shot time of day
    /// pinned to the day it rings on (`.localDateTime`); `relativeOnce` says the application asked
    /// for `.relative(… repeats: .never)`, which it gets back.
    static func kitSchedule(_ schedule: AlarmSchedule, relativeOnce: Bool) -> KitSchedule {
        switch schedule {
        case .fixed(let date):
            return .fixed(date)
        case .timeOfDay(let time, let weekdays):
            return .relative(.init(time: kitTime(time), repeats: weekdays.isEmpty ? .never : .weekly(weekdays.sorted().map(kitWeekday))))
        case .localDateTime(_, let time) where relativeOnce:
            return .relative(.init(time: kitTime(time), repeats: .never))
        case .localDateTime(let date, let time):
            return .localDateTime(.init(year: date.year, month: date.month, day: date.day, time: kitTime(time)))
        }
    }

    private static func kitTime(_ time: TimeOfDay) -> KitSchedule.Relative.Time {
        .init(hour: time.hour, minute: time.minute)
    }

    private static func agentWeekday(_ day: Locale.Weekday) throws(AlarmInputError) -> Weekday {
        switch day {
        case .monday: .monday
        case .tuesday: .tuesday
        case .wednesday: .wednesday
        case .thursday: .thursday
        case .friday: .friday
        case .saturday: .saturday
        case .sunday: .sunday
        @unknown default: throw AlarmInputError("“\(day)” is not a day of the week Tocsin knows.")
        }
    }

    private static func kitWeekday(_ day: Weekday) -> Locale.Weekday {
        switch day {
        case .monday: .monday
        case .tuesday: .tuesday
        case .wednesday: .wednesday
        case .thursday: .thursday
        case .friday: .friday
        case .saturday: .saturday
        case .sunday: .sunday
        }
    }
}
