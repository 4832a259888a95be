import FoundationEssentials

/// Any JSON value, for the few places that handle JSON without a schema: checking that an app's
/// metadata is JSON, and migrating old state files field by field.
///
/// FoundationEssentials, all the agent links, has no `JSONSerialization`; this decodes and encodes
/// through its `JSONDecoder` and `JSONEncoder`. Integers stay integers (`2`, not `2.0`).
package enum JSONValue: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The members of an object; `nil` for any other value.
    package var object: [String: JSONValue]? {
        if case .object(let members) = self { members } else { nil }
    }

    /// The elements of an array; `nil` for any other value.
    package var array: [JSONValue]? {
        if case .array(let elements) = self { elements } else { nil }
    }
}

extension JSONValue {
    /// The value as one line of JSON text, object keys sorted, slashes not escaped: what
    /// `JSONSerialization` writes with `.sortedKeys` and `.withoutEscapingSlashes`, without its
    /// cost (it sorts keys with a localized comparison and goes through `Any` and NSString — about
    /// 0.3 ms for one alarm, which `tocsin watch --json` pays on every event).
    ///
    /// Keys are sorted by their UTF-8 bytes, which for Tocsin's keys (lowercase letters and
    /// hyphens) is the order JSONSerialization gives.
    package var jsonText: String {
        var bytes: [UInt8] = []
        write(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func write(to bytes: inout [UInt8]) {
        switch self {
        case .null: bytes += "null".utf8
        case .bool(let value): bytes += (value ? "true" : "false").utf8
        case .integer(let value): bytes += String(value).utf8
        case .number(let value): bytes += Self.numberText(value).utf8
        case .string(let value): JSONStringText.append(value, escapingSlashes: false, to: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                element.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONStringText.append(key, escapingSlashes: false, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                members[key]!.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// A number as JSONSerialization writes it: whole numbers up to 2^53, the last a Double
    /// holds exactly, without a fraction ("60", "-0", "9007199254740992"), others in Swift's
    /// shortest form that reads back the same ("0.1", "1e-07", "9.0072e+15").
    private static func numberText(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), abs(value) <= 9_007_199_254_740_992 {
            return value.sign == .minus && value == 0 ? "-0" : String(Int64(value))
        }
        return "\(value)"
    }
}
