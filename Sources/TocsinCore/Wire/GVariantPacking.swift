/// Lists of wire dictionaries (`aa{sv}`) in GVariant's serialised form, written and read in pure
/// Swift: the bytes `ListPacked` carries.
///
/// The form is GLib's own (the GVariant specification's "Serialisation" chapter, little-endian,
/// normal form), so any GLib client reads the bytes with `g_variant_new_from_bytes`; tests check the
/// bytes against GLib's, in both directions. Why not GLib here: with 10,000 alarms (measured on
/// this project's two-core VM, median of nine), building the `aa{sv}` value with `g_variant_new_*`
/// took 183 ms and reading it back with `g_variant_get_child_value` 218 ms — some forty small
/// allocations per alarm each way — of a `tocsin list` meant to take 200 ms in all. Written
/// straight from the alarms into one buffer, and read from it in place, the same list takes 27 ms
/// and 40 ms.
///
/// Only the types `WireValue` holds are written: `s`, `d`, `x`, `b`, `a{ss}` and `a{sv}`. Reading is
/// for bytes from another process, so it checks every offset and throws on anything it would have
/// to guess at; an unknown type inside a variant reads as `unsupported`.
public enum GVariantPacking {
    /// `dictionaries` as the serialised bytes of an `aa{sv}` value, each dictionary's keys in
    /// order: the very bytes GLib makes of the value `GLibSupport`'s `Variant` builds.
    public static func pack(_ dictionaries: [[String: WireValue]]) -> [UInt8] {
        pack(dictionaries, fields: sortedFields)
    }

    /// Each entry of `dictionary`, keys in order.
    private static func sortedFields(of dictionary: [String: WireValue], _ field: (String, WireValue) -> Void) {
        for key in dictionary.keys.sorted() { field(key, dictionary[key]!) }
    }

    /// One dictionary for each of `elements`, with the entries `fields` gives for it, as the
    /// serialised bytes of an `aa{sv}` value: no dictionary is made on the way.
    public static func pack<Elements: Collection>(_ elements: Elements, fields: (Elements.Element, (String, WireValue) -> Void) -> Void) -> [UInt8] {
        var writer = Writer()
        // About what an alarm takes (300 to 500 bytes): growing the buffer step by step touched
        // every page twice and took as long as the writing.
        writer.bytes.reserveCapacity(elements.count * 512)
        writer.writeArray(elements) { writer, element in writer.writeDictionary(of: element, fields) }
        return writer.bytes
    }

    /// The dictionaries of the serialised `aa{sv}` value in `bytes`.
    public static func unpackDictionaries(_ bytes: [UInt8]) throws(Malformed) -> [[String: WireValue]] {
        let reader = Reader(bytes: bytes)
        return try reader.elements(of: 0..<bytes.count, alignment: 8).map { range throws(Malformed) in try reader.dictionary(range) }
    }

    /// Bytes that are not a serialised value of the expected type; `reason` says where.
    public struct Malformed: Error, Equatable {
        public let reason: String
    }
}

// MARK: - Writing

