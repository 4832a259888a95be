import Foundation
import Testing
@testable import TocsinCommandLine
import TocsinCore

/// `tocsin alarm TIME [date or repeat] [options]`, at `t0`: Friday 15 January 2027, 08:00 UTC.
@Suite struct AlarmCommandTests {
    /// The schedule `tocsin alarm arguments…` asks for, checking it succeeded.
    func schedule(_ arguments: String..., in world: TestWorld = TestWorld()) throws -> AlarmSchedule? {
        let run = world.run(["alarm"] + arguments)
        #expect(run.status == 0, "\(run.stderr)")
        return try #require(world.agent?.scheduled.first).schedule
    }

    @Test func setsTheNextSuchTimeAndSaysWhen() throws {
        let world = TestWorld()
        let run = world.run("alarm", "7:00")
        #expect(run.status == 0)
        #expect(run.stdout == "5eed0000-0000-4000-8000-000000000001\n")
        #expect(run.stderr == "“Alarm” rings Sat 16 Jan 2027 07:00 UTC, in 23 h.\n")
        let request = try #require(world.agent?.scheduled.first)
        #expect(request.kind == .alarm)
        #expect(request.schedule == .timeOfDay(try TimeOfDay(hour: 7), weekdays: []))
        #expect(request.duration == 0)
    }

    @Test func theOutputOptionsReachTheRequest() throws {
        for (arguments, choice) in [(["--ring-level", "85"], OutputRaiseChoice.raise(toPercent: 85)), (["--no-raise"], .never)] {
            let world = TestWorld()
            let run = world.run(["alarm", "7:00"] + arguments)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try #require(world.agent?.scheduled.first).outputRaise == choice)
        }
    }

    @Test func aTimeStillAheadRingsToday() {
        #expect(TestWorld().run("alarm", "9:15pm").stderr == "“Alarm” rings Fri 15 Jan 2027 21:15 UTC, in 13 h 15 min.\n")
    }

    @Test func aRepeatingAlarmSaysHowItRepeats() throws {
        let world = TestWorld()
        let run = world.run("alarm", "6:30", "--repeat", "weekdays", "--title", "Wake up")
        #expect(run.stderr == "“Wake up” rings Mon 18 Jan 2027 06:30 UTC, in 2 d 22 h, then 06:30 on weekdays.\n")
        #expect(try #require(world.agent?.scheduled.first).schedule == .timeOfDay(try TimeOfDay(hour: 6, minute: 30), weekdays: Weekday.workdays))
    }

    @Test func dateOptionsMakeALocalDateAndTime() throws {
        #expect(try schedule("7:00", "--tomorrow") == .localDateTime(try LocalDate(year: 2027, month: 1, day: 16), try TimeOfDay(hour: 7)))
        #expect(try schedule("7am", "--in-days", "2") == .localDateTime(try LocalDate(year: 2027, month: 1, day: 17), try TimeOfDay(hour: 7)))
        #expect(try schedule("19:30", "--in-days", "0") == .localDateTime(try LocalDate(year: 2027, month: 1, day: 15), try TimeOfDay(hour: 19, minute: 30)))
        #expect(try schedule("7:00", "--date", "2027-03-01") == .localDateTime(try LocalDate(year: 2027, month: 3, day: 1), try TimeOfDay(hour: 7)))
    }

    @Test func anInstantOrFixedMakesAFixedAlarm() throws {
        #expect(try schedule("2027-02-01T07:00:00+01:00") == .fixed(at(16 * 86_400 + 22 * 3600)), "06:00 UTC on 1 February")
        #expect(try schedule("9:00", "--fixed") == .fixed(at(3600)))
    }

    /// A local time is read in the terminal's zone (and the agent's, here the same).
    @Test func localTimesFollowTheTerminalsZone() throws {
        let world = TestWorld()
        world.timeZone = TimeZoneRules(secondsEast: 3600)
        #expect(try schedule("10:00", "--fixed", in: world) == .fixed(at(3600)), "10:00 at UTC+1 is 09:00 UTC")
        let other = TestWorld()
        other.timeZone = TimeZoneRules(secondsEast: 3600)
        other.agent?.timeZone = other.timeZone
        #expect(other.run("alarm", "7:00").stderr == "“Alarm” rings Sat 16 Jan 2027 07:00 UTC+1, in 22 h.\n")
    }

    @Test func aPreAlertIsTheRequestsDuration() throws {
        let world = TestWorld()
        #expect(world.run("alarm", "7:00", "--pre-alert", "10m").status == 0)
        #expect(try #require(world.agent?.scheduled.first).duration == 600)
    }

