import Foundation
import Testing
@testable import TocsinCore

@Suite("AlarmSound")
struct AlarmSoundTests {
    @Test("Parsing: default, theme event ids and absolute paths", arguments: [
        ("", AlarmSound.standard), ("default", .standard), ("  default\t", .standard), ("   ", .standard),
        ("bell", .themeEvent("bell")), ("phone-incoming-call", .themeEvent("phone-incoming-call")),
        ("alarm_clock.v2", .themeEvent("alarm_clock.v2")), ("Default", .themeEvent("Default")),
        (String(repeating: "a", count: 100), .themeEvent(String(repeating: "a", count: 100))),
        ("/usr/share/sounds/freedesktop/stereo/bell.oga", .file("/usr/share/sounds/freedesktop/stereo/bell.oga")),
        (" /tmp/my sound.wav ", .file("/tmp/my sound.wav")),
        ("/", .file("/")),
    ])
    func parse(text: String, sound: AlarmSound) throws {
        #expect(try AlarmSound(parsing: text) == sound)
    }

    @Test("Relative paths are refused, quoting them", arguments: ["sounds/bell.oga", "./bell.oga", "~/bell.oga", "../x.wav"])
    func relativePath(text: String) throws {
        let error = try #require(throws: AlarmInputError.self) { try AlarmSound(parsing: text) }
        #expect(error.message == "The sound file “\(text)” must be given as an absolute path.")
    }

    @Test("Names with other characters are refused, quoting them", arguments: [
        "bell!", "bell ring", "ベル", "$(reboot)", "bell\u{2028}",
    ])
    func badName(text: String) throws {
        let error = try #require(throws: AlarmInputError.self) { try AlarmSound(parsing: text) }
        #expect(error.message == "“\(text)” is neither a sound file path nor a sound theme event id (letters, digits, “-”, “_”, “.”).")
    }

    @Test("Control characters in a refused name are quoted as escapes", arguments: [
        ("bell\u{1B}", "bell\\u{1b}"), ("bell\n", "bell\\u{a}"), ("\u{1B}[2Jbell", "\\u{1b}[2Jbell"), ("be\u{0}ll", "be\\u{0}ll"),
    ])
    func badNameEscaped(text: String, quoted: String) throws {
        let error = try #require(throws: AlarmInputError.self) { try AlarmSound(parsing: text) }
        #expect(error.message == "“\(quoted)” is neither a sound file path nor a sound theme event id (letters, digits, “-”, “_”, “.”).")
    }

    // The message quotes at most 100 characters of the name, so a megabyte from D-Bus does not end
    // up in the log. But the cut is not marked: for 101 × “a” it quotes 100 × “a”, which is a valid
    // event id, so the message reads as if a good name had been refused.
    @Test("A name longer than 100 characters is refused; the quote is bounded", arguments: [101, 1_000_000])
    func longName(length: Int) throws {
        let text = String(repeating: "a", count: length)
        let error = try #require(throws: AlarmInputError.self) { try AlarmSound(parsing: text) }
        let hundred = String(repeating: "a", count: 100)
        #expect(error.message.hasSuffix("” is neither a sound file path nor a sound theme event id (letters, digits, “-”, “_”, “.”)."))
        #expect(error.message.count < 300)
        #expect(error.message.hasPrefix("“\(hundred)…”"), "got \(error.message.prefix(110))…")
    }

    @Test("Sound file paths with control characters are refused, quoting them as escapes", arguments: [
        ("/tmp/a\u{1B}[2Jb.wav", "/tmp/a\\u{1b}[2Jb.wav"), ("/tmp/bell.oga\n", "/tmp/bell.oga\\u{a}"),
        ("/tmp/\u{0}x", "/tmp/\\u{0}x"), ("\u{7}sounds/bell.oga", "\\u{7}sounds/bell.oga"),
    ])
    func pathWithControls(text: String, quoted: String) throws {
        let error = try #require(throws: AlarmInputError.self) { try AlarmSound(parsing: text) }
        #expect(error.message == "The sound file path “\(quoted)” contains control characters.")
    }

    @Test("Paths keep other unusual characters", arguments: ["/tmp/ベル.oga", "/tmp/a\u{2028}b.wav", "/tmp/Blumen\u{AD}topf.wav"])
    func pathWithUnusualCharacters(text: String) throws {
        #expect(try AlarmSound(parsing: text) == .file(text))
    }

    @Test("description reads back through init(parsing:)", arguments: [
        AlarmSound.standard, .themeEvent("bell"), .file("/usr/share/sounds/x.oga"),
    ])
    func descriptionRoundTrip(sound: AlarmSound) throws {
        #expect(try AlarmSound(parsing: sound.description) == sound)
    }

    @Test("The standard sound is the theme's alarm-clock-elapsed event and reads as “default”")
    func standard() {
        #expect(AlarmSound.standardEventID == "alarm-clock-elapsed")
        #expect(AlarmSound.standard.description == "default")
    }
}
