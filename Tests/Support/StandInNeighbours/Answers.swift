import CGLib
import GLibSupport

/// How a stand-in answers one method call.
enum AnswerKind: String, CaseIterable {
    /// What a real neighbour would answer (so the agent goes down its deeper paths too).
    case correct
    /// Correctly typed, odd in content: device ids that are no path element, a status "PLAYING".
    case oddValues = "odd-values"
    /// Another type altogether: `(s)` for `(v)`, `(u)` for `(as)`.
    case wrongType = "wrong-type"
    /// No value: `()`.
    case empty
    /// The right values and more after them.
    case extraValues = "extra-values"
    /// A variant holding another type than it should (`(v)` holding an int).
    case variantWrongType = "v-wrong-type"
    /// A string of 100 kB where a string goes (or instead of the value).
    case hugeString = "huge-string"
    /// An array of 10,000 elements where an array goes (or beside the value).
    case hugeArray = "huge-array"
    /// Variants nested 8 to 32 deep.
    case nestedVariant = "nested-variant"
    /// An `a{sv}` with odd keys (empty, huge, duplicated, known keys of the wrong type).
    case oddDictionary = "odd-a{sv}"
    /// A D-Bus error with an odd name and a 5 kB message.
    case error
    /// The correct answer, 0.1 to 3 s late.
    case late
    /// No answer ever.
    case never
    /// The stand-in closes its connection with the call pending, and comes back under the same names.
    case disconnect

    /// How often each kind is chosen, out of the sum.
    static let weights: [(AnswerKind, Int)] = [
        (.correct, 24), (.oddValues, 6), (.wrongType, 9), (.empty, 9), (.extraValues, 6), (.variantWrongType, 8),
        (.hugeString, 5), (.hugeArray, 5), (.nestedVariant, 4), (.oddDictionary, 4), (.error, 9), (.late, 6),
        (.never, 3), (.disconnect, 2),
    ]
}

/// Turns the correct reply to a call into the reply of an `AnswerKind`.
enum Answers {
    /// The body for `kind`, made from `correct` (a floating or owned tuple, consumed): a new
    /// floating tuple. `oddValues` is the caller's business (it knows what the values mean);
    /// here it falls back to odd text in the first string.
    static func body(_ kind: AnswerKind, from correct: OpaquePointer, _ dice: inout Dice) -> OpaquePointer {
        let correct = g_variant_ref_sink(correct)!
        defer { g_variant_unref(correct) }
        let signature = String(cString: g_variant_get_type_string(correct))
        switch kind {
        case .correct, .late, .never, .disconnect, .error:
            return g_variant_ref(correct)
        case .empty:
            // `()` is right for a method without results: then a value too many.
            return signature == "()" ? Variant.tuple([Oddities.basic(&dice)]) : Variant.tuple([])
        case .wrongType:
            return wrongType(than: signature, &dice)
        case .extraValues:
            return Variant.tuple(children(of: correct) + (0..<(1 + dice.below(3))).map { _ in Oddities.value(&dice) })
        case .variantWrongType:
            if signature.contains("v") { return replacingVariants(in: correct, &dice) }
            return wrongType(than: signature, &dice)
        case .hugeString:
            var replaced = false
            let huge = replacingFirst(in: correct, where: { String(cString: g_variant_get_type_string($0)) == "s" }, done: &replaced) { _ in
                g_variant_new_string(Oddities.hugeText(&dice))
            }
            if replaced { return huge }
            g_variant_unref(g_variant_ref_sink(huge))
            return Variant.tuple([g_variant_new_string(Oddities.hugeText(&dice))])
        case .hugeArray:
            var replaced = false
            let huge = replacingFirst(in: correct, where: { g_variant_is_container($0) != 0 && String(cString: g_variant_get_type_string($0)).hasPrefix("a") },
                                      done: &replaced) { array in hugeArray(like: array, &dice) }
            if replaced { return huge }
            g_variant_unref(g_variant_ref_sink(huge))
            return Variant.tuple(children(of: correct) + [Oddities.hugeArray(&dice)])
        case .nestedVariant:
            if signature.contains("v") {
                var replaced = false
                return replacingFirst(in: correct, where: { String(cString: g_variant_get_type_string($0)) == "v" }, done: &replaced) { _ in
                    Oddities.nestedVariant(&dice)
                }
            }
            return Variant.tuple([Oddities.nestedVariant(&dice)])
        case .oddDictionary:
            var replaced = false
            let odd = replacingFirst(in: correct, where: { String(cString: g_variant_get_type_string($0)) == "a{sv}" }, done: &replaced) { _ in
                Oddities.dictionary(&dice)
            }
            if replaced { return odd }
            g_variant_unref(g_variant_ref_sink(odd))
            return signature == "(v)" ? Variant.tuple([g_variant_new_variant(Oddities.dictionary(&dice))]) : Variant.tuple([Oddities.dictionary(&dice)])
        case .oddValues:
            var replaced = false
            let odd = replacingFirst(in: correct, where: { String(cString: g_variant_get_type_string($0)) == "s" }, done: &replaced) { _ in
                g_variant_new_string(Oddities.text(&dice))
            }
            return odd
        }
    }

