/// A D-Bus value as TocsinCore sees it, free of any D-Bus library: the agent and the client convert
/// between this and GVariant at the edge, and the wire format below speaks only in these.
public indirect enum WireValue: Sendable, Equatable {
    case string(String)
    case double(Double)
    /// Any D-Bus integer type (`y n q i u x`); `t` values above `Int64.max` arrive as `unsupported`.
    case integer(Int64)
    case bool(Bool)
    /// `a{ss}`.
    case stringMap([String: String])
    /// `a{sv}`.
    case dictionary([String: WireValue])
    /// A value of a type the wire format never uses; `signature` is its D-Bus type string.
    case unsupported(signature: String)

    /// The D-Bus type string of the value, for messages.
    public var signature: String {
        switch self {
        case .string: "s"
        case .double: "d"
        case .integer: "x"
        case .bool: "b"
        case .stringMap: "a{ss}"
        case .dictionary: "a{sv}"
        case .unsupported(let signature): signature
        }
    }
}