    /// An alarm offers Snooze for as long as `tocsin config alarm-snooze` says, 9 minutes
    /// unless set, unless it says otherwise itself.
    @Test func anAlarmGetsTheConfiguredSnoozeUnlessItSaysOtherwise() throws {
        func snooze(_ arguments: String..., in world: TestWorld = TestWorld()) throws -> TimeInterval? {
            let run = world.run(["alarm", "7:00"] + arguments)
            #expect(run.status == 0, "\(run.stderr)")
            return try #require(world.agent?.scheduled.last).snoozeDuration
        }
        #expect(try snooze() == 540)
        #expect(try snooze("--snooze", "2m") == 120)
        #expect(try snooze("--no-snooze") == nil)
        #expect(try snooze("--button", "Next", "--on-button", "next") == nil)
        let configured = TestWorld()
        #expect(configured.run("config", "alarm-snooze", "5m").status == 0)
        #expect(try snooze(in: configured) == 300)
    }

    /// A settings file that cannot be read costs no alarm: it gets the default Snooze, and a note.
    @Test func anUnreadableSettingsFileIsSaidAndTheAlarmSetWithTheDefault() throws {
        let world = TestWorld()
        let file = world.configHome.appendingPathComponent("tocsin/config.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{\"alarm-snooze-seconds\": ".utf8).write(to: file)
        let run = world.run("alarm", "7:00")
        #expect(run.status == 0)
        #expect(run.stderr.hasPrefix("\(file.path) could not be read ("), "\(run.stderr)")
        #expect(run.stderr.hasSuffix("); this alarm gets the default Snooze (9 min).\n“Alarm” rings Sat 16 Jan 2027 07:00 UTC, in 23 h.\n"), "\(run.stderr)")
        #expect(try #require(world.agent?.scheduled.first).snoozeDuration == 540)
    }

    static let mistakes: [([String], String)] = [
        ([], "Missing TIME."),
        (["7:00", "8:00"], "Unexpected argument “8:00”."),
        (["7:00", "--json"], "Unknown option “--json” for “tocsin alarm”."),
        (["7:00", "--date"], "--date needs a value."),
        (["25:00"], "“25:00” is not a time of day: the hour goes from 0 to 23. Try 07:00, 19:30, 7am or 7:15pm."),
        (["7:00", "--date", "2026-13-01"], "“2026-13-01” is not a date: the month goes from 01 to 12."),
        (["7:00", "--repeat", "someday"],
         "“someday” is not a repeat: “someday” is not a day. Try daily, weekdays, weekends, once, or days such as mon,wed,fri or mon-fri."),
        (["7:00", "--in-days", "x"], "--in-days takes a number of days from 0 to 3660, not “x”."),
        (["7:00", "--in-days", "5000"], "--in-days takes a number of days from 0 to 3660, not “5000”."),
        (["7:00", "--in-days", "1", "--tomorrow"], "Give one of --date, --in-days and --tomorrow, not --in-days and --tomorrow."),
        (["7:00", "--date", "2030-01-01", "--in-days", "2", "--tomorrow"],
         "Give one of --date, --in-days and --tomorrow, not --date and --in-days and --tomorrow."),
        (["7:00", "--repeat", "daily", "--date", "2030-01-01"], "An alarm repeats on weekdays or rings on a date, not both (--date with --repeat)."),
        (["7:00", "--repeat", "daily", "--fixed"], "A repeating alarm follows the local time; --fixed is for one alarm at one instant."),
        (["2099-01-01T07:00:00Z", "--repeat", "daily"], "“2099-01-01T07:00:00Z” is an exact instant; it takes no date or repeat options."),
        (["2099-01-01T07:00:00Z", "--tomorrow"], "“2099-01-01T07:00:00Z” is an exact instant; it takes no date or repeat options."),
        (["7:00", "--pre-alert", "5x"], "--pre-alert: “5x” is not a duration. Try 90, 90s, 3m, 1h30m, 1:30 or 01:02:03."),
        (["7:00", "--snooze", "1m", "--no-snooze"], "--snooze and --no-snooze say opposite things; give one."),
        // Times in the past, said with the instant understood and the time now.
        (["2020-01-01T07:00:00Z"], "The alarm time is in the past (understood as Wed 1 Jan 2020 07:00 UTC); it is now Fri 15 Jan 2027 08:00 UTC."),
        (["7:00", "--date", "2020-01-01"],
         "“2020-01-01 07:00” is in the past (understood as Wed 1 Jan 2020 07:00 UTC); it is now Fri 15 Jan 2027 08:00 UTC."),
        (["7:00", "--in-days", "0"],
         "“2027-01-15 07:00” is in the past (understood as Fri 15 Jan 2027 07:00 UTC); it is now Fri 15 Jan 2027 08:00 UTC."),
        (["7:00", "--in-days", "0", "--fixed"],
         "“2027-01-15 07:00” is in the past (understood as Fri 15 Jan 2027 07:00 UTC); it is now Fri 15 Jan 2027 08:00 UTC."),
    ]

    /// Each mistake is a usage error (exit 2) with its message, said before the agent is asked.
    @Test(arguments: mistakes)
    func eachMistakeIsAUsageError(_ arguments: [String], _ message: String) {
        let world = TestWorld()
        let run = world.run(["alarm"] + arguments)
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == "tocsin: \(message)\nSee “tocsin alarm --help”.\n")
        #expect(run.connections == 0)
    }
}
