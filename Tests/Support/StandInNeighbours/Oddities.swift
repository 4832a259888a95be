import CGLib
import GLibSupport

/// Well-formed values no neighbour should send: odd text, odd error names, values of any type,
/// huge strings and arrays, deeply nested variants, odd dictionaries. Every value is valid D-Bus
/// (valid UTF-8, valid object paths and signatures, no maybe types, no file descriptors, nesting
/// within the specification's limits), so the bus delivers it. Each returns a new floating GVariant.
enum Oddities {
    /// How long a huge string is: 100 kB.
    static let hugeLength = 100_000
    /// How many elements a huge array has.
    static let hugeCount = 10_000

    // MARK: Text

    /// A short string that is odd to read: empty, control characters, bidi overrides, markup,
    /// format specifiers, combining marks, emoji, a lone BOM, a long line.
    static func text(_ dice: inout Dice) -> String {
        dice.pick([
            "", " ", "\n", "\t\r\u{1}\u{1B}[31m", "\u{202E}desserp\u{202C}", "<b>bold</b> &amp; <i", "%s%n%x%d",
            "e\u{301}\u{302}\u{303}\u{304}", "\u{1F514}\u{200D}\u{1F525}", "\u{FEFF}", "Playing", "Paused", "Stopped",
            "playing ", "PLAYING", "org.mpris.MediaPlayer2.Player", "/", "null", "0", "-1", "true",
            String(repeating: "a", count: 300), String(repeating: "\u{10FFFF}", count: 40), "xfce4-notifyd", "Timezone",
        ])
    }

    /// A string of `hugeLength` bytes, mostly ASCII with a few multi-byte characters.
    static func hugeText(_ dice: inout Dice) -> String {
        let unit = dice.pick(["A", "é", "\u{1F514}", "<b>", "\n", "Playing"])
        let count = hugeLength / unit.utf8.count
        return String(repeating: unit, count: count)
    }

    /// An error name a neighbour should not answer with: names of errors it did not have
    /// (a timeout, an unmapped GError code that GDBus turns into a local one), long, odd.
    static func errorName(_ dice: inout Dice) -> String {
        dice.pick([
            "org.freedesktop.DBus.Error.Failed", "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout",
            "org.freedesktop.DBus.Error.TimedOut", "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.UnknownMethod",
            "org.freedesktop.DBus.Error.UnknownObject", "org.freedesktop.DBus.Error.AccessDenied", "org.freedesktop.DBus.Error.NoMemory",
            "org.freedesktop.DBus.Error.Disconnected", "org.freedesktop.DBus.Error.InvalidArgs",
            // GDBus reads these back as GErrors of other domains: a timeout (G_IO_ERROR_TIMED_OUT is 24), a cancellation (19).
            "org.gtk.GDBus.UnmappedGError.Quark._g_2dio_2derror_2dquark.Code24",
            "org.gtk.GDBus.UnmappedGError.Quark._g_2dio_2derror_2dquark.Code19",
            "org.gtk.GDBus.UnmappedGError.Quark._g_2ddbus_2derror_2dquark.Code999",
            "a.b", "x.y_z.Error0", "io.github.tocsin.Error.NotFound", "org.mpris.MediaPlayer2.Error.Failed",
            "org.freedesktop.Notifications.Error.Exhausted",
            "e." + String(repeating: "a", count: 240) + ".z",
        ])
    }

    /// An error message of about 5 kB: lines, control characters, markup, non-ASCII.
    static func errorMessage(_ dice: inout Dice) -> String {
        var message = ""
        while message.utf8.count < 5000 {
            message += text(&dice) + dice.pick([" ", "\n", "…", "\u{7F}"])
        }
        return message
    }

    // MARK: Values

    /// Basic type strings a value can have.
    static let basicTypes = ["b", "y", "n", "q", "i", "u", "x", "t", "d", "s", "o", "g"]

    /// A random value of a random type: basic, an array, a dictionary, a tuple or a variant,
    /// nested at most `depth` more levels.
    static func value(_ dice: inout Dice, depth: Int = 2) -> OpaquePointer {
        guard depth > 0 else { return basic(&dice) }
        switch dice.below(8) {
        case 0: return Variant.make(strings: (0..<dice.below(4)).map { _ in text(&dice) })
        case 1: return g_variant_new_variant(value(&dice, depth: depth - 1))
        case 2: return dictionary(&dice, depth: depth - 1)
        case 3: return tuple((0..<(1 + dice.below(3))).map { _ in value(&dice, depth: depth - 1) })
        case 4: return Variant.make(int32s: (0..<dice.below(4)).map { _ in Int32(truncatingIfNeeded: dice.next()) })
        default: return basic(&dice)
        }
    }

    /// A value of a basic type, not `excluding` (a type string) when given.
    static func basic(_ dice: inout Dice, excluding: String? = nil) -> OpaquePointer {
        var type = dice.pick(basicTypes)
        while type == excluding { type = dice.pick(basicTypes) }
        return basic(of: type, &dice)
    }

