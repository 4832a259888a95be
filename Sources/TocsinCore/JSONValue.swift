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
