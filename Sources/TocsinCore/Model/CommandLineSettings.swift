import FoundationEssentials

/// What the user set once for every alarm made on the command line (`tocsin config`), kept in
/// `$XDG_CONFIG_HOME/tocsin/config.json`. Only the command line reads it: an app decides its
/// own buttons, as AlarmKit apps do.
public struct CommandLineSettings: Codable, Equatable, Sendable {
    /// How long an alarm's Snooze waits, offered on every alarm without `--snooze`, `--no-snooze`
    /// or a button of its own; `nil`: alarms offer Stop alone. Timers never get one by default:
    /// a cooking timer is answered, not put off.
    public var alarmSnooze: TimeInterval?

    /// Nine minutes, as most alarm clocks have it.
    public static let defaultAlarmSnooze: TimeInterval = 9 * 60
    /// What holds before the user sets anything.
    public static let defaults = CommandLineSettings(alarmSnooze: defaultAlarmSnooze)

    /// Settings with this snooze for alarms (`nil`: none).
    public init(alarmSnooze: TimeInterval?) {
        self.alarmSnooze = alarmSnooze
    }

    /// The settings `tocsin config` knows, by the name it is given.
    public enum Key: String, CaseIterable, Sendable {
        /// `alarm-snooze`: a duration, or `off`.
        case alarmSnooze = "alarm-snooze"

        /// What the setting is for, for `tocsin config`'s listing.
        public var summary: String {
            switch self {
            case .alarmSnooze: "the Snooze every alarm offers unless it says otherwise (a duration, or off)"
            }
        }
    }

    /// The value of `key` as `tocsin config` prints it ("9 min", "off").
    public func text(of key: Key) -> String {
        switch key {
        case .alarmSnooze: alarmSnooze.map { DurationFormat.spoken($0) } ?? "off"
        }
    }

    /// Sets `key` from what the user typed; throws a sentence saying what is accepted.
    public mutating func set(_ key: Key, to text: String) throws(AlarmInputError) {
        switch key {
        case .alarmSnooze:
            if ["off", "none", "no", "0"].contains(text.lowercased()) {
                alarmSnooze = nil
                return
            }
            let duration = try DurationParser.parse(text)
            guard duration > 0 else { throw AlarmInputError("alarm-snooze takes a duration such as 9m, or off.") }
            alarmSnooze = duration
        }
    }

    /// Puts `key` back to its default.
    public mutating func reset(_ key: Key) {
        switch key {
        case .alarmSnooze: alarmSnooze = Self.defaults.alarmSnooze
        }
    }

    // Saved as {"alarm-snooze-seconds": 540} or {"alarm-snooze-seconds": false}; a key that is
    // absent keeps its default, so a file written by an older Tocsin still reads.
    private enum CodingKeys: String, CodingKey {
        case alarmSnooze = "alarm-snooze-seconds"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if !container.contains(.alarmSnooze) {
            alarmSnooze = Self.defaultAlarmSnooze
        } else if let on = try? container.decode(Bool.self, forKey: .alarmSnooze) {
            guard !on else {
                throw DecodingError.dataCorruptedError(forKey: .alarmSnooze, in: container, debugDescription: "true is no duration")
            }
            alarmSnooze = nil
        } else {
            let seconds = try container.decode(Double.self, forKey: .alarmSnooze)
            guard seconds > 0, seconds.isFinite else {
                throw DecodingError.dataCorruptedError(forKey: .alarmSnooze, in: container, debugDescription: "\(seconds) is no duration")
            }
            alarmSnooze = seconds
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let alarmSnooze { try container.encode(alarmSnooze, forKey: .alarmSnooze) } else { try container.encode(false, forKey: .alarmSnooze) }
    }
}
