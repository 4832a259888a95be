/// A string as JSON text, spelled as Foundation's JSON writers spell it. Shared by
/// `JSONValue.jsonText` (JSONSerialization's spelling, for `--json` output) and
/// `AlarmJSONWriter` (JSONEncoder's, for the state files), which differ only in the slash.
enum JSONStringText {
    /// Appends `string` in quotes: quote and backslash escaped with a backslash, the slash too
    /// when `escapingSlashes` (JSONEncoder does; JSONSerialization with `.withoutEscapingSlashes`
    /// does not), line feed, carriage return, tab, backspace and form feed by name, the other
    /// controls below U+0020 as `\u00xx`; everything else as its UTF-8.
    static func append(_ string: String, escapingSlashes: Bool, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        // Bytes below 0x80 are always whole characters in UTF-8, so escaping byte by byte
        // escapes exactly the scalars below U+0080 that need it.
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"", to: &bytes)
            case UInt8(ascii: "\\"): append("\\\\", to: &bytes)
            case UInt8(ascii: "/") where escapingSlashes: append("\\/", to: &bytes)
            case 0x0A: append("\\n", to: &bytes)
            case 0x0D: append("\\r", to: &bytes)
            case 0x09: append("\\t", to: &bytes)
            case 0x08: append("\\b", to: &bytes)
            case 0x0C: append("\\f", to: &bytes)
            case 0..<0x20:
                append("\\u00", to: &bytes)
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    private static func append(_ text: StaticString, to bytes: inout [UInt8]) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }
}
