import Foundation
import TocsinCore

/// `tocsin alarm TIME …`: an alarm at a local time (once, on a date, or repeating) or an instant.
enum AlarmCommand: Command {
    static let name = "alarm"
    static let summary = "set an alarm at a time of day, on a date, or repeating"
    static let help = """
        Usage: tocsin alarm TIME [--date YYYY-MM-DD | --in-days N | --tomorrow]
                                 [--repeat daily|weekdays|weekends|mon,tue,...] [--fixed]
                                 [--pre-alert DURATION] [options]

        Sets an alarm. TIME is a local time: 7:00, 07:00, 19:30, 7am, 7:15pm — or an exact
        instant such as 2026-12-01T07:00:00+01:00. Without a date it rings at the next TIME
        (today if still ahead, else tomorrow). Prints the new alarm's id on standard output and
        says on standard error when it rings.

        It rings with Stop and Snooze (after 9 minutes, or what tocsin config alarm-snooze
        says); --snooze DURATION sets this alarm's, --no-snooze leaves Snooze out, and a button
        of its own (--button LABEL --on-button CMD) takes Snooze's place.

        Local times follow the computer's time zone: an alarm at 07:00 rings at 07:00 wherever
        you are. A local time skipped by a daylight-saving change rings when the clock resumes;
        one that happens twice rings once, the first time.

          --date YYYY-MM-DD   ring on that date
          --in-days N         ring N days from today (--tomorrow is --in-days 1)
          --repeat DAYS       ring every such day: daily, weekdays, weekends, or days such as
                              mon,wed,fri or mon-fri
          --fixed             ring at that instant even if the time zone changes later
          --pre-alert DURATION
                              show a live countdown for DURATION before it rings

        Options:
        \(RingOptions.help)

        Examples: tocsin alarm 6:30 --repeat weekdays --title "Wake up" --snooze 5m
                  tocsin alarm 7am --in-days 2 --pre-alert 10m
        """

    static func run(_ arguments: [String], in context: CommandContext) throws(CommandError) {
        let parsed = try ParsedArguments(
            arguments, command: name,
            options: RingOptions.names.union(["--date", "--in-days", "--repeat", "--pre-alert"]),
            flags: RingOptions.flags.union(["--tomorrow", "--fixed"]))
        try parsed.expectPositionals(["TIME"], command: name)
        let settings: CommandLineSettings
        do {
            settings = try CommandLineSettingsStore(directory: context.settingsDirectory).load()
        } catch {
            // The alarm matters more than the setting: it is set, with the defaults, and said.
            context.output.note("\(error.message); this alarm gets the default Snooze (\(DurationFormat.spoken(CommandLineSettings.defaultAlarmSnooze))).")
            settings = .defaults
        }
        let options = try RingOptions(parsed, command: name).withDefaultSnooze(settings)
        let now = context.now()
        let zone = context.timeZone
        let schedule = try schedule(from: parsed, now: now, in: zone)
        let preAlert = try parsed.values["--pre-alert"].map { text throws(CommandError) in
            try RingOptions.duration(text, what: "--pre-alert", command: name)
        }
        let request = options.request(kind: .alarm, schedule: schedule, duration: preAlert ?? 0)
        let alarm = try RequestSender.schedule(request, now: now, command: name, in: context)
        if let fireDate = alarm.fireDate {
            var note = "“\(alarm.title)” rings \(ScheduleCalculator.describe(fireDate, in: zone)), in \(DurationFormat.spoken(fireDate.timeIntervalSince(now)))"
            if let schedule = alarm.schedule, schedule.isRepeating {
                note += ", then \(schedule.description(in: zone))"
            }
            context.output.note(note + ".")
        }
    }

    /// The schedule the command line describes, in the local zone.
    private static func schedule(from parsed: ParsedArguments, now: Date, in zone: TimeZoneRules) throws(CommandError) -> AlarmSchedule {
        let timeText = parsed.positionals[0]
        let dateOptions = ["--date", "--in-days"].filter { parsed.values[$0] != nil } + (parsed.flags.contains("--tomorrow") ? ["--tomorrow"] : [])
        guard dateOptions.count <= 1 else {
            throw .usage("Give one of --date, --in-days and --tomorrow, not \(dateOptions.joined(separator: " and ")).", command: name)
        }
        if let instant = try? Date(timeText, strategy: .iso8601) {
            guard dateOptions.isEmpty, parsed.values["--repeat"] == nil else {
                throw .usage("“\(timeText)” is an exact instant; it takes no date or repeat options.", command: name)
            }
            return .fixed(instant)
        }
        do throws(AlarmInputError) {
            let time = try TimeOfDayParser.parse(timeText)
            var schedule: AlarmSchedule
            if let repeatText = parsed.values["--repeat"] {
                guard dateOptions.isEmpty else {
                    throw AlarmInputError("An alarm repeats on weekdays or rings on a date, not both (\(dateOptions[0]) with --repeat).")
                }
                schedule = .timeOfDay(time, weekdays: try TimeOfDayParser.parseRepeat(repeatText))
            } else if let dateText = parsed.values["--date"] {
                schedule = .localDateTime(try TimeOfDayParser.parseDate(dateText), time)
            } else if let daysText = parsed.values["--in-days"] ?? (parsed.flags.contains("--tomorrow") ? "1" : nil) {
                guard let days = Int(daysText), (0...3660).contains(days) else {
                    throw AlarmInputError("--in-days takes a number of days from 0 to 3660, not “\(AlarmInputError.quotable(daysText.prefix(20)))”.")
                }
                schedule = .localDateTime(ScheduleCalculator.localDate(of: now, in: zone).adding(days: days), time)
            } else {
                schedule = .timeOfDay(time, weekdays: [])
            }
            if parsed.flags.contains("--fixed") {
                guard !schedule.isRepeating else {
                    throw AlarmInputError("A repeating alarm follows the local time; --fixed is for one alarm at one instant.")
                }
                schedule = .fixed(try ScheduleCalculator.firstFireDate(of: schedule, now: now, in: zone))
            }
            return schedule
        } catch {
            throw .usage(error.message, command: name)
        }
    }
}