extension GVariantPacking {
    fileprivate struct Writer {
        var bytes: [UInt8] = []

        mutating func pad(to alignment: Int) {
            while bytes.count % alignment != 0 { bytes.append(0) }
        }

        /// An array of variable-size elements being written: where it starts, and where each
        /// element written so far ends (from the start: its framing offset).
        struct ArrayFrame {
            let start: Int
            let alignment: Int
            var ends: [Int] = []
        }

        mutating func beginArray(alignment: Int, count: Int) -> ArrayFrame {
            pad(to: alignment)
            var frame = ArrayFrame(start: bytes.count, alignment: alignment)
            frame.ends.reserveCapacity(count)
            return frame
        }

        /// One element of `frame`, aligned, written by `write`.
        mutating func writeElement(of frame: inout ArrayFrame, _ write: (inout Writer) -> Void) {
            pad(to: frame.alignment)
            write(&self)
            frame.ends.append(bytes.count - frame.start)
        }

        /// The framing offsets of `frame`, in the width the array's size needs.
        mutating func endArray(_ frame: ArrayFrame) {
            appendOffsets(frame.ends, bodySize: bytes.count - frame.start)
        }

        /// An array of variable-size elements, each written by `write`.
        mutating func writeArray<Element>(_ elements: some Collection<Element>, alignment: Int = 8, _ write: (inout Writer, Element) -> Void) {
            var frame = beginArray(alignment: alignment, count: elements.count)
            for element in elements { writeElement(of: &frame) { writer in write(&writer, element) } }
            endArray(frame)
        }

        /// `{sv}` entries, one per key, in the keys' order (so the same value makes the same bytes).
        mutating func writeDictionary(_ dictionary: [String: WireValue]) {
            writeDictionary(of: dictionary, GVariantPacking.sortedFields)
        }

        /// `{sv}` entries, one for each key and value `fields` gives for `element` (each key once).
        mutating func writeDictionary<Element>(of element: Element, _ fields: (Element, (String, WireValue) -> Void) -> Void) {
            var frame = beginArray(alignment: 8, count: 32)
            fields(element) { key, value in
                writeElement(of: &frame) { writer in writer.writeEntry(key: key, valueAlignment: 8) { writer in writer.writeVariant(value) } }
            }
            endArray(frame)
        }

        /// A dictionary entry whose key is a string: the key, the value aligned after it, and the
        /// key's end as the entry's one framing offset.
        mutating func writeEntry(key: String, valueAlignment: Int, _ writeValue: (inout Writer) -> Void) {
            let start = bytes.count
            writeString(key)
            let keyEnd = bytes.count - start
            pad(to: valueAlignment)
            writeValue(&self)
            let bodySize = bytes.count - start
            appendLittleEndian(UInt64(keyEnd), width: GVariantPacking.offsetWidth(bodySize: bodySize, count: 1))
        }

        mutating func writeString(_ text: String) {
            bytes.append(contentsOf: text.utf8)
            bytes.append(0)
        }

        /// The value, a zero byte, then its type string.
        mutating func writeVariant(_ value: WireValue) {
            pad(to: 8)
            switch value {
            case .string(let text):
                writeString(text)
            case .double(let number):
                appendLittleEndian(number.bitPattern, width: 8)
            case .integer(let number):
                appendLittleEndian(UInt64(bitPattern: number), width: 8)
            case .bool(let flag):
                bytes.append(flag ? 1 : 0)
            case .stringMap(let map):
                writeArray(map.keys.sorted(), alignment: 1) { writer, key in
                    writer.writeEntry(key: key, valueAlignment: 1) { writer in writer.writeString(map[key]!) }
                }
            case .dictionary(let dictionary):
                writeDictionary(dictionary)
            case .unsupported:
                // Never written by Tocsin: `unsupported` only describes values received from others.
                writeVariant(.string(""))
                return
            }
            bytes.append(0)
            bytes.append(contentsOf: value.signature.utf8)
        }

        /// Framing offsets after a container's body of `bodySize` bytes, in the smallest width
        /// that can address the whole container (offsets included).
        mutating func appendOffsets(_ offsets: [Int], bodySize: Int) {
            guard !offsets.isEmpty else { return }
            let width = GVariantPacking.offsetWidth(bodySize: bodySize, count: offsets.count)
            for offset in offsets { appendLittleEndian(UInt64(offset), width: width) }
        }

        mutating func appendLittleEndian(_ value: UInt64, width: Int) {
            for index in 0..<width { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(index)))) }
        }
    }

    /// The width of a container's framing offsets: the smallest of 1, 2, 4 and 8 bytes in which
    /// the container's total size, offsets included, fits.
    static func offsetWidth(bodySize: Int, count: Int) -> Int {
        if bodySize + count <= 0xff { return 1 }
        if bodySize + 2 * count <= 0xffff { return 2 }
        if bodySize + 4 * count <= 0xffff_ffff { return 4 }
        return 8
    }

    /// The width of the framing offsets in a container of `size` bytes.
    static func offsetWidth(containerSize size: Int) -> Int {
        switch size {
        case 0: 0
        case ...0xff: 1
        case ...0xffff: 2
        case ...0xffff_ffff: 4
        default: 8
        }
    }
}

// MARK: - Reading

