import FoundationEssentials

/// Whether a ringing alarm also rings the user's paired phones (through KDE Connect), and how long
/// it rings at the desk first: the phone rings only if nobody answers there (`tocsin phone`).
public struct PhoneRingSettings: Codable, Equatable, Sendable {
    /// Phones are rung at all. Off until the user turns it on: a phone that rings for a kitchen
    /// timer nobody asked it to is a surprise.
    public var isEnabled: Bool
    /// How long an alarm rings at the desk before the phones ring too, in seconds.
    public var delay: TimeInterval

    /// The delay when none is given: long enough to answer at the desk.
    public static let defaultDelay: TimeInterval = 30
    /// Phones are never rung.
    public static let off = PhoneRingSettings(isEnabled: false, delay: defaultDelay)

    /// Settings that ring the phones (`isEnabled`) `delay` seconds after an alarm starts ringing.
    public init(isEnabled: Bool, delay: TimeInterval = defaultDelay) {
        self.isEnabled = isEnabled
        self.delay = delay
    }

    private enum CodingKeys: String, CodingKey {
        case isEnabled = "enabled"
        case delay = "delay-seconds"
    }

    /// When an alarm whose own choice is `choice` (`nil`: it follows these settings), ringing
    /// since `start`, rings the phones; `nil` when it does not.
    public func phoneRingDate(for choice: PhoneRingChoice? = nil, ringingSince start: Date) -> Date? {
        switch choice {
        case .never?: nil
        case .ring(let after)?: start.addingTimeInterval(after ?? delay)
        case nil: isEnabled ? start.addingTimeInterval(delay) : nil
        }
    }
}

/// An alarm's own answer to whether it rings the phones (`--phone`, `--no-phone`), over the
/// user's settings; an alarm without one follows them.
///
/// Saved as one JSON value: `false` for never, `true` for yes after the settings' delay, the
/// delay in seconds for yes after it.
public enum PhoneRingChoice: Equatable, Sendable, Codable {
    /// Never, whatever the settings say.
    case never
    /// Yes, after `after` seconds unanswered (`nil`: the settings' delay), even with phones off.
    case ring(after: TimeInterval?)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let yes = try? container.decode(Bool.self) {
            self = yes ? .ring(after: nil) : .never
        } else {
            self = .ring(after: try container.decode(Double.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .never: try container.encode(false)
        case .ring(nil): try container.encode(true)
        case .ring(let after?): try container.encode(after)
        }
    }
}
