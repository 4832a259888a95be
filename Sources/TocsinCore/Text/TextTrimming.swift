import FoundationEssentials

// The agent links FoundationEssentials only, which has no `trimmingCharacters(in:)` or
// `CharacterSet`; these give the same answers as Foundation's for the sets Tocsin uses.
extension StringProtocol {
    /// The text without leading and trailing spaces and tabs: what Foundation's
    /// `trimmingCharacters(in: .whitespaces)` removes (Unicode space separators, U+0009, U+200B).
    package func trimmingSpaces() -> String {
        trimming(where: Self.isSpace)
    }

    /// The text without leading and trailing spaces, tabs and line breaks: what Foundation's
    /// `trimmingCharacters(in: .whitespacesAndNewlines)` removes.
    package func trimmingSpacesAndNewlines() -> String {
        trimming { Self.isSpace($0) || Self.isLineBreak($0) }
    }

    /// The longest beginning of the text that takes at most `maxBytes` bytes of UTF-8, cut
    /// between two characters: how much of another program's text (a phone's name, a server's
    /// version) Tocsin keeps, whatever length it was sent in.
    package func utf8Prefix(maxBytes: Int) -> String {
        guard utf8.count > maxBytes else { return String(self) }
        var kept = ""
        var used = 0
        for character in self {
            let size = character.utf8.count
            guard used + size <= maxBytes else { break }
            kept.append(character)
            used += size
        }
        return kept
    }

    /// Whether every scalar of the text is in `allowed` (ASCII characters only).
    package func consists(ofASCII allowed: String) -> Bool {
        unicodeScalars.allSatisfy { $0.isASCII && allowed.unicodeScalars.contains($0) }
    }

    private func trimming(where isTrimmed: (Unicode.Scalar) -> Bool) -> String {
        let scalars = String(self).unicodeScalars
        // Nothing to trim, the usual case (10,000 alarms read from the agent are 30,000 of them):
        // the string as it is, without building a new one.
        if let first = scalars.first, let last = scalars.last, !isTrimmed(first), !isTrimmed(last) { return String(self) }
        guard let first = scalars.firstIndex(where: { !isTrimmed($0) }) else { return "" }
        let last = scalars.lastIndex(where: { !isTrimmed($0) })!
        return String(String.UnicodeScalarView(scalars[first...last]))
    }

    /// Foundation's set also holds U+200B ZERO WIDTH SPACE, a space separator in Unicode before 4.0.1.
    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
    }

    /// U+000A–U+000D, U+0085 and the line and paragraph separators (Unicode categories Zl, Zp).
    private static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        (0x0A...0x0D).contains(scalar.value) || scalar.value == 0x85
            || scalar.properties.generalCategory == .lineSeparator || scalar.properties.generalCategory == .paragraphSeparator
    }
}
