import Foundation
import TocsinCore

/// Translates between AlarmKit's schedules (`AlarmManager.Alarm.Schedule`) and the agent's
/// (`TocsinCore.AlarmSchedule`).
enum ScheduleTranslation {
    typealias KitSchedule = AlarmManager.Alarm.Schedule

    /// The agent's schedule for `schedule`; refuses a time that does not exist. A weekly repeat
    /// on no day rings once, as an alarm repeating "never" does in the Clock app (AlarmKit does
    /// not document it; an app that builds the list from the days a person ticked sends it).
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
                    return .timeOfDay(time, weekdays: Set(try days.map { day throws(AlarmInputError) in try agentWeekday(day) }))
                }
            }
        } catch {
            throw .tocsin(.invalidArgument(error.message))
        }
    }

    /// The agent's schedule for Tocsin's dated local alarm; refuses a date or time that does not
    /// exist.
    static func agentSchedule(_ local: AlarmManager.Alarm.LocalDateTime) throws(AlarmManager.AlarmError) -> AlarmSchedule {
        do throws(AlarmInputError) {
            return .localDateTime(try LocalDate(year: local.year, month: local.month, day: local.day),
                                  try TimeOfDay(hour: local.time.hour, minute: local.time.minute))
        } catch {
            throw .tocsin(.invalidArgument(error.message))
        }
    }

    /// What the application reads back for an agent's schedule: AlarmKit's schedule and, for a
    /// dated local alarm, Tocsin's date and time beside it.
    struct ReadBack: Equatable {
        var schedule: KitSchedule
        var localDateTime: AlarmManager.Alarm.LocalDateTime?
    }

    /// The application's view of the agent's `schedule`. The agent stores a one-shot time of day
    /// pinned to the day it rings on (`.localDateTime`); `relativeOnce` says the application asked
    /// for `.relative(… repeats: .never)`, which it gets back. Any other dated local alarm reads
    /// as `.fixed` at `fireDate` (the agent's, while it waits) or, when the agent's state carries
    /// none, at the instant the calendar gives that date and time now.
    static func readBack(_ schedule: AlarmSchedule, relativeOnce: Bool, fireDate: Date?,
                         calendar: Calendar = .current) -> ReadBack {
        switch schedule {
        case .fixed(let date):
            return ReadBack(schedule: .fixed(date))
        case .timeOfDay(let time, let weekdays):
            return ReadBack(schedule: .relative(.init(time: kitTime(time), repeats: weekdays.isEmpty ? .never : .weekly(weekdays.sorted().map(kitWeekday)))))
        case .localDateTime(_, let time) where relativeOnce:
            return ReadBack(schedule: .relative(.init(time: kitTime(time), repeats: .never)))
        case .localDateTime(let date, let time):
            let local = AlarmManager.Alarm.LocalDateTime(year: date.year, month: date.month, day: date.day, time: kitTime(time))
            let components = DateComponents(year: date.year, month: date.month, day: date.day, hour: time.hour, minute: time.minute)
            let instant = fireDate ?? calendar.date(from: components) ?? Date.distantFuture
            return ReadBack(schedule: .fixed(instant), localDateTime: local)
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