    /// A tuple of another type than `signature`.
    static func wrongType(than signature: String, _ dice: inout Dice) -> OpaquePointer {
        while true {
            let candidate: OpaquePointer = switch dice.below(7) {
            case 0: Variant.tuple([Oddities.basic(&dice)])
            case 1: Variant.tuple([g_variant_new_string(Oddities.text(&dice))])
            case 2: Variant.tuple([g_variant_new_uint32(7)])
            case 3: Variant.tuple([Oddities.basic(&dice), Oddities.basic(&dice)])
            case 4: Variant.tuple([Variant.make(strings: ["Playing"])])
            case 5: Variant.tuple([Oddities.dictionary(&dice)])
            default: Variant.tuple([Oddities.value(&dice)])
            }
            if String(cString: g_variant_get_type_string(candidate)) != signature { return candidate }
            g_variant_unref(g_variant_ref_sink(candidate))
        }
    }

    /// The children of a container, as new references.
    static func children(of container: OpaquePointer) -> [OpaquePointer] {
        (0..<g_variant_n_children(container)).map { g_variant_get_child_value(container, $0)! }
    }

    /// `value` with every variant in it holding a value of another type (a new floating value).
    static func replacingVariants(in value: OpaquePointer, _ dice: inout Dice) -> OpaquePointer {
        let type = String(cString: g_variant_get_type_string(value))
        if type == "v" {
            let inner = g_variant_get_variant(value)!
            defer { g_variant_unref(inner) }
            return g_variant_new_variant(Oddities.basic(&dice, excluding: String(cString: g_variant_get_type_string(inner))))
        }
        guard type.contains("v"), g_variant_is_container(value) != 0 else { return g_variant_ref(value) }
        return rebuild(value, children(of: value).map { child in
            defer { g_variant_unref(child) }
            return replacingVariants(in: child, &dice)
        })
    }

    /// `value` with the first part (depth first) for which `matches` holds replaced by `make(part)`.
    static func replacingFirst(in value: OpaquePointer, where matches: (OpaquePointer) -> Bool, done: inout Bool,
                               _ make: (OpaquePointer) -> OpaquePointer) -> OpaquePointer {
        if !done, matches(value) {
            done = true
            return make(value)
        }
        guard !done, g_variant_is_container(value) != 0, String(cString: g_variant_get_type_string(value)).first != "a" || g_variant_n_children(value) > 0 else {
            return g_variant_ref(value)
        }
        let type = String(cString: g_variant_get_type_string(value))
        // In an array every element must keep the element type: replace only in the first,
        // and only by a part of the same type (a string for a string), else leave it.
        let parts = children(of: value)
        var rebuilt: [OpaquePointer] = []
        for part in parts {
            defer { g_variant_unref(part) }
            if done {
                rebuilt.append(g_variant_ref(part))
                continue
            }
            let replaced = replacingFirst(in: part, where: matches, done: &done, make)
            if type.first == "a", String(cString: g_variant_get_type_string(replaced)) != String(cString: g_variant_get_type_string(part)) {
                g_variant_unref(g_variant_ref_sink(replaced))
                rebuilt.append(g_variant_ref(part))
                done = false
            } else {
                rebuilt.append(replaced)
            }
        }
        return rebuild(value, rebuilt)
    }

    /// A container of `value`'s kind with `parts` (consumed) instead of its children.
    static func rebuild(_ value: OpaquePointer, _ parts: [OpaquePointer]) -> OpaquePointer {
        let type = String(cString: g_variant_get_type_string(value))
        let optionals: [OpaquePointer?] = parts
        switch type.first {
        case "v": return g_variant_new_variant(parts[0])
        case "{": return g_variant_new_dict_entry(parts[0], parts[1])
        case "a":
            let element = g_variant_type_element(g_variant_get_type(value))
            return optionals.withUnsafeBufferPointer { g_variant_new_array(element, $0.baseAddress, gsize($0.count)) }
        default: return Variant.tuple(parts)
        }
    }

    /// An array of the same type as `array` with `Oddities.hugeCount` elements (its first repeated,
    /// or samples of the element type).
    static func hugeArray(like array: OpaquePointer, _ dice: inout Dice) -> OpaquePointer {
        let element = g_variant_type_element(g_variant_get_type(array))!
        let first: OpaquePointer? = g_variant_n_children(array) > 0 ? g_variant_get_child_value(array, 0) : nil
        defer { if let first { g_variant_unref(first) } }
        let items: [OpaquePointer?] = (0..<Oddities.hugeCount).map { _ in first.map { g_variant_ref($0) } ?? Oddities.sample(of: element, &dice) }
        return items.withUnsafeBufferPointer { g_variant_new_array(element, $0.baseAddress, gsize($0.count)) }
    }

    /// `variant` as text for the log: its type and at most `limit` characters of it, with its size.
    static func describe(_ variant: OpaquePointer?, limit: Int = 160) -> String {
        guard let variant else { return "nothing" }
        let size = g_variant_get_size(variant)
        let type = String(cString: g_variant_get_type_string(variant))
        // Printing a 100 kB value to cut it would cost more than the call: huge values are described.
        guard size < 4096 else { return "\(type) of \(size) bytes" }
        guard let printed = g_variant_print(variant, 0) else { return type }
        defer { g_free(printed) }
        var text = String(cString: printed).replacingOccurrences(of: "\n", with: "\\n")
        if text.count > limit { text = String(text.prefix(limit)) + "…" }
        return "\(type) \(text)"
    }
}
