import CGLib
import GLibSupport
import Testing
import TocsinCore

/// `Variant` is the only place D-Bus values are built and taken apart; a mistake here would make
/// every request or reply wrong in the same way, so each shape is checked both ways.
@Suite struct VariantTests {
    /// Builds a variant from GVariant text (`g_variant_parse`), as a peer might send it.
    static func parse(_ text: String, type: String? = nil) throws -> OpaquePointer {
        let variant = try GLibError.check { g_variant_parse(type.map(Variant.type), text, nil, nil, $0) }
        return try #require(variant.map { g_variant_ref_sink($0) })
    }

    @Test func dictionaryRoundTripKeepsEveryValue() throws {
        let dictionary: [String: WireValue] = [
            "title": .string("Crème brûlée 🍮"),
            "duration": .double(90.5),
            "count": .integer(-3),
            "on": .bool(true),
            "hooks": .stringMap(["fire": "echo \"$TOCSIN_ID\"", "stop": ""]),
            "nested": .dictionary(["inner": .string("x")]),
        ]
        let variant = g_variant_ref_sink(Variant.make(dictionary: dictionary))!
        defer { g_variant_unref(variant) }
        #expect(String(cString: g_variant_get_type_string(variant)) == "a{sv}")
        #expect(Variant.dictionary(variant) == dictionary)
    }

    @Test(arguments: [
        ("<byte 7>", Int64(7)), ("<int16 -2>", -2), ("<uint16 65535>", 65535), ("<int32 -5>", -5),
        ("<uint32 4000000000>", 4_000_000_000), ("<int64 -9000000000>", -9_000_000_000), ("<uint64 42>", 42),
    ])
    func everyIntegerTypeReadsAsInteger(text: String, expected: Int64) throws {
        let variant = try Self.parse("{'n': \(text)}")
        defer { g_variant_unref(variant) }
        #expect(Variant.dictionary(variant)["n"] == .integer(expected))
    }

    @Test func unsignedValuesAboveInt64AreUnsupportedNotWrapped() throws {
        let variant = try Self.parse("{'n': <uint64 18446744073709551615>}")
        defer { g_variant_unref(variant) }
        #expect(Variant.dictionary(variant)["n"] == .unsupported(signature: "t"))
    }

    @Test func typesTheWireFormatNeverUsesAreNamedBySignature() throws {
        let variant = try Self.parse("{'a': <['x', 'y']>, 'b': <(1, 'z')>, 'c': <@ay [1, 2]>}")
        defer { g_variant_unref(variant) }
        let dictionary = Variant.dictionary(variant)
        #expect(dictionary["a"] == .unsupported(signature: "as"))
        #expect(dictionary["b"] == .unsupported(signature: "(is)"))
        #expect(dictionary["c"] == .unsupported(signature: "ay"))
    }

    @Test func variantsInsideVariantsAreUnwrapped() throws {
        let variant = try Self.parse("{'v': <<<'deep'>>>}")
        defer { g_variant_unref(variant) }
        #expect(Variant.dictionary(variant)["v"] == .string("deep"))
    }

    @Test func listOfDictionariesRoundTrips() throws {
        let list: [[String: WireValue]] = [["id": .string("a")], [:], ["id": .string("b"), "n": .double(1)]]
        let variant = g_variant_ref_sink(Variant.make(dictionaries: list))!
        defer { g_variant_unref(variant) }
        #expect(String(cString: g_variant_get_type_string(variant)) == "aa{sv}")
        #expect(Variant.dictionaries(variant) == list)
    }

    @Test func tuplesCarryMethodArguments() throws {
        let tuple = g_variant_ref_sink(Variant.tuple([g_variant_new_string("3f2b"), Variant.make(dictionary: [:])]))!
        defer { g_variant_unref(tuple) }
        #expect(String(cString: g_variant_get_type_string(tuple)) == "(sa{sv})")
        #expect(Variant.string(in: tuple, at: 0) == "3f2b")
    }

    @Test func gErrorsKeepTheirDBusName() throws {
        let error = g_dbus_error_new_for_dbus_error("io.github.tocsin.Error.NotFound", "No alarm has the id “x”.")!
        let converted = GLibError(consuming: error)
        #expect(converted.remoteName == "io.github.tocsin.Error.NotFound")
        #expect(converted.message == "No alarm has the id “x”.")
        #expect(!converted.isTimeout)
    }
}
