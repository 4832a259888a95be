import FoundationEssentials

/// What a locked screen may show of an alarm: its title, or only "Alarm" or "Timer" — the
/// user's choice (`tocsin config lock-screen-titles show|hide`), kept in
/// `$XDG_CONFIG_HOME/tocsin/lock-screen.json` and followed by the running agent.
///
/// Titles show by default, as on phones: a person woken by "Flight to Oslo" wants to read it
/// before unlocking. Someone who shares the room, or whose titles say too much, hides them; the
/// alarm still rings, wakes the display and can be stopped there.
///
/// It decides what Tocsin's own lock-screen surfaces say (`LockScreenContent`, the media player's
/// title) and whether its notifications carry GNOME's `x-gnome-privacy-scope` hint, which lets
/// GNOME Shell show their title and body on its lock screen.
public struct LockScreenSettings: Sendable, Equatable, Codable {
    /// Whether a locked screen shows alarms' titles.
    public var showsTitles: Bool

    /// The default: titles show.
    public static let standard = LockScreenSettings(showsTitles: true)

    /// Titles shown, or not.
    public init(showsTitles: Bool) {
        self.showsTitles = showsTitles
    }

    /// What a locked screen calls `alarm`: its title, or its kind when titles are hidden.
    public func title(of alarm: Alarm) -> String {
        guard !showsTitles else { return alarm.title }
        return switch alarm.kind {
        case .timer: "Timer"
        case .alarm: "Alarm"
        }
    }

    // MARK: tocsin config

    /// The settings `tocsin config` shows and changes, by the name it gives them.
    public enum Key: String, CaseIterable, Sendable {
        /// `lock-screen-titles`: show or hide.
        case lockScreenTitles = "lock-screen-titles"

        /// What the setting is for, for `tocsin config`'s listing.
        public var summary: String {
            switch self {
            case .lockScreenTitles: "whether a locked screen shows an alarm's title, or only \"Alarm\" (show or hide)"
            }
        }
    }

    /// The value of `key` as `tocsin config` prints it ("show", "hide").
    public func text(of key: Key) -> String {
        switch key {
        case .lockScreenTitles: showsTitles ? "show" : "hide"
        }
    }

    /// Sets `key` from what the user typed; throws a sentence saying what is accepted.
    public mutating func set(_ key: Key, to text: String) throws(AlarmInputError) {
        switch key {
        case .lockScreenTitles:
            switch text.lowercased() {
            case "show", "yes", "on": showsTitles = true
            case "hide", "no", "off": showsTitles = false
            default: throw AlarmInputError("“\(AlarmInputError.quotable(text.prefix(20)))” is neither show nor hide.")
            }
        }
    }

    /// Puts `key` back to its default.
    public mutating func reset(_ key: Key) {
        switch key {
        case .lockScreenTitles: showsTitles = Self.standard.showsTitles
        }
    }

    // Saved as {"lock-screen-titles": "show"}; a file without the key keeps the default, and a
    // value other than show or hide does not read (the store says so).
    private enum CodingKeys: String, CodingKey {
        case titles = "lock-screen-titles"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decodeIfPresent(String.self, forKey: .titles) {
        case nil: showsTitles = Self.standard.showsTitles
        case "show": showsTitles = true
        case "hide": showsTitles = false
        case let other?:
            throw DecodingError.dataCorruptedError(forKey: .titles, in: container, debugDescription: "\(other) is neither show nor hide")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(showsTitles ? "show" : "hide", forKey: .titles)
    }
}
