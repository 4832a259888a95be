import FoundationEssentials

extension UUID {
    /// The id `text` spells in the 8-4-4-4-12 hexadecimal form, in either case: what
    /// `UUID(uuidString:)` reads, without its `sscanf`, which was a tenth of the time of reading
    /// an alarm from the agent (10,000 of them in a `tocsin list`). The wire format reads every
    /// id with it, and writes every id with `hexText`.
    package init?(hexText text: String) {
        var bytes = [UInt8](repeating: 0, count: 16)
        var index = 0
        var high: UInt8?
        var position = 0
        for byte in text.utf8 {
            defer { position += 1 }
            if position == 8 || position == 13 || position == 18 || position == 23 {
                guard byte == UInt8(ascii: "-") else { return nil }
                continue
            }
            guard index < 16, let nibble = Self.nibble(byte) else { return nil }
            if let first = high {
                bytes[index] = first << 4 | nibble
                index += 1
                high = nil
            } else {
                high = nibble
            }
        }
        guard position == 36, index == 16 else { return nil }
        self.init(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                         bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// The id in lowercase 8-4-4-4-12 form, as the wire format writes ids: what
    /// `uuidString.lowercased()` gives, without making the uppercase string first.
    package var hexText: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        withUnsafeBytes(of: uuid) { bytes in
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0xf)])
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
