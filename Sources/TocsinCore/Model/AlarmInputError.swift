/// A request the agent refuses because of what it says: a bad duration, title, sound, hook or key.
///
/// The message is one sentence a person understands, naming the value that was wrong.
public struct AlarmInputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was wrong, as a sentence.
    public let message: String

    /// Creates an error with a human-readable `message`.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}

extension AlarmInputError {
    /// `text` made safe to quote in a message: control characters (a terminal escape sequence,
    /// a newline) are shown as `\u{…}` escapes instead of acting on the terminal.
    /// Bidirectional overrides and isolates are escaped too (they can reorder the rest of the
    /// line), and so is the backslash, so a typed `\u{7}` cannot pass for an escaped bell.
    public static func quotable(_ text: some StringProtocol) -> String {
        String(text).unicodeScalars.map { scalar in
            if scalar == "\\" { return "\\\\" }
            let isBidiControl = (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
            return scalar.properties.generalCategory == .control || isBidiControl
                ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
        }.joined()
    }
}
