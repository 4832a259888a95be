import Foundation
import Testing
@testable import TocsinCore
import TocsinTestSupport

@Suite("AlarmWireFormat")
struct AlarmWireFormatTests {
    func requestError(_ dictionary: [String: WireValue]) throws -> String {
        try #require(throws: AlarmInputError.self) { try AlarmWireFormat.decodeRequest(dictionary) }.message
    }

    func alarmError(_ dictionary: [String: WireValue]) throws -> String {
        try #require(throws: AlarmInputError.self) { try AlarmWireFormat.decodeAlarm(dictionary) }.message
    }

    // MARK: requests

    @Test("Request round trip", arguments: [
        AlarmRequest(duration: 60),
        AlarmRequest(title: "Tea", duration: 180.5, snoozeDuration: 300, secondaryButtonLabel: "Again",
                     sound: .themeEvent("phone-incoming-call"), ringLimit: 120,
                     hooks: AlarmHooks([.fire: "notify-send 'tea'", .snooze: "true", .stop: "x", .cancel: "y"])),
        AlarmRequest(title: "", duration: 1, sound: .file("/usr/share/sounds/a b.oga")),
        AlarmRequest(title: "Next", duration: 3600, secondaryButtonLabel: "Next step", hooks: AlarmHooks([.secondary: "next"])),
        AlarmRequest(duration: -5), // the wire format carries it; makeAlarm refuses it
        AlarmRequest(duration: 60, lateLimit: 30),
        AlarmRequest(duration: 60, phone: .never),
        AlarmRequest(duration: 60, phone: .ring(after: nil)),
        AlarmRequest(duration: 60, phone: .ring(after: 90)),
        AlarmRequest(duration: 60, outputRaise: .never),
        AlarmRequest(duration: 60, outputRaise: .raise(toPercent: nil)),
        AlarmRequest(duration: 60, outputRaise: .raise(toPercent: 85)),
        AlarmRequest(duration: 60, snoozeDuration: 300, snoozeButton: false),
        AlarmRequest(duration: 60, sound: .themeEvent("bell"), soundFallback: true),
        AlarmRequest(kind: .alarm, schedule: .fixed(Date(timeIntervalSince1970: 1_800_000_000)), duration: 0),
        AlarmRequest(kind: .alarm, schedule: .timeOfDay(Fixture.time(7), weekdays: [.monday, .tuesday]), title: "Wake up",
                     duration: 300, snoozeDuration: 540, ringLimit: 120, lateLimit: 1800, hooks: AlarmHooks([.missed: "echo missed"])),
        AlarmRequest(kind: .alarm, schedule: .timeOfDay(Fixture.time(6, 30), weekdays: []), duration: 0),
        AlarmRequest(kind: .alarm, schedule: .timeOfDay(Fixture.time(23, 59), weekdays: Weekday.everyDay), duration: 0),
        AlarmRequest(kind: .alarm, schedule: .localDateTime(Fixture.date(2026, 12, 1), Fixture.time(7)), duration: 3600),
    ])
    func requestRoundTrip(request: AlarmRequest) throws {
        #expect(try AlarmWireFormat.decodeRequest(AlarmWireFormat.encode(request)) == request)
    }

