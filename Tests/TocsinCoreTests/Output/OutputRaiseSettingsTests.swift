import Foundation
import Testing
@testable import TocsinCore
import TocsinTestSupport

// OutputRaiseSettings.swift: the agent's settings for raising the output, what `tocsin config`
// makes of them, their file's format; and an alarm's own choice over them.
@Suite("Raising the output: the settings and an alarm's own choice")
struct OutputRaiseSettingsTests {
    @Test("An alarm's own choice wins over the settings; without one, the settings decide")
    func levelForAChoice() {
        let on = OutputRaiseSettings(raises: true, levelPercent: 60)
        let off = OutputRaiseSettings(raises: false, levelPercent: 60)
        #expect(on.level(for: nil) == 60)
        #expect(off.level(for: nil) == nil)
        #expect(on.level(for: .never) == nil)
        #expect(off.level(for: .raise(toPercent: 90)) == 90, "its own level, even with raising off")
        #expect(on.level(for: .raise(toPercent: 20)) == 20, "its own level, even below the settings'")
        #expect(off.level(for: .raise(toPercent: nil)) == 60, "yes, to the settings' level")
        #expect(OutputRaiseSettings.standard == OutputRaiseSettings(raises: true, levelPercent: 70))
    }

    @Test("A typed level: 1 to 100, with or without %; anything else is said plainly", arguments: [
        ("1", 1), ("70", 70), ("70%", 70), ("70 %", 70), ("100", 100),
    ])
    func typedLevels(_ text: String, _ percent: Int) throws {
        #expect(try OutputRaiseSettings.level(parsing: text) == percent)
    }

    @Test("Levels refused", arguments: ["0", "101", "loud", "", "%", "-5", "70.5", "1e2"])
    func refusedLevels(_ text: String) {
        let error = #expect(throws: AlarmInputError.self) { try OutputRaiseSettings.level(parsing: text) }
        #expect(error?.message == "“\(text)” is not a percentage from 1 to 100.")
    }

    @Test("tocsin config's keys: shown, set, refused, put back")
    func configKeys() throws {
        var settings = OutputRaiseSettings.standard
        #expect(settings.text(of: .raiseOutput) == "yes" && settings.text(of: .ringLevel) == "70 %")
        try settings.set(.raiseOutput, to: "no")
        try settings.set(.ringLevel, to: "45%")
        #expect(settings == OutputRaiseSettings(raises: false, levelPercent: 45))
        #expect(settings.text(of: .raiseOutput) == "no" && settings.text(of: .ringLevel) == "45 %")
        for yes in ["yes", "YES", "on", "true"] {
            settings.raises = false
            try settings.set(.raiseOutput, to: yes)
            #expect(settings.raises, "\(yes)")
        }
        #expect(throws: AlarmInputError("“maybe” is neither yes nor no.")) { try settings.set(.raiseOutput, to: "maybe") }
        #expect(throws: AlarmInputError("“0” is not a percentage from 1 to 100.")) { try settings.set(.ringLevel, to: "0") }
        #expect(settings == OutputRaiseSettings(raises: true, levelPercent: 45), "a refused value changes nothing")
        settings = OutputRaiseSettings(raises: false, levelPercent: 45)
        settings.reset(.raiseOutput)
        #expect(settings == OutputRaiseSettings(raises: true, levelPercent: 45))
        settings.reset(.ringLevel)
        #expect(settings == .standard)
    }

    @Test("The file: the config keys' names; an absent key keeps its default; a value of another type is refused")
    func fileFormat() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(String(decoding: try encoder.encode(OutputRaiseSettings(raises: false, levelPercent: 40)), as: UTF8.self)
                == #"{"raise-output":false,"ring-level":40}"#)
        func read(_ text: String) throws -> OutputRaiseSettings {
            try JSONDecoder().decode(OutputRaiseSettings.self, from: Data(text.utf8))
        }
        #expect(try read(#"{"raise-output":false,"ring-level":40}"#) == OutputRaiseSettings(raises: false, levelPercent: 40))
        #expect(try read(#"{"raise-output":false}"#) == OutputRaiseSettings(raises: false, levelPercent: 70))
        #expect(try read(#"{"ring-level":30}"#) == OutputRaiseSettings(raises: true, levelPercent: 30))
        #expect(try read("{}") == .standard)
        #expect(try read(#"{"ring-level":0}"#).levelPercent == 0, "read as written: the store judges the range")
        for bad in [#"{"ring-level":"loud"}"#, #"{"ring-level":50.5}"#, #"{"raise-output":"no"}"#, "[]"] {
            #expect(throws: DecodingError.self, "\(bad)") { try read(bad) }
        }
    }

    @Test("A request's own level is checked: 1 to 100")
    func requestValidation() throws {
        var book = AlarmBook()
        for percent in [0, 101, -1, Int.max] {
            #expect(throws: AlarmError.invalidArgument(AlarmInputError("The ring level must be from 1 % to 100 % (got \(percent) %)."))) {
                try book.schedule(AlarmRequest(duration: 60, outputRaise: .raise(toPercent: percent)), now: t0)
            }
        }
        for choice in [OutputRaiseChoice.never, .raise(toPercent: nil), .raise(toPercent: 1), .raise(toPercent: 100)] {
            let alarm = try AlarmRequest(duration: 60, outputRaise: choice).makeAlarm(id: fixedID(1), now: t0)
            #expect(alarm.outputRaise == choice)
        }
        #expect(try AlarmRequest(duration: 60).makeAlarm(id: fixedID(1), now: t0).outputRaise == nil)
    }

    @Test("The state file: the choice is kept as false, true or the level; a line written before it existed reads as none")
    func stateFile() throws {
        var alarm = Fixture.varied[1]
        alarm.outputRaise = nil
        var writer = AlarmJSONWriter()
        try writer.write(.put(alarm))
        let without = String(decoding: writer.bytes, as: UTF8.self)
        #expect(!without.contains("outputRaise"), "none is left out, as files before it were")
        #expect(AlarmJSONReader.change(Array(without.utf8)) == .put(alarm))
        #expect(try JSONDecoder().decode(JournalChange.self, from: Data(without.utf8)) == .put(alarm))
        for (choice, text) in [(OutputRaiseChoice.never, "false"), (.raise(toPercent: nil), "true"), (.raise(toPercent: 85), "85")] {
            alarm.outputRaise = choice
            var writer = AlarmJSONWriter()
            try writer.write(.put(alarm))
            let line = String(decoding: writer.bytes, as: UTF8.self)
            #expect(line.contains("\"outputRaise\":\(text),"), "\(line)")
            #expect(AlarmJSONReader.change(writer.bytes) == .put(alarm))
        }
    }
}
