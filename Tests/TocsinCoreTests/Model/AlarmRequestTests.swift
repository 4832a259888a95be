import Foundation
import Testing
@testable import TocsinCore
import TocsinFiles
import TocsinTestSupport

@Suite("AlarmRequest validation")
struct AlarmRequestTests {
    func make(_ request: AlarmRequest) throws(AlarmInputError) -> Alarm {
        try request.makeAlarm(id: fixedID(1), now: t0)
    }

    func message(_ request: AlarmRequest) throws -> String {
        try #require(throws: AlarmInputError.self) { try make(request) }.message
    }

    // MARK: accepted requests

    @Test("A minimal request gets the defaults: “Timer”, 10 min ring limit, no button, standard sound")
    func defaults() throws {
        let alarm = try make(AlarmRequest(duration: 90))
        #expect(alarm == Alarm(
            id: fixedID(1), title: "Timer", kind: .timer, countdownDuration: 90, snoozeDuration: nil,
            secondaryButton: nil, sound: .standard, ringLimit: 600, hooks: AlarmHooks(),
            state: .countdown(CountdownPhase(fireDate: at(90), duration: 90)), createdAt: t0
        ))
        #expect(AlarmRequest.defaultRingLimit == 600)
        #expect(AlarmRequest.defaultTitle == "Timer")
    }

    @Test("Every field is carried into the alarm")
    func fullRequest() throws {
        let hooks = AlarmHooks([.fire: "notify-send hi", .stop: "true"])
        let alarm = try make(AlarmRequest(title: "Tea", duration: 180, snoozeDuration: 60, secondaryButtonLabel: "Again",
                                          sound: .themeEvent("bell"), ringLimit: 30, hooks: hooks))
        #expect(alarm.title == "Tea")
        #expect(alarm.snoozeDuration == 60)
        #expect(alarm.secondaryButton == SecondaryButton(label: "Again", behavior: .countdown))
        #expect(alarm.sound == .themeEvent("bell"))
        #expect(alarm.ringLimit == 30)
        #expect(alarm.hooks == hooks)
    }

    @Test("A snooze duration alone gives a “Snooze” button")
    func snoozeButton() throws {
        #expect(try make(AlarmRequest(duration: 60, snoozeDuration: 300)).secondaryButton == SecondaryButton(label: "Snooze", behavior: .countdown))
        #expect(AlarmRequest.defaultSnoozeLabel == "Snooze")
    }

    @Test("A snooze without a button: snoozable, nothing shown; a label or no snooze duration is refused")
    func snoozeWithoutButton() throws {
        let alarm = try make(AlarmRequest(duration: 60, snoozeDuration: 300, snoozeButton: false))
        #expect(alarm.secondaryButton == nil)
        #expect(alarm.snoozeDuration == 300, "tocsin snooze and the app's countdown(id:) still snooze it")
        #expect(try message(AlarmRequest(duration: 60, snoozeDuration: 300, snoozeButton: false, secondaryButtonLabel: "Later"))
                == "A button label needs a button: the snooze has none (“snooze-button” false).")
        #expect(try message(AlarmRequest(duration: 60, snoozeButton: false))
                == "A snooze without a button (“snooze-button” false) needs a snooze duration.")
    }

    @Test("A secondary hook with a label gives a custom button")
    func customButton() throws {
        let alarm = try make(AlarmRequest(duration: 60, secondaryButtonLabel: "Next step", hooks: AlarmHooks([.secondary: "next"])))
        #expect(alarm.secondaryButton == SecondaryButton(label: "Next step", behavior: .custom))
        #expect(alarm.snoozeDuration == nil)
    }

    @Test("Limits are inclusive: a year-long timer, a day of snooze and ring limit, tiny durations",
          arguments: [
            AlarmRequest(duration: AlarmRequest.maximumDuration),
            AlarmRequest(duration: 0.001),
            AlarmRequest(duration: 60, snoozeDuration: AlarmRequest.maximumSnoozeOrRingLimit),
            AlarmRequest(duration: 60, ringLimit: AlarmRequest.maximumSnoozeOrRingLimit),
            AlarmRequest(duration: 60, ringLimit: 0.5),
          ])
    func limitsInclusive(request: AlarmRequest) throws {
        _ = try make(request)
        #expect(AlarmRequest.maximumDuration == 366 * 86_400)
        #expect(AlarmRequest.maximumSnoozeOrRingLimit == 86_400)
    }

    // MARK: alarms

    /// `t0` is Friday 2027-01-15 08:00 UTC (09:00 in Berlin).
    func makeAlarm(_ request: AlarmRequest, in zone: TimeZoneRules = .utc) throws(AlarmInputError) -> Alarm {
        try request.makeAlarm(id: fixedID(1), now: t0, timeZone: zone)
    }

    func alarmMessage(_ request: AlarmRequest, in zone: TimeZoneRules = .utc) throws -> String {
        try #require(throws: AlarmInputError.self) { try makeAlarm(request, in: zone) }.message
    }

    @Test("A minimal alarm: “Alarm”, no pre-alert, waiting for its instant, 10 min ring and late limits")
    func alarmDefaults() throws {
        let alarm = try makeAlarm(AlarmRequest(kind: .alarm, schedule: .fixed(at(3600)), duration: 0))
        #expect(alarm == Alarm(
            id: fixedID(1), title: "Alarm", kind: .alarm, schedule: .fixed(at(3600)), countdownDuration: 0, snoozeDuration: nil,
            secondaryButton: nil, sound: .standard, ringLimit: 600, lateLimit: 600, hooks: AlarmHooks(),
            state: .scheduled(fireDate: at(3600)), createdAt: t0
        ))
        #expect(alarm.nextDeadline == at(3600))
        #expect(AlarmRequest.defaultAlarmTitle == "Alarm")
        #expect(try makeAlarm(AlarmRequest(kind: .alarm, schedule: .fixed(at(3600)), title: " \t", duration: 0)).title == "Alarm")
        #expect(try makeAlarm(AlarmRequest(kind: .alarm, schedule: .fixed(at(3600)), title: "Call Ada", duration: 0)).title == "Call Ada")
    }

    @Test("A timer takes no schedule; an alarm needs one")
    func kindAndSchedule() throws {
        #expect(try alarmMessage(AlarmRequest(schedule: .fixed(at(60)), duration: 60))
                == "A timer has a duration, not a schedule; schedule an alarm instead.")
        #expect(try alarmMessage(AlarmRequest(kind: .alarm, duration: 0))
                == "An alarm needs a schedule: a time, a date and time, or an instant.")
        #expect(try alarmMessage(AlarmRequest(kind: .alarm, duration: 60))
                == "An alarm needs a schedule: a time, a date and time, or an instant.")
    }

    @Test("An alarm's duration is its pre-alert: it waits scheduled until the window opens, or counts down at once inside it", arguments: [
        (600.0, AlarmState.scheduled(fireDate: at(3600)), at(3000)),
        (3599, .scheduled(fireDate: at(3600)), at(1)),
        (3600, .countdown(CountdownPhase(fireDate: at(3600), duration: 3600, followsWallClock: true)), at(3600)),
        (86_400, .countdown(CountdownPhase(fireDate: at(3600), duration: 86_400, followsWallClock: true)), at(3600)),
    ])
    func preAlert(preAlert: TimeInterval, state: AlarmState, deadline: Date) throws {
        let alarm = try makeAlarm(AlarmRequest(kind: .alarm, schedule: .fixed(at(3600)), duration: preAlert))
        #expect(alarm.countdownDuration == preAlert)
        #expect(alarm.state == state)
        #expect(alarm.nextDeadline == deadline)
    }

    @Test("A bad pre-alert is refused like the other durations, by its name", arguments: [
        (-5.0, "The pre-alert countdown must be longer than zero (got -5 s)."),
        (.nan, "The pre-alert countdown must be a finite number of seconds (got nan)."),
        (.infinity, "The pre-alert countdown must be a finite number of seconds (got inf)."),
        (86_401, "The pre-alert countdown 1 d 1 s is too long; at most 1 d is accepted."),
    ])
    func badPreAlert(preAlert: TimeInterval, expected: String) throws {
        #expect(try alarmMessage(AlarmRequest(kind: .alarm, schedule: .fixed(at(3600)), duration: preAlert)) == expected)
    }

    @Test("A one-shot time of day is stored pinned to the day it will ring; other schedules are stored as given", arguments: [
        (AlarmSchedule.timeOfDay(Fixture.time(7), weekdays: []), "UTC",
         AlarmSchedule.localDateTime(Fixture.date(2027, 1, 16), Fixture.time(7)), at(82_800)),           // tomorrow: 07:00 is past
        (.timeOfDay(Fixture.time(9), weekdays: []), "UTC", .localDateTime(Fixture.date(2027, 1, 15), Fixture.time(9)), at(3600)),
        (.timeOfDay(Fixture.time(9), weekdays: []), "Europe/Berlin",                                     // 09:00 is now in Berlin: tomorrow
         .localDateTime(Fixture.date(2027, 1, 16), Fixture.time(9)), at(86_400)),
        (.timeOfDay(Fixture.time(7), weekdays: Weekday.workdays), "UTC", .timeOfDay(Fixture.time(7), weekdays: Weekday.workdays), at(255_600)),
        (.localDateTime(Fixture.date(2027, 2, 1), Fixture.time(9, 30)), "UTC", .localDateTime(Fixture.date(2027, 2, 1), Fixture.time(9, 30)), at(1_474_200)),
        (.fixed(at(10)), "Europe/Berlin", .fixed(at(10)), at(10)),
    ])
    func storedSchedule(schedule: AlarmSchedule, zone: String, stored: AlarmSchedule, fireDate: Date) throws {
        let alarm = try makeAlarm(AlarmRequest(kind: .alarm, schedule: schedule, duration: 0), in: Fixture.zone(zone))
        #expect(alarm.schedule == stored)
        #expect(alarm.state == .scheduled(fireDate: fireDate))
    }

    @Test("A schedule in the past (or at this very instant) is refused, saying how it was understood", arguments: [
        (AlarmSchedule.fixed(at(-60)), "UTC", "The alarm time is in the past (understood as Fri 15 Jan 2027 07:59 UTC); it is now Fri 15 Jan 2027 08:00 UTC."),
        (.fixed(t0), "UTC", "The alarm time is in the past (understood as Fri 15 Jan 2027 08:00 UTC); it is now Fri 15 Jan 2027 08:00 UTC."),
        (.localDateTime(Fixture.date(2027, 1, 15), Fixture.time(7)), "UTC",
         "“2027-01-15 07:00” is in the past (understood as Fri 15 Jan 2027 07:00 UTC); it is now Fri 15 Jan 2027 08:00 UTC."),
        (.localDateTime(Fixture.date(2027, 1, 15), Fixture.time(8, 30)), "Europe/Berlin",
         "“2027-01-15 08:30” is in the past (understood as Fri 15 Jan 2027 08:30 UTC+1); it is now Fri 15 Jan 2027 09:00 UTC+1."),
    ])
    func pastSchedule(schedule: AlarmSchedule, zone: String, expected: String) throws {
        #expect(try alarmMessage(AlarmRequest(kind: .alarm, schedule: schedule, duration: 0), in: Fixture.zone(zone)) == expected)
    }

    @Test("Late limit: 10 minutes unless given, from a fraction of a second to a day, for timers and alarms alike")
    func lateLimit() throws {
        #expect(try make(AlarmRequest(duration: 60)).lateLimit == 600)
        #expect(try make(AlarmRequest(duration: 60, lateLimit: 0.5)).lateLimit == 0.5)
        #expect(try makeAlarm(AlarmRequest(kind: .alarm, schedule: .fixed(at(60)), duration: 0, lateLimit: 86_400)).lateLimit == 86_400)
        #expect(try message(AlarmRequest(duration: 60, lateLimit: 0)) == "The late limit must be longer than zero (got 0 s).")
        #expect(try message(AlarmRequest(duration: 60, lateLimit: .nan)) == "The late limit must be a finite number of seconds (got nan).")
        #expect(try alarmMessage(AlarmRequest(kind: .alarm, schedule: .fixed(at(60)), duration: 0, lateLimit: 86_401))
                == "The late limit 1 d 1 s is too long; at most 1 d is accepted.")
    }

    // MARK: durations

    struct BadDuration: Sendable, CustomTestStringConvertible {
        var request: AlarmRequest
        var expected: [String]
        var testDescription: String { expected.joined(separator: " / ") }
    }

    static let badDurations: [BadDuration] = [
        .init(request: AlarmRequest(duration: 0), expected: ["The timer duration must be longer than zero", "(got 0 s)"]),
        .init(request: AlarmRequest(duration: -5), expected: ["The timer duration must be longer than zero", "(got -5 s)"]),
        .init(request: AlarmRequest(duration: .infinity), expected: ["The timer duration must be a finite number of seconds (got inf)."]),
        .init(request: AlarmRequest(duration: -.infinity), expected: ["The timer duration must be a finite number of seconds (got -inf)."]),
        .init(request: AlarmRequest(duration: .nan), expected: ["The timer duration must be a finite number of seconds (got nan)."]),
        .init(request: AlarmRequest(duration: 366 * 86_400 + 1), expected: ["The timer duration 366 d 1 s is too long; at most 366 d is accepted."]),
        .init(request: AlarmRequest(duration: 400 * 86_400), expected: ["The timer duration 400 d is too long; at most 366 d is accepted."]),
        .init(request: AlarmRequest(duration: 60, snoozeDuration: 0), expected: ["The snooze duration must be longer than zero (got 0 s)."]),
        .init(request: AlarmRequest(duration: 60, snoozeDuration: -60), expected: ["The snooze duration must be longer than zero (got -1 min)."]),
        .init(request: AlarmRequest(duration: 60, snoozeDuration: .infinity), expected: ["The snooze duration must be a finite number of seconds (got inf)."]),
        .init(request: AlarmRequest(duration: 60, snoozeDuration: 86_401), expected: ["The snooze duration 1 d 1 s is too long; at most 1 d is accepted."]),
        .init(request: AlarmRequest(duration: 60, ringLimit: 0), expected: ["The ring limit must be longer than zero (got 0 s)."]),
        .init(request: AlarmRequest(duration: 60, ringLimit: -0.5), expected: ["The ring limit must be longer than zero (got -0.5 s)."]),
        .init(request: AlarmRequest(duration: 60, ringLimit: .nan), expected: ["The ring limit must be a finite number of seconds (got nan)."]),
        .init(request: AlarmRequest(duration: 60, ringLimit: -.infinity), expected: ["The ring limit must be a finite number of seconds (got -inf)."]),
        .init(request: AlarmRequest(duration: 60, ringLimit: 2 * 86_400), expected: ["The ring limit 2 d is too long; at most 1 d is accepted."]),
    ]

    @Test("Zero, negative, infinite, NaN and too long durations are refused, naming the field and value",
          arguments: badDurations)
    func badDuration(bad: BadDuration) throws {
        let text = try message(bad.request)
        for part in bad.expected {
            #expect(text.contains(part), "“\(text)” should contain “\(part)”")
        }
    }

    // An absurdly large but finite duration (a D-Bus client can send any double) must be refused as
    // too long. Formatting it for the message used to trap (`Int(…)` beyond Int.max), a remote crash
    // of the agent; run in a child process so a regression fails this test instead of the whole run.
    @Test("A huge finite duration is refused with a message, not a crash", arguments: [
        (1e20, "The timer duration 1e+20 s is too long; at most 366 d is accepted."),
        (-1e20, "The timer duration must be longer than zero (got -1e+20 s)."),
        (1e300, "The timer duration 1e+300 s is too long; at most 366 d is accepted."),
        (.greatestFiniteMagnitude, "The timer duration 1.7976931348623157e+308 s is too long; at most 366 d is accepted."),
    ])
    func hugeDurationDoesNotCrash(duration: Double, expected: String) async throws {
        let result = try await #require(processExitsWith: .success, observing: [\.standardOutputContent]) { [duration] in
            do throws(AlarmInputError) {
                _ = try AlarmRequest(duration: duration).makeAlarm(id: UUID(), now: Date(timeIntervalSince1970: 0))
                print("accepted")
            } catch {
                print(error.message)
            }
        }
        #expect(String(decoding: result.standardOutputContent, as: UTF8.self) == expected + "\n")
    }

    // DurationFormat.spoken writes words below 3e13 s and the raw number of seconds from there on.
    @Test("Far too long durations name the value, in words below 3e13 s and in seconds above", arguments: [
        (1e13, "The timer duration 115740740 d 17 h is too long; at most 366 d is accepted."),
        (3e13 - 1, "The timer duration 347222222 d 5 h is too long; at most 366 d is accepted."),
        (3e13, "The timer duration 30000000000000.0 s is too long; at most 366 d is accepted."),
        (1e18, "The timer duration 1e+18 s is too long; at most 366 d is accepted."),
    ])
    func largeDurationRefused(duration: TimeInterval, expected: String) throws {
        #expect(try message(AlarmRequest(duration: duration)) == expected)
    }

    // Found by the fuzzer: a volume of 1e300 trapped while its percentage was written.
    @Test("An absurd volume is refused with the number as sent", arguments: [
        (2.0, "The volume must be above 0 % and at most 100 % (got 200 %)."),
        (-0.5, "The volume must be above 0 % and at most 100 % (got -50 %)."),
        (1e300, "The volume must be above 0 % and at most 100 % (got 1e+300)."),
        (-1e20, "The volume must be above 0 % and at most 100 % (got -1e+20)."),
        (.nan, "The volume must be above 0 % and at most 100 % (got nan)."),
    ])
    func absurdVolume(volume: Double, expected: String) throws {
        #expect(try message(AlarmRequest(duration: 60, volume: volume)) == expected)
    }

    // Found by the fuzzer: an instant in the year 300 000 was accepted, and the agent trapped arming
    // its timer on every start after that.
    @Test("An alarm more than a century ahead is refused; one just inside is accepted")
    func furthestAhead() throws {
        let limit = AlarmRequest.furthestAhead
        #expect(try message(AlarmRequest(kind: .alarm, schedule: .fixed(at(limit + 1)), duration: 0))
                == "The alarm would ring more than 100 years from now; Tocsin keeps alarms for the next century.")
        #expect(try message(AlarmRequest(kind: .alarm, schedule: .fixed(Date(timeIntervalSince1970: 1e16)), duration: 0))
                .contains("more than 100 years"))
        #expect(try make(AlarmRequest(kind: .alarm, schedule: .fixed(at(limit - 1)), duration: 0)).title == "Alarm")
    }

    @Test("Huge snooze durations and ring limits are refused the same way")
    func hugeSnoozeAndRingLimit() throws {
        // Below Int.max, so that a regression fails here rather than trapping the whole run.
        #expect(try message(AlarmRequest(duration: 60, snoozeDuration: 1e17))
                == "The snooze duration 1e+17 s is too long; at most 1 d is accepted.")
        #expect(try message(AlarmRequest(duration: 60, ringLimit: -1e17))
                == "The ring limit must be longer than zero (got -1e+17 s).")
    }

    // MARK: buttons

    @Test("A snooze duration and a custom button command conflict")
    func snoozeAndCustomConflict() throws {
        let text = try message(AlarmRequest(duration: 60, snoozeDuration: 300, secondaryButtonLabel: "Next", hooks: AlarmHooks([.secondary: "next"])))
        #expect(text == "A custom button replaces Snooze: give either a snooze duration or a custom button command, not both.")
        // The conflict is about the secondary hook and the snooze, with or without a label.
        #expect(try message(AlarmRequest(duration: 60, snoozeDuration: 300, hooks: AlarmHooks([.secondary: "next"]))) == text)
    }

    @Test("A label without snooze or command is refused")
    func labelAlone() throws {
        #expect(try message(AlarmRequest(duration: 60, secondaryButtonLabel: "Again"))
                == "A button label needs either a snooze duration (to relabel Snooze) or a command to run.")
    }

    @Test("A blank label counts as no label", arguments: ["", "   ", "\t\n"])
    func blankLabel(label: String) throws {
        #expect(try make(AlarmRequest(duration: 60, secondaryButtonLabel: label)).secondaryButton == nil)
        #expect(try make(AlarmRequest(duration: 60, snoozeDuration: 5, secondaryButtonLabel: label)).secondaryButton?.label == "Snooze")
    }

    @Test("A secondary hook without a label is refused", arguments: [nil, "  "] as [String?])
    func customWithoutLabel(label: String?) throws {
        #expect(try message(AlarmRequest(duration: 60, secondaryButtonLabel: label, hooks: AlarmHooks([.secondary: "next"])))
                == "A custom button command needs a button label.")
    }

    @Test("Button label: at most 40 characters")
    func labelLength() throws {
        let forty = String(repeating: "x", count: 40)
        #expect(try make(AlarmRequest(duration: 60, snoozeDuration: 5, secondaryButtonLabel: forty)).secondaryButton?.label == forty)
        #expect(try message(AlarmRequest(duration: 60, snoozeDuration: 5, secondaryButtonLabel: forty + "x"))
                == "The button label is 41 characters long; at most 40 are accepted.")
    }

    // MARK: titles

    @Test("Blank or missing titles become “Timer”", arguments: [nil, "", "   ", "\t", "\n\r", "\u{7}\u{1B}", "\u{200B}", "\u{200D} \u{AD}"] as [String?])
    func blankTitle(title: String?) throws {
        #expect(try make(AlarmRequest(title: title, duration: 60)).title == "Timer")
    }

    @Test("Control characters in titles become spaces; the ends are trimmed", arguments: [
        ("Tea\tfor\ntwo", "Tea for two"),
        ("  Pasta  ", "Pasta"),
        ("\u{1B}[31mRed\u{1B}[0m", "[31mRed [0m"),
        ("Bell\u{7}", "Bell"),
        ("a\u{0}b", "a b"),
        ("a\r\nb", "a  b"),
        ("x\u{7F}y\u{85}z", "x y z"),
        ("Crème brûlée 🍮", "Crème brûlée 🍮"),
    ])
    func titleCleaning(raw: String, cleaned: String) throws {
        #expect(try make(AlarmRequest(title: raw, duration: 60)).title == cleaned)
    }

    @Test("Title: at most 200 characters (counted as characters, after cleaning)")
    func titleLength() throws {
        let limit = String(repeating: "é", count: 200)
        #expect(try make(AlarmRequest(title: limit, duration: 60)).title == limit)
        #expect(try make(AlarmRequest(title: String(repeating: "👍🏽", count: 200), duration: 60)).title.count == 200)
        #expect(try make(AlarmRequest(title: "  " + limit + "\n", duration: 60)).title == limit)
        #expect(try message(AlarmRequest(title: limit + "e", duration: 60)) == "The title is 201 characters long; at most 200 are accepted.")
        #expect(AlarmRequest.maximumTitleLength == 200)
    }

    // Format characters (Cf) are part of real text: U+200D ZERO WIDTH JOINER holds emoji sequences
    // together ("👨‍👩‍👧"), U+200C ZWNJ shapes Persian words, U+00AD soft hyphen marks hyphenation points.
    // (Cleaning used CharacterSet.controlCharacters, which is Cc *and* Cf, and split them.)
    @Test("Format characters that belong to the text are kept", arguments: [
        "👨‍👩‍👧 dinner",
        "می‌خواهم",
        "Blumen\u{AD}topf",
    ])
    func formatCharactersKept(title: String) throws {
        let cleaned = try make(AlarmRequest(title: title, duration: 60)).title
        #expect(cleaned == title, "got \(cleaned.debugDescription)")
        #expect(cleaned.unicodeScalars.elementsEqual(title.unicodeScalars))
    }

    // U+2028 LINE SEPARATOR / U+2029 PARAGRAPH SEPARATOR (Zl/Zp) are line breaks a one-line title must
    // not carry: they become spaces like the Cc controls, and are trimmed at the ends.
    @Test("Line and paragraph separators become spaces and are trimmed", arguments: [
        ("Tea\u{2028}", "Tea"),
        ("Tea\u{2029}time", "Tea time"),
        ("\u{2029}\u{2028}Tea\u{2028}for\u{2029}two\u{2028}", "Tea for two"),
    ])
    func lineSeparators(title: String, expected: String) throws {
        let cleaned = try make(AlarmRequest(title: title, duration: 60)).title
        #expect(cleaned == expected, "got \(cleaned.debugDescription)")
        #expect(!cleaned.unicodeScalars.contains { $0 == "\u{2028}" || $0 == "\u{2029}" })
    }

    @Test("A title of line separators alone is blank, so it becomes “Timer”")
    func onlyLineSeparators() throws {
        #expect(try make(AlarmRequest(title: "\u{2028}\u{2029} \u{2028}", duration: 60)).title == "Timer")
    }

    @Test("Button labels are cleaned the same way")
    func labelCleaning() throws {
        let alarm = try make(AlarmRequest(duration: 60, snoozeDuration: 5, secondaryButtonLabel: "\u{2028}Re\u{AD}peat\u{1B}"))
        #expect(alarm.secondaryButton?.label == "Re\u{AD}peat")
    }

    // MARK: hooks

    @Test("Empty hook commands are refused, naming the event",
          arguments: [(HookEvent.fire, ""), (.stop, "   "), (.cancel, "\n\t")])
    func emptyHook(event: HookEvent, command: String) throws {
        #expect(try message(AlarmRequest(duration: 60, hooks: AlarmHooks([event: command])))
                == "The \(event.rawValue) hook command is empty.")
    }

    @Test("Hook commands: at most 4096 bytes (UTF-8 bytes, not characters)")
    func hookLength() throws {
        let limit = String(repeating: "x", count: 4096)
        #expect(try make(AlarmRequest(duration: 60, hooks: AlarmHooks([.fire: limit]))).hooks[.fire] == limit)
        #expect(try message(AlarmRequest(duration: 60, hooks: AlarmHooks([.fire: limit + "x"])))
                == "The fire hook command is 4097 bytes long; at most 4096 are accepted.")
        // 2049 × “é” is 2049 characters but 4098 bytes.
        #expect(try message(AlarmRequest(duration: 60, hooks: AlarmHooks([.snooze: String(repeating: "é", count: 2049)])))
                == "The snooze hook command is 4098 bytes long; at most 4096 are accepted.")
    }

    @Test("Hook commands with NUL are refused", arguments: ["echo\0rm", "\0", "echo hi\0"])
    func nulHook(command: String) throws {
        #expect(try message(AlarmRequest(duration: 60, hooks: AlarmHooks([.stop: command])))
                == "The stop hook command contains a NUL character.")
    }

    @Test("Hook commands are kept verbatim (no trimming or cleaning)")
    func hookVerbatim() throws {
        let command = "  printf '%s\\n' \"$TOCSIN_TITLE\"\n"
        #expect(try make(AlarmRequest(duration: 60, hooks: AlarmHooks([.fire: command]))).hooks[.fire] == command)
    }
}