    @Test("A minimal request encodes kind, duration and sound only")
    func minimalRequestKeys() {
        #expect(AlarmWireFormat.encode(AlarmRequest(duration: 60)) == [
            "kind": .string("timer"), "duration": .double(60), "sound": .string("default"),
        ])
    }

    @Test("The snooze's button and the sound's fallback are sent only when they differ from the default, so an older agent takes the rest")
    func defaultFlagsStayOffTheWire() throws {
        #expect(AlarmWireFormat.encode(AlarmRequest(duration: 60, snoozeDuration: 30))["snooze-button"] == nil)
        #expect(AlarmWireFormat.encode(AlarmRequest(duration: 60, snoozeDuration: 30, snoozeButton: false))["snooze-button"] == .bool(false))
        #expect(AlarmWireFormat.encode(AlarmRequest(duration: 60))["sound-fallback"] == nil)
        #expect(AlarmWireFormat.encode(AlarmRequest(duration: 60, soundFallback: true))["sound-fallback"] == .bool(true))
        let absent = try AlarmWireFormat.decodeRequest(["duration": .double(60), "snooze": .double(30)])
        #expect(absent.snoozeButton && !absent.soundFallback)
    }

    @Test("A full timer request uses the documented key names")
    func fullRequestKeys() {
        let dictionary = AlarmWireFormat.encode(AlarmRequest(title: "Tea", duration: 60, snoozeDuration: 30, secondaryButtonLabel: "Again",
                                                            ringLimit: 90, lateLimit: 45, hooks: AlarmHooks([.fire: "f"])))
        #expect(Set(dictionary.keys) == ["kind", "title", "duration", "snooze", "button-label", "sound", "ring-limit", "late-limit", "hooks"])
        #expect(dictionary["snooze"] == .double(30))
        #expect(dictionary["ring-limit"] == .double(90))
        #expect(dictionary["late-limit"] == .double(45))
        #expect(dictionary["button-label"] == .string("Again"))
        #expect(dictionary["hooks"] == .stringMap(["fire": "f"]))
    }

    @Test("Alarm requests spell their schedule with at, time, weekdays and date, and their countdown as pre-alert", arguments: [
        (AlarmRequest(kind: .alarm, schedule: .fixed(Date(timeIntervalSince1970: 1_800_000_000.5)), duration: 0),
         ["kind": WireValue.string("alarm"), "sound": .string("default"), "at": .double(1_800_000_000.5)]),
        (AlarmRequest(kind: .alarm, schedule: .timeOfDay(Fixture.time(7), weekdays: [.tuesday, .monday]), duration: 300),
         ["kind": .string("alarm"), "sound": .string("default"), "time": .string("07:00"), "weekdays": .string("mon,tue"), "pre-alert": .double(300)]),
        (AlarmRequest(kind: .alarm, schedule: .timeOfDay(Fixture.time(7, 5), weekdays: []), duration: 0, lateLimit: 60),
         ["kind": .string("alarm"), "sound": .string("default"), "time": .string("07:05"), "late-limit": .double(60)]),
        (AlarmRequest(kind: .alarm, schedule: .localDateTime(Fixture.date(2026, 12, 1), Fixture.time(7)), duration: 0),
         ["kind": .string("alarm"), "sound": .string("default"), "time": .string("07:00"), "date": .string("2026-12-01")]),
    ])
    func alarmRequestKeys(request: AlarmRequest, expected: [String: WireValue]) throws {
        #expect(AlarmWireFormat.encode(request) == expected)
        #expect(try AlarmWireFormat.decodeRequest(expected) == request)
    }

    @Test("Every request key appears in some encoded request")
    func requestKeysCovered() {
        let requests = [
            AlarmRequest(title: "Tea", duration: 60, snoozeDuration: 30, secondaryButtonLabel: "Again", volume: 0.5, crescendo: 20,
                         phone: .ring(after: 15), outputRaise: .raise(toPercent: 40), ringLimit: 90, lateLimit: 45, hooks: AlarmHooks([.fire: "f"]), metadata: "{}"),
            AlarmRequest(kind: .alarm, schedule: .fixed(t0), duration: 0,
                         appIntents: AppIntentButtons(modes: [.stop: .background], executable: "/usr/bin/cook"), id: fixedID(7)),
            AlarmRequest(kind: .alarm, schedule: .timeOfDay(Fixture.time(7), weekdays: Weekday.workdays), duration: 60),
            AlarmRequest(kind: .alarm, schedule: .localDateTime(Fixture.date(2026, 12, 1), Fixture.time(7)), duration: 0),
            AlarmRequest(duration: 60, snoozeDuration: 300, snoozeButton: false, soundFallback: true),
        ]
        let seen = Set(requests.flatMap { AlarmWireFormat.encode($0).keys })
        #expect(seen == Set(AlarmWireFormat.RequestKey.allCases.map(\.rawValue)))
    }

    @Test("A request may name its alarm's id (any case); anything but a UUID is refused by name")
    func requestedID() throws {
        let id = UUID(uuidString: "6F1C2E0A-8D1B-4C55-9F3E-2B7A1D0C9E44")!
        #expect(AlarmWireFormat.encode(AlarmRequest(duration: 60, id: id))["id"] == .string("6f1c2e0a-8d1b-4c55-9f3e-2b7a1d0c9e44"))
        #expect(try AlarmWireFormat.decodeRequest(["duration": .double(60), "id": .string("6F1C2E0A-8D1B-4C55-9F3E-2B7A1D0C9E44")]).id == id)
        #expect(try AlarmWireFormat.decodeRequest(["duration": .double(60)]).id == nil)
        #expect(try requestError(["duration": .double(60), "id": .string("tea-1")])
                == "The “id” must be a UUID such as 6f1c2e0a-8d1b-4c55-9f3e-2b7a1d0c9e44 (got “tea-1”).")
        #expect(try requestError(["duration": .double(60), "id": .integer(7)]).contains("“id”"))
    }

    @Test("Alarm requests read weekdays as the CLI does, and accept integer seconds")
    func alarmRequestDecoding() throws {
        let request = try AlarmWireFormat.decodeRequest([
            "kind": .string("alarm"), "time": .string("7:30"), "weekdays": .string("weekdays"),
            "pre-alert": .integer(600), "late-limit": .integer(120),
        ])
        #expect(request == AlarmRequest(kind: .alarm, schedule: .timeOfDay(Fixture.time(7, 30), weekdays: Weekday.workdays),
                                        duration: 600, lateLimit: 120))
        #expect(try AlarmWireFormat.decodeRequest(["kind": .string("alarm"), "at": .integer(1_800_000_000)]).schedule
                == .fixed(Date(timeIntervalSince1970: 1_800_000_000)))
        #expect(try AlarmWireFormat.decodeRequest(["kind": .string("alarm"), "time": .string("noon")]).duration == 0, "no pre-alert")
    }

    @Test("Timer and alarm requests refuse each other's keys, and alarms need a time", arguments: [
        (["duration": WireValue.double(60), "at": .double(1_800_000_000)],
         "A timer takes a “duration”; “at”, “time”, “date”, “weekdays” and “pre-alert” are for alarms."),
        (["duration": .double(60), "time": .string("07:00")],
         "A timer takes a “duration”; “at”, “time”, “date”, “weekdays” and “pre-alert” are for alarms."),
        (["kind": .string("timer"), "duration": .double(60), "pre-alert": .double(60)],
         "A timer takes a “duration”; “at”, “time”, “date”, “weekdays” and “pre-alert” are for alarms."),
        (["kind": .string("timer"), "at": .double(1_800_000_000)], "A timer request needs a “duration”."),
        (["kind": .string("alarm")],
         "An alarm request needs “at” (an instant) or “time” (with “date” or “weekdays” if wanted)."),
        (["kind": .string("alarm"), "pre-alert": .double(60)],
         "An alarm request needs “at” (an instant) or “time” (with “date” or “weekdays” if wanted)."),
        (["kind": .string("alarm"), "time": .string("07:00"), "duration": .double(60)],
         "An alarm has no “duration”; its countdown before ringing is “pre-alert”."),
        (["kind": .string("alarm"), "at": .double(1_800_000_000), "time": .string("07:00")],
         "“at” is an instant; it cannot be combined with “time”, “date” or “weekdays”."),
        (["kind": .string("alarm"), "weekdays": .string("mon")], "“date” and “weekdays” need a “time”."),
        (["kind": .string("alarm"), "date": .string("2026-12-01")], "“date” and “weekdays” need a “time”."),
        (["kind": .string("alarm"), "time": .string("07:00"), "date": .string("2026-12-01"), "weekdays": .string("mon")],
         "An alarm rings on a “date” or on “weekdays”, not both."),
        (["kind": .string("alarm"), "time": .string("25:00")],
         "“25:00” is not a time of day: the hour goes from 0 to 23. Try 07:00, 19:30, 7am or 7:15pm."),
        (["kind": .string("alarm"), "time": .string("07:00"), "date": .string("2026-02-30")],
         "“2026-02-30” is not a date: February 2026 has 28 days."),
        (["kind": .string("alarm"), "time": .string("07:00"), "weekdays": .string("mon,funday")],
         "“mon,funday” is not a repeat: “funday” is not a day. Try daily, weekdays, weekends, once, or days such as mon,wed,fri or mon-fri."),
        (["kind": .string("alarm"), "time": .double(7)], "The key “time” must be a string (s), not a value of type d."),
        (["kind": .string("alarm"), "at": .string("07:00")], "The key “at” must be a number of seconds (d), not a value of type s."),
        (["kind": .string("alarm"), "time": .string("07:00"), "late-limit": .string("5m")],
         "The key “late-limit” must be a number of seconds (d), not a value of type s."),
    ])
    func kindSpecificKeys(dictionary: [String: WireValue], message: String) throws {
        #expect(try requestError(dictionary) == message)
    }

    @Test("Only a duration is required; the rest takes defaults")
    func minimalDecode() throws {
        #expect(try AlarmWireFormat.decodeRequest(["duration": .double(90)]) == AlarmRequest(duration: 90))
    }

    @Test("Integer seconds are accepted for every duration key")
    func integerSeconds() throws {
        let request = try AlarmWireFormat.decodeRequest([
            "duration": .integer(300), "snooze": .integer(60), "ring-limit": .integer(120),
        ])
        #expect(request.duration == 300)
        #expect(request.snoozeDuration == 60)
        #expect(request.ringLimit == 120)
    }

    @Test("Volume and crescendo round-trip; a volume outside (0, 1] or a crescendo of zero is refused", arguments: [0.0, -0.5, 1.5, .nan])
    func volumeLimits(volume: Double) throws {
        let request = AlarmRequest(title: "Tea", duration: 60, volume: 0.25, crescendo: 10)
        #expect(try AlarmWireFormat.decodeRequest(AlarmWireFormat.encode(request)) == request)
        let refused = #expect(throws: AlarmInputError.self) { try AlarmRequest(duration: 60, volume: volume).makeAlarm(id: UUID(), now: t0) }
        #expect(refused?.message.hasPrefix("The volume must be above 0 % and at most 100 %") == true)
        #expect(throws: AlarmInputError.self) { try AlarmRequest(duration: 60, crescendo: 0).makeAlarm(id: UUID(), now: t0) }
    }

    @Test("Metadata and the owning application round-trip; the command line is “tocsin” on the wire and nil in the model")
    func ownerAndMetadata() throws {
        var alarm = Fixture.alarm()
        alarm.appID = "org.example.Cook"
        alarm.metadata = #"{"step": 2}"#
        #expect(try AlarmWireFormat.decodeAlarm(AlarmWireFormat.encode(alarm)) == alarm)
        let mine = Fixture.alarm()
        #expect(AlarmWireFormat.encode(mine)["app-id"] == .string("tocsin"))
        #expect(try AlarmWireFormat.decodeAlarm(AlarmWireFormat.encode(mine)).appID == nil)
        let request = AlarmRequest(duration: 60, metadata: "[1, 2]")
        #expect(try AlarmWireFormat.decodeRequest(AlarmWireFormat.encode(request)) == request)
        #expect(throws: AlarmInputError.self) { try AlarmRequest(duration: 60, metadata: "{not json").makeAlarm(id: UUID(), now: t0) }
        #expect(throws: AlarmInputError.self) { try AlarmRequest(duration: 60, metadata: String(repeating: "1", count: 4097)).makeAlarm(id: UUID(), now: t0) }
    }

    @Test("App intents round-trip as a map of button to mode and the program; unknown buttons and modes are refused by name")
    func appIntents() throws {
        let intents = AppIntentButtons(modes: [.stop: .background, .secondary: .foreground], executable: "/opt/cook/bin/cook")
        let request = AlarmRequest(duration: 60, appIntents: intents)
        let encoded = AlarmWireFormat.encode(request)
        #expect(encoded["app-intents"] == .stringMap(["stop": "background", "secondary": "foreground"]))
        #expect(encoded["app-executable"] == .string("/opt/cook/bin/cook"))
        #expect(try AlarmWireFormat.decodeRequest(encoded) == request)
        var alarm = Fixture.alarm()
        alarm.appIntents = intents
        #expect(try AlarmWireFormat.decodeAlarm(AlarmWireFormat.encode(alarm)) == alarm)

        let base: [String: WireValue] = ["duration": .double(60)]
        for (extra, message) in [
            (["app-intents": WireValue.stringMap(["pause": "background"])], "Unknown app-intent button “pause”; known buttons: stop, secondary."),
            (["app-intents": .stringMap(["stop": "later"])], "Unknown app-intent mode “later”; known modes: background, foreground."),
            (["app-executable": .string("/bin/cook")], "“app-executable” starts an app to perform its intents; it needs “app-intents”."),
            (["app-intents": .string("stop")], "The key “app-intents” must be a map of button to mode (a{ss}), not a value of type s."),
        ] {
            let refused = #expect(throws: AlarmInputError.self) { try AlarmWireFormat.decodeRequest(base.merging(extra) { $1 }) }
            #expect(refused?.message == message)
        }
    }

    @Test("An unknown key is refused, naming it and listing the known ones")
    func unknownKey() throws {
        let message = try requestError(["duration": .double(60), "snoze": .double(60)])
        #expect(message == "Unknown key “snoze” in the schedule request; known keys: kind, title, duration, snooze, button-label, sound, ring-limit, hooks, at, time, weekdays, date, pre-alert, late-limit, volume, crescendo, metadata, id, app-intents, app-executable, phone, phone-after, snooze-button, sound-fallback, raise-output, ring-level.")
    }

    @Test("Among several unknown keys, the first in alphabetical order is named (deterministic)")
    func severalUnknownKeys() throws {
        let message = try requestError(["zeta": .bool(true), "duration": .double(60), "alpha": .bool(true), "mid": .bool(true)])
        #expect(message.hasPrefix("Unknown key “alpha”"))
    }

    @Test("Values of the wrong type are refused, naming the key, the expected and the actual type", arguments: [
        ("title", WireValue.double(1), "The key “title” must be a string (s), not a value of type d."),
        ("kind", .integer(1), "The key “kind” must be a string (s), not a value of type x."),
        ("sound", .bool(true), "The key “sound” must be a string (s), not a value of type b."),
        ("button-label", .stringMap([:]), "The key “button-label” must be a string (s), not a value of type a{ss}."),
        ("duration", .string("5m"), "The key “duration” must be a number of seconds (d), not a value of type s."),
        ("duration", .bool(true), "The key “duration” must be a number of seconds (d), not a value of type b."),
        ("snooze", .unsupported(signature: "ay"), "The key “snooze” must be a number of seconds (d), not a value of type ay."),
        ("ring-limit", .dictionary([:]), "The key “ring-limit” must be a number of seconds (d), not a value of type a{sv}."),
        ("hooks", .string("echo"), "The key “hooks” must be a map of event to command (a{ss}), not a value of type s."),
        ("ring-level", .double(70), "The key “ring-level” must be a whole number (x), not a value of type d."),
        ("ring-level", .string("70%"), "The key “ring-level” must be a whole number (x), not a value of type s."),
        ("raise-output", .integer(1), "The key “raise-output” must be a boolean (b), not a value of type x."),
        ("hooks", .dictionary(["fire": .string("echo")]), "The key “hooks” must be a map of event to command (a{ss}), not a value of type a{sv}."),
    ])
    func wrongType(key: String, value: WireValue, message: String) throws {
        var dictionary: [String: WireValue] = ["duration": .double(60)]
        dictionary[key] = value
        #expect(try requestError(dictionary) == message)
    }

    @Test("The output's keys: ring-level alone means raise to it; raise-output false with a level is a contradiction; any integer type is a level")
    func outputRaiseKeys() throws {
        #expect(AlarmWireFormat.encode(AlarmRequest(duration: 60, outputRaise: .raise(toPercent: 85)))["ring-level"] == .integer(85))
        #expect(AlarmWireFormat.encode(AlarmRequest(duration: 60, outputRaise: .raise(toPercent: 85)))["raise-output"] == .bool(true))
        #expect(AlarmWireFormat.encode(AlarmRequest(duration: 60, outputRaise: .never))["raise-output"] == .bool(false))
        #expect(AlarmWireFormat.encode(AlarmRequest(duration: 60))["raise-output"] == nil, "none: as the settings say, and an older agent takes it")
        #expect(try AlarmWireFormat.decodeRequest(["duration": .double(60), "ring-level": .integer(40)]).outputRaise == .raise(toPercent: 40))
        #expect(try AlarmWireFormat.decodeRequest(["duration": .double(60), "raise-output": .bool(true)]).outputRaise == .raise(toPercent: nil))
        #expect(try AlarmWireFormat.decodeRequest(["duration": .double(60), "raise-output": .bool(false)]).outputRaise == .never)
        #expect(try AlarmWireFormat.decodeRequest(["duration": .double(60)]).outputRaise == nil)
        #expect(try requestError(["duration": .double(60), "raise-output": .bool(false), "ring-level": .integer(40)])
                == "“ring-level” says how loud to raise the output, and “raise-output” says never to.")
        // The range is the request's to judge, as for every other value: the wire carries it.
        #expect(try AlarmWireFormat.decodeRequest(["duration": .double(60), "ring-level": .integer(0)]).outputRaise == .raise(toPercent: 0))
        var alarm = Fixture.alarm()
        alarm.outputRaise = .never
        #expect(try AlarmWireFormat.decodeAlarm(AlarmWireFormat.encode(alarm)).outputRaise == .never)
        alarm.outputRaise = .raise(toPercent: 90)
        #expect(AlarmWireFormat.encode(alarm)["ring-level"] == .integer(90))
        #expect(try AlarmWireFormat.decodeAlarm(AlarmWireFormat.encode(alarm)).outputRaise == .raise(toPercent: 90))
    }

    @Test("A timer request (the default kind) without a duration is refused")
    func missingDuration() throws {
        #expect(try requestError(["title": .string("Tea")]) == "A timer request needs a “duration”.")
        #expect(try requestError([:]) == "A timer request needs a “duration”.")
        #expect(try requestError(["kind": .string("timer")]) == "A timer request needs a “duration”.")
    }

    @Test("An unknown hook event is refused, naming it and listing the known ones")
    func unknownHookEvent() throws {
        let message = try requestError(["duration": .double(60), "hooks": .stringMap(["fire": "a", "ring": "b"])])
        #expect(message == "Unknown hook event “ring”; known events: fire, stop, snooze, secondary, cancel, missed, phone.")
    }

    @Test("An unknown kind is refused, naming it")
    func unknownKind() throws {
        #expect(try requestError(["duration": .double(60), "kind": .string("clock")]) == "Unknown kind “clock”; known kinds: timer, alarm.")
    }

    @Test("The sound is parsed like the CLI's: relative paths and odd names are refused")
    func badSound() throws {
        #expect(try requestError(["duration": .double(60), "sound": .string("sounds/bell.oga")])
                == "The sound file “sounds/bell.oga” must be given as an absolute path.")
        #expect(try AlarmWireFormat.decodeRequest(["duration": .double(60), "sound": .string("bell")]).sound == .themeEvent("bell"))
    }

    // MARK: alarms

    @Test("Alarm round trip for every state", arguments: Fixture.varied + AlarmStateName.allCases.map { Fixture.snoozable(in: $0) })
    func alarmRoundTrip(alarm: Alarm) throws {
        #expect(try AlarmWireFormat.decodeAlarm(AlarmWireFormat.encode(alarm)) == alarm)
    }

    static let stateSpecificKeys: [(AlarmStateName, Set<String>)] = [
        (.scheduled, ["fire-time"]),
        (.countdown, ["fire-time", "phase-duration", "follows-wall-clock"]),
        (.paused, ["remaining", "phase-duration"]),
        (.alerting, ["alerting-since"]),
    ]

    @Test("Encoded alarms carry the keys of their state only", arguments: stateSpecificKeys)
    func stateKeys(name: AlarmStateName, keys: Set<String>) {
        // An alarm on a fixed instant, so the only schedule key is `at`.
        let dictionary = AlarmWireFormat.encode(Fixture.alarm(kind: .alarm, schedule: .fixed(at(60)), state: Fixture.state(name)))
        let common: Set<String> = ["id", "title", "kind", "state", "duration", "sound", "ring-limit", "late-limit", "created", "at", "app-id"]
        #expect(Set(dictionary.keys) == common.union(keys))
        #expect(dictionary["state"] == .string(name.rawValue))
    }

    @Test("Encoded alarms carry their schedule; timers carry none", arguments: [
        (nil as AlarmSchedule?, [:] as [String: WireValue]),
        (.fixed(Date(timeIntervalSince1970: 1_800_000_000.25)), ["at": .double(1_800_000_000.25)]),
        (.timeOfDay(Fixture.time(7), weekdays: [.sunday, .monday, .saturday]), ["time": .string("07:00"), "weekdays": .string("mon,sat,sun")]),
        (.timeOfDay(Fixture.time(21, 45), weekdays: []), ["time": .string("21:45")]),
        (.localDateTime(Fixture.date(2026, 12, 1), Fixture.time(7)), ["time": .string("07:00"), "date": .string("2026-12-01")]),
    ])
    func scheduleKeys(schedule: AlarmSchedule?, expected: [String: WireValue]) throws {
        let alarm = schedule == nil ? Fixture.alarm(lateLimit: 90)
            : Fixture.alarm(schedule: schedule, lateLimit: 90, state: .scheduled(fireDate: at(3600)))
        let dictionary = AlarmWireFormat.encode(alarm)
        #expect(dictionary.filter { ["at", "time", "weekdays", "date"].contains($0.key) } == expected)
        #expect(dictionary["kind"] == .string(schedule == nil ? "timer" : "alarm"))
        #expect(dictionary["late-limit"] == .double(90))
        #expect(try AlarmWireFormat.decodeAlarm(dictionary) == alarm)
    }

    @Test("A countdown says whether it follows the wall clock; an older agent's alarm without the key or a late limit reads as an elapsed-time countdown with the default late limit")
    func followsWallClock() throws {
        let preAlert = Fixture.alarm(schedule: .fixed(at(600)), duration: 300,
                                     state: .countdown(CountdownPhase(fireDate: at(600), duration: 300, followsWallClock: true)))
        #expect(AlarmWireFormat.encode(preAlert)["follows-wall-clock"] == .bool(true))
        #expect(AlarmWireFormat.encode(Fixture.alarm())["follows-wall-clock"] == .bool(false))
        var old = AlarmWireFormat.encode(Fixture.alarm(lateLimit: 30))
        old["follows-wall-clock"] = nil
        old["late-limit"] = nil
        #expect(try AlarmWireFormat.decodeAlarm(old) == Fixture.alarm())
        var mistyped = AlarmWireFormat.encode(preAlert)
        mistyped["follows-wall-clock"] = .string("yes")
        #expect(try alarmError(mistyped) == "The key “follows-wall-clock” must be a boolean (b), not a value of type s.")
    }

    @Test("Encoded alarm values: lowercase id, seconds since 1970, button label and behaviour")
    func alarmValues() {
        let alarm = Fixture.alarm(id: UUID(uuidString: "ABCDEF01-2345-6789-ABCD-EF0123456789")!, snooze: 300,
                                  button: Fixture.snoozeButton, hooks: AlarmHooks([.stop: "s"]))
        let dictionary = AlarmWireFormat.encode(alarm)
        #expect(dictionary["id"] == .string("abcdef01-2345-6789-abcd-ef0123456789"))
        #expect(dictionary["created"] == .double(1_800_000_000))
        #expect(dictionary["fire-time"] == .double(1_800_000_060))
        #expect(dictionary["phase-duration"] == .double(60))
        #expect(dictionary["snooze"] == .double(300))
        #expect(dictionary["button-label"] == .string("Snooze"))
        #expect(dictionary["button-behavior"] == .string("countdown"))
        #expect(dictionary["hooks"] == .stringMap(["stop": "s"]))
        #expect(dictionary["sound"] == .string("default"))
    }

    @Test("Decoding an alarm accepts integer instants and durations")
    func alarmIntegers() throws {
        var dictionary = AlarmWireFormat.encode(Fixture.alarm())
        dictionary["created"] = .integer(1_800_000_000)
        dictionary["fire-time"] = .integer(1_800_000_060)
        dictionary["duration"] = .integer(60)
        dictionary["phase-duration"] = .integer(60)
        #expect(try AlarmWireFormat.decodeAlarm(dictionary) == Fixture.alarm())
    }

    @Test("Decoding an alarm refuses what is missing, unknown or mistyped")
    func alarmErrors() throws {
        let good = AlarmWireFormat.encode(Fixture.alarm(button: Fixture.customButton))
        func without(_ key: String) -> [String: WireValue] { var d = good; d[key] = nil; return d }
        func with(_ key: String, _ value: WireValue) -> [String: WireValue] { var d = good; d[key] = value; return d }

        #expect(try alarmError(without("id")) == "The key “id” is missing.")
        #expect(try alarmError(without("fire-time")) == "The key “fire-time” is missing.")
        #expect(try alarmError(without("phase-duration")) == "The key “phase-duration” is missing.")
        #expect(try alarmError(without("button-behavior")) == "The key “button-behavior” is missing.")
        #expect(try alarmError(without("created")) == "The key “created” is missing.")
        #expect(try alarmError(with("id", .string("tea"))) == "“tea” is not an alarm id.")
        #expect(try alarmError(with("state", .string("ringing"))) == "Unknown alarm state “ringing”.")
        #expect(try alarmError(with("kind", .string("clock"))) == "Unknown alarm kind “clock”.")
        #expect(try alarmError(with("weekdays", .string("mon"))) == "“date” and “weekdays” need a “time”.")
        #expect(try alarmError(with("button-behavior", .string("dance"))) == "Unknown button behavior “dance”.")
        #expect(try alarmError(with("title", .integer(3))) == "The key “title” must be a string (s), not a value of type x.")
        #expect(try alarmError(with("colour", .string("red"))).hasPrefix("Unknown key “colour” in the alarm; known keys: id, title, kind, state,"))
        #expect(try alarmError(with("state", .string("paused"))) == "The key “remaining” is missing.")
        #expect(try alarmError(with("state", .string("alerting"))) == "The key “alerting-since” is missing.")
    }

    @Test("Every key of the alarm enumeration appears in some encoded alarm")
    func alarmKeysCovered() {
        var loud = Fixture.alarm()
        loud.volume = 0.4
        loud.crescendo = 30
        loud.phone = .ring(after: 20)
        loud.outputRaise = .raise(toPercent: 55)
        loud.metadata = #"{"step": 2}"#
        loud.appIntents = AppIntentButtons(modes: [.stop: .background], executable: "/usr/bin/cook")
        let alarms = AlarmStateName.allCases.map {
            Fixture.alarm(snooze: 5, button: Fixture.snoozeButton, hooks: AlarmHooks([.fire: "f"]), state: Fixture.state($0))
        } + Fixture.varied + [loud]
        let seen = Set(alarms.flatMap { AlarmWireFormat.encode($0).keys })
        #expect(seen == Set(AlarmWireFormat.AlarmKey.allCases.map(\.rawValue)))
    }

    @Test("WireValue signatures")
    func signatures() {
        #expect(WireValue.string("").signature == "s")
        #expect(WireValue.double(0).signature == "d")
        #expect(WireValue.integer(0).signature == "x")
        #expect(WireValue.bool(false).signature == "b")
        #expect(WireValue.stringMap([:]).signature == "a{ss}")
        #expect(WireValue.dictionary([:]).signature == "a{sv}")
        #expect(WireValue.unsupported(signature: "(ii)").signature == "(ii)")
    }
}