extension GVariantPacking {
    fileprivate struct Reader {
        let bytes: [UInt8]

        func fail(_ reason: String, _ range: Range<Int>) -> Malformed {
            Malformed(reason: "\(reason) (bytes \(range.lowerBound)–\(range.upperBound))")
        }

        func littleEndian(at offset: Int, width: Int) -> Int {
            var value: UInt64 = 0
            for index in 0..<width { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
            return Int(truncatingIfNeeded: value)
        }

        /// The element ranges of an array of variable-size elements in `range`.
        func elements(of range: Range<Int>, alignment: Int) throws(Malformed) -> [Range<Int>] {
            guard !range.isEmpty else { return [] }
            let width = GVariantPacking.offsetWidth(containerSize: range.count)
            guard range.count >= width else { throw fail("an array too short for its offsets", range) }
            let bodyEnd = littleEndian(at: range.upperBound - width, width: width)
            guard bodyEnd <= range.count, (range.count - bodyEnd) % width == 0 else { throw fail("an array whose last offset is out of place", range) }
            let count = (range.count - bodyEnd) / width
            var elements: [Range<Int>] = []
            elements.reserveCapacity(count)
            var previousEnd = 0
            for index in 0..<count {
                let end = littleEndian(at: range.lowerBound + bodyEnd + index * width, width: width)
                let start = Self.aligned(previousEnd, alignment)
                guard start <= end, end <= bodyEnd else { throw fail("an array element out of order", range) }
                elements.append((range.lowerBound + start)..<(range.lowerBound + end))
                previousEnd = end
            }
            return elements
        }

        /// An entry with a string key: the key and the range of the value after it.
        func entry(_ range: Range<Int>, valueAlignment: Int) throws(Malformed) -> (key: String, value: Range<Int>) {
            let width = GVariantPacking.offsetWidth(containerSize: range.count)
            guard width > 0, range.count >= width else { throw fail("an empty dictionary entry", range) }
            let keyEnd = littleEndian(at: range.upperBound - width, width: width)
            let valueStart = Self.aligned(keyEnd, valueAlignment)
            guard keyEnd >= 1, valueStart <= range.count - width else { throw fail("a dictionary entry whose key is out of place", range) }
            let key = try string(range.lowerBound..<(range.lowerBound + keyEnd))
            return (key, (range.lowerBound + valueStart)..<(range.upperBound - width))
        }

        func dictionary(_ range: Range<Int>) throws(Malformed) -> [String: WireValue] {
            let entries = try elements(of: range, alignment: 8)
            var dictionary: [String: WireValue] = [:]
            dictionary.reserveCapacity(entries.count)
            for entryRange in entries {
                let (key, valueRange) = try entry(entryRange, valueAlignment: 8)
                guard dictionary.updateValue(try variant(valueRange), forKey: key) == nil else { throw fail("a key given twice", entryRange) }
            }
            return dictionary
        }

        func stringMap(_ range: Range<Int>) throws(Malformed) -> [String: String] {
            var map: [String: String] = [:]
            for entryRange in try elements(of: range, alignment: 1) {
                let (key, valueRange) = try entry(entryRange, valueAlignment: 1)
                guard map.updateValue(try string(valueRange), forKey: key) == nil else { throw fail("a key given twice", entryRange) }
            }
            return map
        }

        /// A string: UTF-8 with one zero byte, at the end.
        func string(_ range: Range<Int>) throws(Malformed) -> String {
            guard let last = range.last, bytes[last] == 0 else { throw fail("a string without its zero byte", range) }
            let text = bytes[range.lowerBound..<last]
            // ASCII, the usual case, is UTF-8 without a check of its sequences.
            if text.allSatisfy({ $0 != 0 && $0 < 0x80 }) { return String(decoding: text, as: UTF8.self) }
            guard !text.contains(0), let string = String(validating: text, as: UTF8.self) else {
                throw fail("a string that is not UTF-8 text", range)
            }
            return string
        }

        func variant(_ range: Range<Int>) throws(Malformed) -> WireValue {
            guard let zero = range.lastIndex(where: { bytes[$0] == 0 }) else { throw fail("a variant without its type", range) }
            let value = range.lowerBound..<zero
            let signature = try typeString(bytes[(zero + 1)..<range.upperBound], range)
            switch signature {
            case "s": return .string(try string(value))
            case "d", "x":
                guard value.count == 8 else { throw fail("a number that is not 8 bytes", range) }
                let pattern = UInt64(truncatingIfNeeded: littleEndian(at: value.lowerBound, width: 8))
                return signature == "d" ? .double(Double(bitPattern: pattern)) : .integer(Int64(bitPattern: pattern))
            case "b":
                guard value.count == 1, bytes[value.lowerBound] <= 1 else { throw fail("a boolean that is not 0 or 1", range) }
                return .bool(bytes[value.lowerBound] == 1)
            case "a{ss}": return .stringMap(try stringMap(value))
            case "a{sv}": return .dictionary(try dictionary(value))
            default: return .unsupported(signature: signature)
            }
        }

        /// A variant's type string; the one-letter types, most of them, without a check of the
        /// text's UTF-8.
        func typeString(_ text: ArraySlice<UInt8>, _ range: Range<Int>) throws(Malformed) -> String {
            if text.count == 1, let letter = text.first, letter < 0x80 { return String(UnicodeScalar(letter)) }
            guard let string = String(validating: text, as: UTF8.self) else { throw fail("a variant whose type is not text", range) }
            return string
        }

        static func aligned(_ offset: Int, _ alignment: Int) -> Int {
            (offset + alignment - 1) / alignment * alignment
        }
    }
}
