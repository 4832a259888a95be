/// A text to show a person — Foundation's `LocalizedStringResource` on Apple's platforms, which
/// Linux's Foundation does not have. Written the same ways: a string literal (`"Food Ready!"`),
/// an interpolation (`"Step \(n)"`), or `LocalizedStringResource("Stop")`.
///
/// On Linux there are no string catalogs: the text is shown as written, in the language it was
/// written in (`key`). It is stored and sent as that plain string (`Codable` as a single string).
public struct LocalizedStringResource: Hashable, Sendable, Codable, CustomStringConvertible,
                                       ExpressibleByStringLiteral, ExpressibleByStringInterpolation {
    /// The text, as written.
    public var key: String

    /// The text `key`.
    public init(_ key: String) {
        self.key = key
    }

    /// The text of a string literal.
    public init(stringLiteral value: String) {
        key = value
    }

    /// The text of an interpolated string literal.
    public init(stringInterpolation: DefaultStringInterpolation) {
        key = String(stringInterpolation: stringInterpolation)
    }

    /// The text itself.
    public var description: String { key }

    /// Decodes the plain string it is stored as.
    public init(from decoder: any Decoder) throws {
        key = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes it as a plain string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(key)
    }
}

extension String {
    /// The text of `resource` — Foundation's `String(localized:)`: as written, since Linux
    /// has no string catalogs.
    public init(localized resource: LocalizedStringResource) {
        self = resource.key
    }
}