    /// A value of the basic type `type`: edge numbers, odd text, valid paths and signatures.
    static func basic(of type: String, _ dice: inout Dice) -> OpaquePointer {
        switch type {
        case "b": return g_variant_new_boolean(dice.chance(0.5) ? 1 : 0)
        case "y": return g_variant_new_byte(guchar(truncatingIfNeeded: dice.next()))
        case "n": return g_variant_new_int16(dice.pick([0, -1, Int16.min, Int16.max]))
        case "q": return g_variant_new_uint16(dice.pick([0, 1, UInt16.max]))
        case "i": return g_variant_new_int32(dice.pick([0, -1, 1, Int32.min, Int32.max]))
        case "u": return g_variant_new_uint32(dice.pick([0, 1, 2, 7, UInt32.max]))
        case "x": return g_variant_new_int64(dice.pick([0, -1, Int.min, Int.max]))
        case "t": return g_variant_new_uint64(dice.pick([0, UInt.max]))
        case "d": return g_variant_new_double(dice.pick([0, -0.0, .nan, .infinity, -.infinity, 1e308, .leastNonzeroMagnitude]))
        case "o": return g_variant_new_object_path(dice.pick(["/", "/a", "/org/mpris/MediaPlayer2", "/_/_0/" + String(repeating: "x", count: 200)]))
        case "g": return g_variant_new_signature(dice.pick(["", "s", "a{sv}", "(ssss)", "v"]))
        default: return g_variant_new_string(text(&dice))
        }
    }

    /// An `a{sv}` with odd keys: empty, huge, duplicated, known keys holding the wrong type.
    static func dictionary(_ dice: inout Dice, depth: Int = 1) -> OpaquePointer {
        let keys = (0..<(1 + dice.below(5))).map { _ in
            dice.pick(["", "PlaybackStatus", "paused", "Inhibited", "Timezone", "Connected", "Paired", "Id", "Name", "label",
                       String(repeating: "k", count: 1000), text(&dice)])
        }
        let entries: [OpaquePointer?] = keys.map { key in
            g_variant_new_dict_entry(g_variant_new_string(key), g_variant_new_variant(value(&dice, depth: depth)))
        }
        return entries.withUnsafeBufferPointer { g_variant_new_array(Variant.type("{sv}"), $0.baseAddress, gsize($0.count)) }
    }

    /// Variants in variants, `depth` deep (the D-Bus limit is 64 containers; this stays within 32).
    static func nestedVariant(_ dice: inout Dice, depth: Int? = nil) -> OpaquePointer {
        var inner = basic(&dice)
        for _ in 0..<(depth ?? (8 + dice.below(24))) { inner = g_variant_new_variant(inner) }
        return inner
    }

    /// An array of `hugeCount` elements: strings, numbers, variants or dictionaries.
    static func hugeArray(_ dice: inout Dice) -> OpaquePointer {
        switch dice.below(4) {
        case 0: return Variant.make(strings: (0..<hugeCount).map { "item\($0)" })
        case 1: return Variant.make(int32s: (0..<hugeCount).map { Int32($0) })
        case 2:
            let items: [OpaquePointer?] = (0..<hugeCount).map { _ in g_variant_new_variant(g_variant_new_string("Playing")) }
            return items.withUnsafeBufferPointer { g_variant_new_array(Variant.type("v"), $0.baseAddress, gsize($0.count)) }
        default:
            let entries: [OpaquePointer?] = (0..<hugeCount).map {
                g_variant_new_dict_entry(g_variant_new_string("k\($0)"), g_variant_new_variant(g_variant_new_boolean(1)))
            }
            return entries.withUnsafeBufferPointer { g_variant_new_array(Variant.type("{sv}"), $0.baseAddress, gsize($0.count)) }
        }
    }

    static func tuple(_ children: [OpaquePointer]) -> OpaquePointer { Variant.tuple(children) }

    /// A sample value of the GVariant type `type` (a definite D-Bus type): what a neighbour
    /// might put where a value of that type goes, for arrays of it and the like.
    static func sample(of type: OpaquePointer, _ dice: inout Dice) -> OpaquePointer {
        let signature = typeString(type)
        if g_variant_type_is_basic(type) != 0 { return basic(of: signature, &dice) }
        switch signature.first {
        case "v": return g_variant_new_variant(basic(&dice))
        case "a":
            let element = g_variant_type_element(type)!
            let children: [OpaquePointer?] = (0..<dice.below(3)).map { _ in sample(of: element, &dice) }
            return children.withUnsafeBufferPointer { g_variant_new_array(element, $0.baseAddress, gsize($0.count)) }
        case "{":
            return g_variant_new_dict_entry(sample(of: g_variant_type_key(type), &dice), sample(of: g_variant_type_value(type), &dice))
        default:
            var children: [OpaquePointer] = []
            var item = g_variant_type_first(type)
            while let current = item {
                children.append(sample(of: current, &dice))
                item = g_variant_type_next(current)
            }
            return tuple(children)
        }
    }

    static func typeString(_ type: OpaquePointer) -> String {
        let length = Int(g_variant_type_get_string_length(type))
        return g_variant_type_peek_string(type).withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }
}
