import FoundationEssentials

/// Whether a ringing alarm raises a muted or turned-down output, and to what level: the agent's
/// settings (`tocsin config raise-output`, `ring-level`), for every alarm without a choice of its
/// own (`OutputRaiseChoice`), an application's too.
///
/// Saved as `{"raise-output": true, "ring-level": 70}`; a key that is absent keeps its default,
/// so a file with one of them, written by hand, still reads. The level is read as written: the
/// store refuses one outside `levels`, saying so.
public struct OutputRaiseSettings: Sendable, Equatable, Codable {
    /// Whether ringing alarms unmute and raise the output.
    public var raises: Bool
    /// The level they raise it to, in percent of full volume (1–100).
    public var levelPercent: Int

    /// The default: raise, to 70 % — clearly heard, not the loudest the machine can play (Android
    /// unmutes its alarm stream to 11/16 of the maximum).
    public static let standard = OutputRaiseSettings(raises: true, levelPercent: 70)

    /// The levels accepted, in percent: a level of 0 would be a mute, which `--no-raise` says.
    public static let levels = 1...100

    /// `raises`, to `levelPercent` %.
    public init(raises: Bool, levelPercent: Int) {
        self.raises = raises
        self.levelPercent = levelPercent
    }

    /// The level an alarm whose own choice is `choice` (`nil`: it follows these settings) raises
    /// the output to while it rings, in percent; `nil` when it leaves the output alone.
    public func level(for choice: OutputRaiseChoice?) -> Int? {
        switch choice {
        case .never?: nil
        case .raise(let percent)?: percent ?? levelPercent
        case nil: raises ? levelPercent : nil
        }
    }

    /// A level typed by the user ("70", "70%"), or an error saying what is accepted.
    public static func level(parsing text: String) throws(AlarmInputError) -> Int {
        var digits = Substring(text)
        if digits.hasSuffix("%") { digits = digits.dropLast() }
        if digits.hasSuffix(" ") { digits = digits.dropLast() }
        guard let percent = Int(digits), levels.contains(percent) else {
            throw AlarmInputError("“\(AlarmInputError.quotable(text.prefix(20)))” is not a percentage from 1 to 100.")
        }
        return percent
    }

    // MARK: tocsin config

    /// The settings `tocsin config` shows and changes, by the name it gives them.
    public enum Key: String, CaseIterable, Sendable {
        /// `raise-output`: yes or no.
        case raiseOutput = "raise-output"
        /// `ring-level`: a percentage.
        case ringLevel = "ring-level"

        /// What the setting is for, for `tocsin config`'s listing.
        public var summary: String {
            switch self {
            case .raiseOutput: "whether a ringing alarm unmutes and raises a muted or quiet output (yes or no)"
            case .ringLevel: "the level it raises the output to, in percent (1 to 100)"
            }
        }
    }

    /// The value of `key` as `tocsin config` prints it ("yes", "70 %").
    public func text(of key: Key) -> String {
        switch key {
        case .raiseOutput: raises ? "yes" : "no"
        case .ringLevel: "\(levelPercent) %"
        }
    }

    /// Sets `key` from what the user typed; throws a sentence saying what is accepted.
    public mutating func set(_ key: Key, to text: String) throws(AlarmInputError) {
        switch key {
        case .raiseOutput:
            switch text.lowercased() {
            case "yes", "on", "true": raises = true
            case "no", "off", "false": raises = false
            default: throw AlarmInputError("“\(AlarmInputError.quotable(text.prefix(20)))” is neither yes nor no.")
            }
        case .ringLevel:
            levelPercent = try Self.level(parsing: text)
        }
    }

    /// Puts `key` back to its default.
    public mutating func reset(_ key: Key) {
        switch key {
        case .raiseOutput: raises = Self.standard.raises
        case .ringLevel: levelPercent = Self.standard.levelPercent
        }
    }

    private enum CodingKeys: String, CodingKey {
        case raises = "raise-output"
        case levelPercent = "ring-level"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        raises = try container.decodeIfPresent(Bool.self, forKey: .raises) ?? Self.standard.raises
        levelPercent = try container.decodeIfPresent(Int.self, forKey: .levelPercent) ?? Self.standard.levelPercent
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(raises, forKey: .raises)
        try container.encode(levelPercent, forKey: .levelPercent)
    }
}

/// An alarm's own answer to whether it raises a muted or turned-down output while it rings
/// (`--ring-level`, `--no-raise`), over the agent's settings; an alarm without one follows them.
///
/// Saved as one JSON value: `false` for never, `true` for yes to the settings' level, the level
/// in percent for yes to it.
public enum OutputRaiseChoice: Equatable, Sendable, Codable {
    /// Never: the output stays as the user left it, muted or not, whatever the settings say.
    case never
    /// Yes, to at least `toPercent` % (`nil`: the settings' level), even with raising off in the
    /// settings.
    case raise(toPercent: Int?)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let yes = try? container.decode(Bool.self) {
            self = yes ? .raise(toPercent: nil) : .never
        } else {
            self = .raise(toPercent: try container.decode(Int.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .never: try container.encode(false)
        case .raise(nil): try container.encode(true)
        case .raise(let percent?): try container.encode(percent)
        }
    }
}
