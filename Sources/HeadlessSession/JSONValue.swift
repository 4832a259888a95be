import Foundation

/// A decoded JSON value, just enough to walk the bus monitor's output without `Any` casts.
enum JSONValue: Decodable, Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case unsignedInteger(UInt64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Order matters: JSONDecoder will not turn `true` into a number or `1` into a Bool, but it
        // would turn an integer into a Double, so integers are tried before doubles.
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Int64.self) { self = .integer(value) }
        else if let value = try? container.decode(UInt64.self) { self = .unsignedInteger(value) }
        else if let value = try? container.decode(Double.self) { self = .double(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    subscript(index: Int) -> JSONValue? {
        if case .array(let elements) = self, elements.indices.contains(index) { return elements[index] }
        return nil
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var int64: Int64? {
        switch self {
        case .integer(let value): return value
        case .unsignedInteger(let value): return Int64(exactly: value)
        default: return nil
        }
    }

    var array: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    var object: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// Compact JSON text of the value, for hints whose D-Bus type has no simpler rendering.
    var jsonText: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .integer(let value): return String(value)
        case .unsignedInteger(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value):
            let encoded = try? JSONEncoder().encode(value)
            return encoded.map { String(decoding: $0, as: UTF8.self) } ?? "\"\(value)\""
        case .array(let elements): return "[" + elements.map(\.jsonText).joined(separator: ",") + "]"
        case .object(let members):
            let body = members.keys.sorted().map { key in
                JSONValue.string(key).jsonText + ":" + (members[key]?.jsonText ?? "null")
            }
            return "{" + body.joined(separator: ",") + "}"
        }
    }
}
