import FoundationEssentials

/// What an alarm plays while it rings.
public enum AlarmSound: Sendable, Equatable, Codable {
    /// The sound theme's `alarm-clock-elapsed` event.
    case standard
    /// A sound-theme event id such as `bell` or `phone-incoming-call`.
    case themeEvent(String)
    /// A sound file, by absolute path (16-bit WAV or Ogg).
    case file(String)

    /// The sound theme event rung when nothing else is chosen.
    public static let standardEventID = "alarm-clock-elapsed"

    /// Reads the user's spelling: `default`, an event id, or a path (anything with a `/`).
    ///
    /// A relative path is refused here because the agent does not share the caller's working
    /// directory; the CLI makes paths absolute before sending them.
    public init(parsing text: String) throws(AlarmInputError) {
        let trimmed = text.trimmingSpaces()
        if trimmed.isEmpty || trimmed == "default" {
            self = .standard
        } else if trimmed.contains("/") {
            guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                throw AlarmInputError("The sound file path “\(AlarmInputError.quotable(trimmed))” contains control characters.")
            }
            guard trimmed.hasPrefix("/") else {
                throw AlarmInputError("The sound file “\(trimmed)” must be given as an absolute path.")
            }
            self = .file(trimmed)
        } else {
            guard trimmed.consists(ofASCII: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_."), trimmed.count <= 100 else {
                let shown = trimmed.count > 100 ? "\(trimmed.prefix(100))…" : trimmed
                throw AlarmInputError("“\(AlarmInputError.quotable(shown))” is neither a sound file path nor a sound theme event id (letters, digits, “-”, “_”, “.”).")
            }
            self = .themeEvent(trimmed)
        }
    }

    /// The spelling `init(parsing:)` reads back: `default`, the event id, or the path.
    public var description: String {
        switch self {
        case .standard: "default"
        case .themeEvent(let id): id
        case .file(let path): path
        }
    }
}
