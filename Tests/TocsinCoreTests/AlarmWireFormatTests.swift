import Foundation
import Testing
import TocsinCore

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

    @Test("A full request uses the documented key names")
    func fullRequestKeys() {
        let dictionary = AlarmWireFormat.encode(AlarmRequest(title: "Tea", duration: 60, snoozeDuration: 30, secondaryButtonLabel: "Again",
                                                            ringLimit: 90, hooks: AlarmHooks([.fire: "f"])))
        #expect(Set(dictionary.keys) == ["kind", "title", "duration", "snooze", "button-label", "sound", "ring-limit", "hooks"])
        #expect(Set(dictionary.keys) == Set(AlarmWireFormat.RequestKey.allCases.map(\.rawValue)))
        #expect(dictionary["snooze"] == .double(30))
        #expect(dictionary["ring-limit"] == .double(90))
        #expect(dictionary["button-label"] == .string("Again"))
        #expect(dictionary["hooks"] == .stringMap(["fire": "f"]))
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

    @Test("An unknown key is refused, naming it and listing the known ones")
    func unknownKey() throws {
        let message = try requestError(["duration": .double(60), "snoze": .double(60)])
        #expect(message == "Unknown key “snoze” in the schedule request; known keys: kind, title, duration, snooze, button-label, sound, ring-limit, hooks.")
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
        ("hooks", .dictionary(["fire": .string("echo")]), "The key “hooks” must be a map of event to command (a{ss}), not a value of type a{sv}."),
    ])
    func wrongType(key: String, value: WireValue, message: String) throws {
        var dictionary: [String: WireValue] = ["duration": .double(60)]
        dictionary[key] = value
        #expect(try requestError(dictionary) == message)
    }

    @Test("A request without a duration is refused")
    func missingDuration() throws {
        #expect(try requestError(["title": .string("Tea")]) == "The schedule request has no “duration”.")
        #expect(try requestError([:]) == "The schedule request has no “duration”.")
    }

    @Test("An unknown hook event is refused, naming it and listing the known ones")
    func unknownHookEvent() throws {
        let message = try requestError(["duration": .double(60), "hooks": .stringMap(["fire": "a", "ring": "b"])])
        #expect(message == "Unknown hook event “ring”; known events: fire, stop, snooze, secondary, cancel.")
    }

    @Test("An unknown kind is refused, naming it")
    func unknownKind() throws {
        #expect(try requestError(["duration": .double(60), "kind": .string("alarm")]) == "Unknown kind “alarm”; known kinds: timer.")
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
        (.countdown, ["fire-time", "phase-duration"]),
        (.paused, ["remaining", "phase-duration"]),
        (.alerting, ["alerting-since"]),
    ]

    @Test("Encoded alarms carry the keys of their state only", arguments: stateSpecificKeys)
    func stateKeys(name: AlarmStateName, keys: Set<String>) {
        let dictionary = AlarmWireFormat.encode(Fixture.alarm(state: Fixture.state(name)))
        let common: Set<String> = ["id", "title", "kind", "state", "duration", "sound", "ring-limit", "created"]
        #expect(Set(dictionary.keys) == common.union(keys))
        #expect(dictionary["state"] == .string(name.rawValue))
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
        #expect(try alarmError(with("kind", .string("alarm"))) == "Unknown alarm kind “alarm”.")
        #expect(try alarmError(with("button-behavior", .string("dance"))) == "Unknown button behavior “dance”.")
        #expect(try alarmError(with("title", .integer(3))) == "The key “title” must be a string (s), not a value of type x.")
        #expect(try alarmError(with("colour", .string("red"))).hasPrefix("Unknown key “colour” in the alarm; known keys: id, title, kind, state,"))
        #expect(try alarmError(with("state", .string("paused"))) == "The key “remaining” is missing.")
        #expect(try alarmError(with("state", .string("alerting"))) == "The key “alerting-since” is missing.")
    }

    @Test("Every key of the alarm enumeration appears in some encoded alarm")
    func alarmKeysCovered() {
        let seen = Set(AlarmStateName.allCases.flatMap {
            AlarmWireFormat.encode(Fixture.alarm(snooze: 5, button: Fixture.snoozeButton, hooks: AlarmHooks([.fire: "f"]), state: Fixture.state($0))).keys
        })
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
