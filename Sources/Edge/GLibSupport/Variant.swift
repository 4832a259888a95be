import CGLib
import FoundationEssentials
import Synchronization
import TocsinCore

/// Conversions between GLib's `GVariant` and TocsinCore's `WireValue`, so only this file knows
/// how D-Bus values are built and taken apart.
public enum Variant {
    /// A new floating `a{sv}` variant holding `dictionary` (keys sorted, for stable output).
    public static func make(dictionary: [String: WireValue]) -> OpaquePointer {
        let entries: [OpaquePointer?] = dictionary.keys.sorted().map { key in
            g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(make(dictionary[key]!)))
        }
        return entries.withUnsafeBufferPointer { buffer in
            g_variant_new_array(type("{sv}"), buffer.baseAddress, gsize(buffer.count))
        }
    }

    /// A new floating `aa{sv}` variant holding `dictionaries`.
    public static func make(dictionaries: [[String: WireValue]]) -> OpaquePointer {
        make(dictionariesOf: dictionaries) { $0 }
    }

    /// A new floating array (`aa{sv}`) of one dictionary per element of `elements`, made by
    /// `dictionary`.
    ///
    /// Each dictionary is made and serialised before the next one: a dictionary in GVariant's tree
    /// form is some thirty small allocations, serialised it is one. A `List` of 10,000 alarms
    /// built as one tree reached 127 MB before GDBus serialised the reply; one at a time, it stays
    /// near twice the size of the reply itself.
    public static func make<Elements: Sequence>(dictionariesOf elements: Elements, _ dictionary: (Elements.Element) -> [String: WireValue]) -> OpaquePointer {
        var children: [OpaquePointer?] = []
        children.reserveCapacity(elements.underestimatedCount)
        for element in elements {
            let child = g_variant_ref_sink(make(dictionary: dictionary(element)))
            // Serialising replaces the tree of the dictionary's entries with one buffer.
            _ = g_variant_get_data(child)
            children.append(child)
        }
        defer { children.forEach { g_variant_unref($0) } }
        return children.withUnsafeBufferPointer { buffer in
            // The array takes references of its own.
            g_variant_new_array(type("a{sv}"), buffer.baseAddress, gsize(buffer.count))
        }
    }

    /// A new floating `ay` holding `bytes`.
    public static func byteArray(_ bytes: [UInt8]) -> OpaquePointer {
        bytes.withUnsafeBytes { buffer in
            g_variant_new_fixed_array(type("y"), buffer.baseAddress, gsize(buffer.count), 1)
        }
    }

    /// The value of type `signature` whose serialised form is `bytes` (copied), as a new
    /// reference the caller must `g_variant_unref`. The bytes are not trusted: GLib checks them
    /// as they are read, and a part that is not well formed reads as its type's empty value.
    public static func fromSerialised(_ bytes: [UInt8], as signature: String) -> OpaquePointer {
        // Copied into GBytes: GLib keeps reading the data for as long as the value lives.
        let data = bytes.withUnsafeBytes { buffer in g_bytes_new(buffer.baseAddress, gsize(buffer.count))! }
        defer { g_bytes_unref(data) }
        return g_variant_ref_sink(g_variant_new_from_bytes(type(signature), data, 0))!
    }

    /// The bytes of an `ay` variant.
    public static func bytes(ofByteArray variant: OpaquePointer) -> [UInt8] {
        var count: gsize = 0
        guard let start = g_variant_get_fixed_array(variant, &count, 1) else { return [] }
        return Array(UnsafeRawBufferPointer(start: start, count: Int(count)))
    }

    /// A new floating tuple of `children` (D-Bus method arguments and signal bodies are tuples).
    public static func tuple(_ children: [OpaquePointer]) -> OpaquePointer {
        let optionals: [OpaquePointer?] = children
        return optionals.withUnsafeBufferPointer { buffer in
            g_variant_new_tuple(buffer.baseAddress, gsize(buffer.count))
        }
    }

    /// A new floating tuple of `arguments`: a method call's, a reply's or a signal's, as
    /// `AlarmsInterface`'s table writes them.
    public static func tuple(of arguments: [WireArgument]) -> OpaquePointer {
        tuple(arguments.map { argument in
            switch argument {
            case .value(let value): make(value)
            case .dictionaries(let dictionaries): make(dictionariesOf: dictionaries) { $0 }
            case .bytes(let bytes): byteArray(bytes)
            }
        })
    }

    /// The children of `tuple` (a method call's, a reply's or a signal's arguments), for
    /// `AlarmsInterface`'s table to read: lists of dictionaries and byte arrays as such, any
    /// other value as a `WireValue`.
    public static func arguments(ofTuple tuple: OpaquePointer) -> [WireArgument] {
        (0..<Int(g_variant_n_children(tuple))).map { index in
            let argument = child(tuple, index)
            defer { g_variant_unref(argument) }
            switch String(cString: g_variant_get_type_string(argument)) {
            case "aa{sv}": return .dictionaries(WireDictionaries(dictionaries(argument)))
            case "ay": return .bytes(bytes(ofByteArray: argument))
            default: return .value(wireValue(argument))
            }
        }
    }

    /// The type of a tuple of `arguments`, such as `(sa{sv})`: what a reply to a call must be.
    public static func tupleType(of arguments: [AlarmsInterface.Argument]) -> OpaquePointer {
        type("(" + arguments.map(\.signature).joined() + ")")
    }

    /// A new floating variant holding `value`.
    public static func make(_ value: WireValue) -> OpaquePointer {
        switch value {
        case .string(let text): return g_variant_new_string(text)
        case .double(let number): return g_variant_new_double(number)
        case .integer(let number): return g_variant_new_int64(gint64(number))
        case .bool(let flag): return g_variant_new_boolean(flag ? 1 : 0)
        case .dictionary(let dictionary): return make(dictionary: dictionary)
        case .stringMap(let map):
            let entries: [OpaquePointer?] = map.keys.sorted().map { key in
                g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_string(map[key]!))
            }
            return entries.withUnsafeBufferPointer { buffer in
                g_variant_new_array(type("{ss}"), buffer.baseAddress, gsize(buffer.count))
            }
        case .unsupported:
            // Never built by Tocsin: `unsupported` only describes values received from others.
            return g_variant_new_string("")
        }
    }

    /// The `WireValue` a variant holds; types the wire format never uses come back as `unsupported`.
    public static func wireValue(_ variant: OpaquePointer) -> WireValue {
        let signature = String(cString: g_variant_get_type_string(variant))
        switch signature {
        case "s", "o", "g": return .string(String(cString: g_variant_get_string(variant, nil)))
        case "d": return .double(g_variant_get_double(variant))
        case "b": return .bool(g_variant_get_boolean(variant) != 0)
        case "y": return .integer(Int64(g_variant_get_byte(variant)))
        case "n": return .integer(Int64(g_variant_get_int16(variant)))
        case "q": return .integer(Int64(g_variant_get_uint16(variant)))
        case "i": return .integer(Int64(g_variant_get_int32(variant)))
        case "u": return .integer(Int64(g_variant_get_uint32(variant)))
        case "x": return .integer(Int64(g_variant_get_int64(variant)))
        case "t":
            let number = g_variant_get_uint64(variant)
            return number <= UInt(Int64.max) ? .integer(Int64(number)) : .unsupported(signature: signature)
        case "v":
            let inner = g_variant_get_variant(variant)!
            defer { g_variant_unref(inner) }
            return wireValue(inner)
        case "a{sv}": return .dictionary(dictionary(variant))
        case "a{ss}":
            var map: [String: String] = [:]
            forEachEntry(of: variant) { key, value in
                map[key] = String(cString: g_variant_get_string(value, nil))
            }
            return .stringMap(map)
        default: return .unsupported(signature: signature)
        }
    }

    /// The entries of an `a{sv}` variant.
    public static func dictionary(_ variant: OpaquePointer) -> [String: WireValue] {
        var result: [String: WireValue] = [:]
        forEachEntry(of: variant) { key, value in
            result[key] = wireValue(value)
        }
        return result
    }

    /// The `a{sv}` elements of an `aa{sv}` variant.
    public static func dictionaries(_ variant: OpaquePointer) -> [[String: WireValue]] {
        (0..<g_variant_n_children(variant)).map { index in
            let child = g_variant_get_child_value(variant, index)!
            defer { g_variant_unref(child) }
            return dictionary(child)
        }
    }

    /// The objects in an ObjectManager's checked `GetManagedObjects` reply, `(a{oa{sa{sv}}})`:
    /// object path → interface → properties; the first `limit` objects only.
    public static func managedObjects(in reply: OpaquePointer, limit: Int = .max) -> [String: [String: [String: WireValue]]] {
        let objects = child(reply, 0)
        defer { g_variant_unref(objects) }
        var result: [String: [String: [String: WireValue]]] = [:]
        forEachEntry(of: objects, limit: limit) { path, interfaces in
            var properties: [String: [String: WireValue]] = [:]
            forEachEntry(of: interfaces) { interface, values in properties[interface] = dictionary(values) }
            result[path] = properties
        }
        return result
    }

    /// Child `index` of a tuple, as a new reference the caller must `g_variant_unref`. The
    /// tuple's type must have been checked (a reply by `BusCall`, a signal's body by
    /// `BusSignalSubscription`, a call's arguments by GDBus against the introspection data):
    /// GLib has no child to give past the end of a tuple.
    public static func child(_ variant: OpaquePointer, _ index: Int) -> OpaquePointer {
        g_variant_get_child_value(variant, gsize(index))!
    }

    /// The string child `index` of a checked tuple, cut to at most `maxBytes` bytes of UTF-8 (at
    /// a character's boundary): how much of another program's text the agent takes.
    public static func string(in tuple: OpaquePointer, at index: Int, maxBytes: Int) -> String {
        let child = child(tuple, index)
        defer { g_variant_unref(child) }
        return boundedString(child, maxBytes: maxBytes)
    }

    /// At most `limit` of the strings of the checked `as` child `index` of a tuple, each cut to
    /// `maxBytes` bytes: a neighbour's list of names or capabilities, however long it made it.
    public static func strings(in tuple: OpaquePointer, at index: Int, limit: Int, maxBytes: Int) -> [String] {
        let list = child(tuple, index)
        defer { g_variant_unref(list) }
        return (0..<min(Int(g_variant_n_children(list)), max(0, limit))).map { item in
            let element = g_variant_get_child_value(list, gsize(item))!
            defer { g_variant_unref(element) }
            return boundedString(element, maxBytes: maxBytes)
        }
    }

    /// The text of a string (or object path) variant, cut to at most `maxBytes` bytes of UTF-8
    /// at a character's boundary, without copying more than that.
    public static func boundedString(_ variant: OpaquePointer, maxBytes: Int) -> String {
        var length: gsize = 0
        guard let start = g_variant_get_string(variant, &length) else { return "" }
        var count = min(Int(length), max(0, maxBytes))
        // Back over continuation bytes (10xxxxxx), so the cut falls between two characters.
        if count < Int(length) {
            while count > 0, UInt8(bitPattern: start[count]) & 0xC0 == 0x80 { count -= 1 }
        }
        return start.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
            String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        }
    }

    /// The value inside the checked `v` child `index` of a tuple (a property's `Get` reply) as a
    /// `WireValue`: `unsupported` when it holds a type `WireValue` does not read, which the
    /// property's reader then refuses.
    /// A variant inside the variant (a box in a box) is not the property's value: it reads as
    /// `unsupported`, however deep the boxes go.
    public static func boxedValue(in tuple: OpaquePointer, at index: Int) -> WireValue {
        let boxed = child(tuple, index)
        defer { g_variant_unref(boxed) }
        guard let inner = g_variant_get_variant(boxed) else { return .unsupported(signature: "") }
        defer { g_variant_unref(inner) }
        let signature = String(cString: g_variant_get_type_string(inner))
        return signature == "v" ? .unsupported(signature: signature) : wireValue(inner)
    }

    /// The string child `index` of a tuple such as a method's `(s)` arguments.
    public static func string(in tuple: OpaquePointer, at index: Int) -> String {
        let child = child(tuple, index)
        defer { g_variant_unref(child) }
        return String(cString: g_variant_get_string(child, nil))
    }

    /// The strings of the `as` child `index` of a tuple, such as an `(as)` reply.
    public static func strings(in tuple: OpaquePointer, at index: Int) -> [String] {
        elements(in: tuple, at: index) { String(cString: g_variant_get_string($0, nil)) }
    }

    /// Each element of the array child `index` of a tuple, read by `read`.
    private static func elements<Element>(in tuple: OpaquePointer, at index: Int, _ read: (OpaquePointer) -> Element) -> [Element] {
        let list = child(tuple, index)
        defer { g_variant_unref(list) }
        return (0..<g_variant_n_children(list)).map { item in
            let element = g_variant_get_child_value(list, item)!
            defer { g_variant_unref(element) }
            return read(element)
        }
    }

    /// The `i` child `index` of a tuple.
    public static func int32(in tuple: OpaquePointer, at index: Int) -> Int32 {
        let child = child(tuple, index)
        defer { g_variant_unref(child) }
        return g_variant_get_int32(child)
    }

    /// The `b` child `index` of a tuple, such as a signal's `(b)`.
    public static func bool(in tuple: OpaquePointer, at index: Int) -> Bool {
        let child = child(tuple, index)
        defer { g_variant_unref(child) }
        return g_variant_get_boolean(child) != 0
    }

    /// The numbers of the `ai` child `index` of a tuple.
    public static func int32s(in tuple: OpaquePointer, at index: Int) -> [Int32] {
        elements(in: tuple, at: index) { g_variant_get_int32($0) }
    }

    /// A new floating `ai` of `numbers`.
    public static func make(int32s numbers: [Int32]) -> OpaquePointer {
        let children: [OpaquePointer?] = numbers.map { g_variant_new_int32($0) }
        return children.withUnsafeBufferPointer { g_variant_new_array(type("i"), $0.baseAddress, gsize($0.count)) }
    }

    /// A new floating `as` of `strings`.
    public static func make(strings: [String]) -> OpaquePointer {
        let children: [OpaquePointer?] = strings.map { g_variant_new_string($0) }
        return children.withUnsafeBufferPointer { g_variant_new_array(type("s"), $0.baseAddress, gsize($0.count)) }
    }

    /// A new floating `a{sv}` of `values`, new floating variants of any type (an object path, a
    /// list of strings: what `WireValue` has no case for), keys sorted.
    public static func make(variants values: [String: OpaquePointer]) -> OpaquePointer {
        let entries: [OpaquePointer?] = values.keys.sorted().map { key in
            g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(values[key]!))
        }
        return entries.withUnsafeBufferPointer { g_variant_new_array(type("{sv}"), $0.baseAddress, gsize($0.count)) }
    }

    /// A `GVariantType` for a type string. The returned pointer points into a cached table, so it
    /// is never freed; Tocsin uses a handful of fixed type strings.
    public static func type(_ signature: String) -> OpaquePointer {
        VariantTypeCache.shared.type(for: signature)
    }

    private static func forEachEntry(of variant: OpaquePointer, limit: Int = .max, _ body: (String, OpaquePointer) -> Void) {
        for index in 0..<min(g_variant_n_children(variant), gsize(max(0, limit))) {
            let entry = g_variant_get_child_value(variant, index)!
            let keyVariant = g_variant_get_child_value(entry, 0)!
            let valueVariant = g_variant_get_child_value(entry, 1)!
            body(String(cString: g_variant_get_string(keyVariant, nil)), valueVariant)
            g_variant_unref(valueVariant)
            g_variant_unref(keyVariant)
            g_variant_unref(entry)
        }
    }
}

/// `G_VARIANT_TYPE` is a macro Swift cannot call; this keeps one `GVariantType` per type string.
private final class VariantTypeCache: Sendable {
    static let shared = VariantTypeCache()
    // GVariantType pointers are immutable once made and live as long as the process; the mutex
    // guards only the dictionary.
    private let types = Mutex<[String: UnsafeSendablePointer]>([:])

    func type(for signature: String) -> OpaquePointer {
        types.withLock { types in
            if let type = types[signature] { return type.pointer }
            let type = g_variant_type_new(signature)!
            types[signature] = UnsafeSendablePointer(pointer: type)
            return type
        }
    }

    /// A GVariantType pointer, which nothing ever frees or changes.
    private struct UnsafeSendablePointer: @unchecked Sendable {
        let pointer: OpaquePointer
    }
}
