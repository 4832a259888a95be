import Foundation
import Testing
@testable import TocsinCore

/// `tocsin config`'s settings: what alarms get by default, as typed and as saved.
@Suite struct CommandLineSettingsTests {
    @Test("Alarms offer a 9-minute Snooze until the user says otherwise")
    func defaults() {
        #expect(CommandLineSettings.defaults.alarmSnooze == 540)
        #expect(CommandLineSettings.defaults.text(of: .alarmSnooze) == "9 min")
    }

    @Test("alarm-snooze takes a duration or off, refuses anything else, and resets to 9 minutes")
    func setting() throws {
        var settings = CommandLineSettings.defaults
        try settings.set(.alarmSnooze, to: "5m")
        #expect(settings.alarmSnooze == 300 && settings.text(of: .alarmSnooze) == "5 min")
        try settings.set(.alarmSnooze, to: "off")
        #expect(settings.alarmSnooze == nil && settings.text(of: .alarmSnooze) == "off")
        #expect(throws: AlarmInputError.self) { try settings.set(.alarmSnooze, to: "soon") }
        #expect(throws: AlarmInputError.self) { try settings.set(.alarmSnooze, to: "-5m") }
        #expect(settings.alarmSnooze == nil, "a refused value changes nothing")
        settings.reset(.alarmSnooze)
        #expect(settings == .defaults)
    }

    @Test("Saved as seconds or false; a missing key keeps its default; a bad value is refused, not guessed")
    func file() throws {
        let decoder = JSONDecoder()
        for settings in [CommandLineSettings.defaults, CommandLineSettings(alarmSnooze: 300), CommandLineSettings(alarmSnooze: nil)] {
            #expect(try decoder.decode(CommandLineSettings.self, from: JSONEncoder().encode(settings)) == settings)
        }
        #expect(String(decoding: try JSONEncoder().encode(CommandLineSettings(alarmSnooze: nil)), as: UTF8.self) == #"{"alarm-snooze-seconds":false}"#)
        #expect(try decoder.decode(CommandLineSettings.self, from: Data("{}".utf8)) == .defaults)
        for bad in [#"{"alarm-snooze-seconds":true}"#, #"{"alarm-snooze-seconds":-1}"#, #"{"alarm-snooze-seconds":"9m"}"#, "[]"] {
            #expect(throws: (any Error).self, "\(bad)") { try decoder.decode(CommandLineSettings.self, from: Data(bad.utf8)) }
        }
    }
}
