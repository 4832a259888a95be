import Foundation
import Testing
@testable import TocsinCore
import TocsinFiles
import TocsinTestSupport

@Suite("NotificationContentWriter")
struct NotificationContentTests {
    /// Times of day in UTC, British English (24-hour clock).
    let writer = NotificationContentWriter(timeZone: TimeZoneRules(identifier: "UTC")!, localeIdentifier: "en_GB")

    /// The id prefix the command-line hints use.
    static func short(_ alarm: Alarm) -> String { String(alarm.id.uuidString.lowercased().prefix(8)) }

    @Test("A ringing alert says when no sound can be played; Stop alone hints at Stop alone")
    func soundProblemAndStopOnlyHint() throws {
        var silent = writer
        silent.soundProblem = "no sound server reachable (Not available)"
        let alarm = Fixture.alarm(state: .alerting(since: at(60)))
        let content = try #require(silent.liveActivity(for: alarm, at: at(61)))
        #expect(content.body.hasSuffix("\nNo sound: no sound server reachable (Not available)."), "\(content.body)")
        #expect(content.commandLineHint == "Type tocsin stop to stop.")
        #expect(try #require(writer.liveActivity(for: alarm, at: at(61))).body.contains("No sound") == false)
    }

    @Test("Counting down: time left, end time, progress, Pause + Cancel, persistent, normal urgency")
    func countdown() throws {
        let alarm = Fixture.alarm(duration: 180) // t0 = 08:00:00 UTC, ends 08:03
        let content = try #require(writer.liveActivity(for: alarm, at: at(45)))
        #expect(content == NotificationContent(
            role: .countdown,
            summary: "Pasta",
            body: "2:15 remaining, ends 08:03.",
            progress: 25,
            actions: [NotificationContent.Action(key: "pause", label: "Pause"), NotificationContent.Action(key: "cancel", label: "Cancel")],
            urgency: .normal,
            isPersistent: true,
            commandLineHint: "Type tocsin pause \(Self.short(alarm)) to pause, tocsin cancel \(Self.short(alarm)) to cancel.",
            defaultIntent: .pause
        ))
    }

    @Test("Counting down: the time left is rounded up like the clock")
    func countdownRounding() throws {
        let alarm = Fixture.alarm(duration: 180)
        #expect(try #require(writer.liveActivity(for: alarm, at: t0)).body == "3:00 remaining, ends 08:03.")
        #expect(try #require(writer.liveActivity(for: alarm, at: at(0.4))).body == "3:00 remaining, ends 08:03.")
        #expect(try #require(writer.liveActivity(for: alarm, at: at(179.9))).body == "0:01 remaining, ends 08:03.")
        #expect(try #require(writer.liveActivity(for: alarm, at: t0)).progress == 0)
    }

    @Test("Counting down an hour or more uses h:mm:ss")
    func countdownLong() throws {
        let alarm = Fixture.alarm(duration: 5400)
        #expect(try #require(writer.liveActivity(for: alarm, at: at(1))).body == "1:29:59 remaining, ends 09:30.")
    }

    @Test("Paused: “Paused”, the time left, progress, Resume + Cancel")
    func paused() throws {
        let alarm = Fixture.alarm(state: .paused(PausedPhase(remaining: 49.5, duration: 60)))
        let content = try #require(writer.liveActivity(for: alarm, at: at(500)))
        #expect(content == NotificationContent(
            role: .paused,
            summary: "Pasta",
            body: "Paused, 0:50 remaining.",
            progress: 17,
            actions: [NotificationContent.Action(.resume, label: "Resume"), NotificationContent.Action(.cancel, label: "Cancel")],
            isPersistent: true,
            commandLineHint: "Type tocsin resume \(Self.short(alarm)) to resume, tocsin cancel \(Self.short(alarm)) to cancel.",
            defaultIntent: .resume
        ))
        #expect(content.urgency == .normal)
    }

    @Test("Ringing: critical, Stop plus the second button's label, no progress", arguments: [
        (Fixture.snoozeButton as SecondaryButton?, ["Stop", "Snooze"]),
        (SecondaryButton(label: "Repeat", behavior: .countdown), ["Stop", "Repeat"]),
        (Fixture.customButton, ["Stop", "Next step"]),
        (nil, ["Stop"]),
    ])
    func alerting(button: SecondaryButton?, labels: [String]) throws {
        let alarm = Fixture.alarm(duration: 180, snooze: 300, button: button, state: .alerting(since: at(180)))
        let content = try #require(writer.liveActivity(for: alarm, at: at(200)))
        #expect(content.summary == "Pasta")
        #expect(content.body == "Time’s up: 3:00 timer, rang at 08:03.")
        #expect(content.urgency == .critical)
        #expect(content.isPersistent)
        #expect(content.progress == nil)
        #expect(content.actions.map(\.label) == labels)
        #expect(content.actions.map(\.key) == ["stop", "secondary"].prefix(labels.count).map { $0 })
    }

    @Test("Ringing after a snooze still names the timer's own length and says when it rang again")
    func alertingAfterSnooze() throws {
        let alarm = Fixture.alarm(duration: 3723, snooze: 300, button: Fixture.snoozeButton, state: .alerting(since: at(5000)))
        #expect(try #require(writer.liveActivity(for: alarm, at: at(5001))).body == "Time’s up: 1:02:03 timer, rang at 09:23.")
    }

    @Test("A scheduled alarm shows no live activity")
    func scheduled() {
        #expect(writer.liveActivity(for: Fixture.alarm(state: .scheduled(fireDate: at(60))), at: t0) == nil)
    }

    @Test("An alarm ringing says so, since when (not when it was due), and its schedule", arguments: [
        (AlarmSchedule.timeOfDay(Fixture.time(7), weekdays: Weekday.workdays), "Alarm ringing since 08:01, set for 07:00 on weekdays."),
        (.timeOfDay(Fixture.time(6, 30), weekdays: Weekday.everyDay), "Alarm ringing since 08:01, set for 06:30 daily."),
        (.localDateTime(Fixture.date(2027, 1, 15), Fixture.time(8)), "Alarm ringing since 08:01."),
        (.fixed(t0), "Alarm ringing since 08:01."),
    ])
    func alerting(schedule: AlarmSchedule, body: String) throws {
        let alarm = Fixture.alarm(title: "Wake up", schedule: schedule, snooze: 540, button: Fixture.snoozeButton, state: .alerting(since: at(60)))
        let content = try #require(writer.liveActivity(for: alarm, at: at(61)))
        #expect(content == NotificationContent(
            role: .alert, summary: "Wake up", body: body,
            actions: [NotificationContent.Action(.stop, label: "Stop"), NotificationContent.Action(.secondary, label: "Snooze")],
            urgency: .critical, isPersistent: true,
            commandLineHint: "Type tocsin stop to stop, tocsin snooze to snooze.",
            defaultIntent: .stop
        ))
    }

    @Test("A snooze says so: its countdown, its pause and the ring after it")
    func snoozed() throws {
        var counting = Fixture.alarm(duration: 60, snooze: 300, button: Fixture.snoozeButton,
                                     state: .countdown(CountdownPhase(fireDate: at(400), duration: 300)))
        counting.snoozes = 1
        let countdown = try #require(writer.liveActivity(for: counting, at: at(101)))
        #expect(countdown.body == "Snoozed: 4:59 remaining, rings again at 08:06.")
        #expect(countdown.role == .countdown)
        var paused = counting
        paused.state = .paused(PausedPhase(remaining: 120, duration: 300))
        #expect(try #require(writer.liveActivity(for: paused, at: at(200))).body == "Snooze paused, 2:00 remaining.")
        var ringing = counting
        ringing.state = .alerting(since: at(400))
        #expect(try #require(writer.liveActivity(for: ringing, at: at(401))).body == "Time’s up again: snoozed once, rang again at 08:06 (1:00 timer).")
        ringing.snoozes = 2
        #expect(try #require(writer.liveActivity(for: ringing, at: at(401))).body.hasPrefix("Time’s up again: snoozed twice,"))
        var alarm = Fixture.alarm(title: "Wake up", schedule: .timeOfDay(Fixture.time(6, 30), weekdays: Weekday.everyDay), snooze: 540,
                                  button: Fixture.snoozeButton, state: .alerting(since: at(60)))
        alarm.snoozes = 3
        #expect(try #require(writer.liveActivity(for: alarm, at: at(61))).body == "Alarm ringing again since 08:01, snoozed 3 times, set for 06:30 daily.")
    }

    @Test("A fixed instant's ring is told in the writer's zone; a one-shot does not repeat its own time")
    func alertingFixedInZone() throws {
        let berlin = NotificationContentWriter(timeZone: Fixture.zone("Europe/Berlin"), localeIdentifier: "en_GB")
        let alarm = Fixture.alarm(title: "Call", schedule: .fixed(t0), state: .alerting(since: t0))
        #expect(try #require(berlin.liveActivity(for: alarm, at: t0)).body == "Alarm ringing since 09:00.")
    }

    @Test("An alarm's pre-alert countdown looks like a timer's: time left, end, progress, Pause + Cancel")
    func preAlert() throws {
        let alarm = Fixture.alarm(title: "Wake up", schedule: .fixed(at(900)), duration: 900,
                                  state: .countdown(CountdownPhase(fireDate: at(900), duration: 900, followsWallClock: true)))
        #expect(try #require(writer.liveActivity(for: alarm, at: at(450))) == NotificationContent(
            role: .countdown, summary: "Wake up", body: "7:30 remaining, ends 08:15.", progress: 50,
            actions: [NotificationContent.Action(.pause, label: "Pause"), NotificationContent.Action(.cancel, label: "Cancel")],
            urgency: .normal, isPersistent: true,
            commandLineHint: "Type tocsin pause \(Self.short(alarm)) to pause, tocsin cancel \(Self.short(alarm)) to cancel.",
            defaultIntent: .pause
        ))
    }

    @Test("Missed notice of a repeating alarm: when it was due, the late limit, and its next ring; not persistent, no buttons")
    func missedRepeating() throws {
        // Weekdays at 09:00 UTC, due Friday 2027-01-15 09:00, noticed on Saturday: next is Monday.
        let alarm = Fixture.alarm(title: "Stand-up", schedule: .timeOfDay(Fixture.time(9), weekdays: Weekday.workdays),
                                  lateLimit: 900, state: .scheduled(fireDate: at(3600)))
        let event = try #require(alarm.advanced(to: at(86_400)))
        #expect(event.kind == .missed)
        #expect(!event.removesAlarm)
        let notice = writer.missedNotice(for: event.alarm, dueAt: try #require(event.dueDate))
        #expect(notice.summary == "Missed: Stand-up (09:00)")
        #expect(notice.body.hasPrefix("It was due at 09:00 on "))
        #expect(notice.body.contains("15"), "names the day it was due: \(notice.body)")
        #expect(notice.body.contains("15 min"), "names the late limit: \(notice.body)")
        #expect(notice.body.hasSuffix("Next: \(writer.dayOfMonth(at(3 * 86_400 + 3600))) 09:00."), "got \(notice.body)")
        #expect(notice.body.contains("18"), "Monday the 18th: \(notice.body)")
        #expect(!notice.isPersistent)
        #expect(notice.actions.isEmpty)
        #expect(notice.progress == nil)
        #expect(notice.urgency == .normal)
    }

    @Test("Missed notice of a one-shot alarm: when it was due and the late limit, and no next ring")
    func missedOneShot() throws {
        let alarm = Fixture.alarm(title: "Flight", schedule: .fixed(at(3600)), state: .scheduled(fireDate: at(3600)))
        let event = try #require(alarm.advanced(to: at(3600 + 601)))
        #expect(event.kind == .missed)
        #expect(event.removesAlarm)
        let notice = writer.missedNotice(for: event.alarm, dueAt: try #require(event.dueDate))
        #expect(notice.summary == "Missed: Flight (09:00)")
        #expect(notice.body.hasPrefix("It was due at 09:00 on "))
        #expect(notice.body.contains("10 min"))
        #expect(!notice.isPersistent)
        // The removed one-shot is carried as it was, still `.scheduled` at its due date: that is
        // not a next ring.
        #expect(!notice.body.contains("Next:"), "got \(notice.body)")
    }

    @Test("Unacknowledged notice: summary, ring limit and start, not persistent, no buttons")
    func unacknowledged() {
        let alarm = Fixture.alarm(ringLimit: 600, state: .alerting(since: at(60)))
        #expect(writer.unacknowledgedNotice(for: alarm) == NotificationContent(
            role: .notice,
            summary: "Not acknowledged: Pasta",
            body: "It rang for 10 min from 08:01 and nobody stopped it.",
            progress: nil, actions: [], urgency: .normal, isPersistent: false
        ))
        let odd = Fixture.alarm(ringLimit: 90, state: .alerting(since: at(3600 * 5 + 7 * 60)))
        #expect(writer.unacknowledgedNotice(for: odd).body == "It rang for 1 min 30 s from 13:07 and nobody stopped it.")
    }

    @Test("Unacknowledged notice for an alarm that is not ringing leaves out the start")
    func unacknowledgedNotRinging() {
        #expect(writer.unacknowledgedNotice(for: Fixture.alarm()).body == "It rang for 10 min and nobody stopped it.")
    }

    // The writer's own clock face (no ICU): 24-hour "08:03" with a leading zero, and a 12-hour
    // "8:03 AM" for the regions that read 12-hour clocks (en_US, not fr_CA).
    static let timesOfDay: [(zone: String, locale: String, offset: TimeInterval, text: String)] = [
        ("UTC", "en_GB", 183.0, "08:03"),
        ("UTC", "en_GB", 5 * 3600 + 300, "13:05"),
        ("UTC", "en_US", 183, "8:03 AM"),
        ("UTC", "en_US", 5 * 3600 + 300, "1:05 PM"),
        ("Asia/Tokyo", "en_GB", 183, "17:03"),
        ("Asia/Tokyo", "en_US", 183, "5:03 PM"),
        ("America/New_York", "en_US", 183, "3:03 AM"),
        ("America/New_York", "de_DE", 5 * 3600 + 300, "08:05"),
        ("Europe/Paris", "fr_FR", 183, "09:03"),
        ("America/Montreal", "fr_CA", 183, "03:03"),
        ("UTC", "en_US.UTF-8", 183, "8:03 AM"),
        ("UTC", "C", 183, "08:03"),
        ("UTC", "en_US", 16 * 3600, "12:00 AM"), // midnight
        ("UTC", "en_GB", 16 * 3600, "00:00"),
        ("UTC", "en_US", 4 * 3600, "12:00 PM"), // noon
    ]

    @Test("Time of day in an explicit zone and locale", arguments: timesOfDay)
    func timeOfDay(zone: String, locale: String, offset: TimeInterval, text: String) throws {
        let writer = NotificationContentWriter(timeZone: try #require(TimeZoneRules(identifier: zone)), localeIdentifier: locale)
        let written = writer.timeOfDay(at(offset))
        #expect(written == text, "got \(written.debugDescription)")
    }

    @Test("The end time in the body follows the writer's zone and locale")
    func bodyUsesLocale() throws {
        let writer = NotificationContentWriter(timeZone: try #require(TimeZoneRules(identifier: "America/New_York")), localeIdentifier: "en_US")
        let content = try #require(writer.liveActivity(for: Fixture.alarm(duration: 180), at: at(1)))
        #expect(content.body == "2:59 remaining, ends 3:03 AM.")
    }

    @Test("Actions carry intent raw values as keys; urgencies map to the notification spec's bytes")
    func actionKeysAndUrgency() {
        for intent in AlarmIntent.allCases {
            #expect(NotificationContent.Action(intent, label: "x") == NotificationContent.Action(key: intent.rawValue, label: "x"))
        }
        #expect([NotificationContent.Urgency.low, .normal, .critical].map(\.rawValue) == [0, 1, 2])
    }
}

/// The locale for times of day comes from the environment, as the C library reads it.
@Suite struct EnvironmentLocaleTests {
    @Test func theFirstVariableSetWinsAsInTheCLibrary() {
        #expect(NotificationContentWriter.environmentLocale([:]) == "C")
        #expect(NotificationContentWriter.environmentLocale(["LANG": "en_US.UTF-8"]) == "en_US.UTF-8")
        #expect(NotificationContentWriter.environmentLocale(["LANG": "de_DE.UTF-8", "LC_TIME": "en_US.UTF-8"]) == "en_US.UTF-8")
        #expect(NotificationContentWriter.environmentLocale(["LANG": "en_US.UTF-8", "LC_TIME": "en_US.UTF-8", "LC_ALL": "fr_CA.UTF-8"]) == "fr_CA.UTF-8")
        // An empty variable counts as unset.
        #expect(NotificationContentWriter.environmentLocale(["LC_ALL": "", "LANG": "en_AU.UTF-8"]) == "en_AU.UTF-8")
    }

    @Test func theEnvironmentsLocaleDecidesTheClock() throws {
        // 2026-09-21 13:05 UTC.
        let noon = Date(timeIntervalSince1970: 1_789_995_900)
        let american = NotificationContentWriter(timeZone: .utc, localeIdentifier: NotificationContentWriter.environmentLocale(["LANG": "en_US.UTF-8"]))
        let german = NotificationContentWriter(timeZone: .utc, localeIdentifier: NotificationContentWriter.environmentLocale(["LANG": "de_DE.UTF-8"]))
        #expect(american.timeOfDay(noon) == "1:05 PM")
        #expect(german.timeOfDay(noon) == "13:05")
    }
}
