/// One argument of a D-Bus message of `io.github.tocsin.Alarms1` — a call's, a reply's or a
/// signal's — as TocsinCore writes and reads it, free of any D-Bus library: `GLibSupport`'s
/// `Variant` makes the message's tuple of these and takes it apart.
///
/// A `WireValue` is what goes inside an `a{sv}`; an argument can also be one of the two
/// top-level types no dictionary holds: a list of dictionaries (`aa{sv}`) and bytes (`ay`).
public enum WireArgument: Sendable, Equatable {
    /// `s`, `a{sv}` or `a{ss}`.
    case value(WireValue)
    /// `aa{sv}`.
    case dictionaries(WireDictionaries)
    /// `ay`.
    case bytes([UInt8])

    /// The D-Bus type string of the argument, for messages.
    public var signature: String {
        switch self {
        case .value(let value): value.signature
        case .dictionaries: "aa{sv}"
        case .bytes: "ay"
        }
    }
}

/// The dictionaries of an `aa{sv}` argument, each made when it is asked for.
///
/// The agent writes a `List` of 10,000 alarms one dictionary at a time (`Variant`'s
/// `make(dictionariesOf:)` says why); holding every dictionary at once is what that avoids.
public struct WireDictionaries: RandomAccessCollection, Sendable, Equatable {
    public let count: Int
    private let dictionary: @Sendable (Int) -> [String: WireValue]

    /// One dictionary for each of `elements`, made by `dictionary` when it is read.
    public init<Elements: RandomAccessCollection & Sendable>(
        _ elements: Elements, _ dictionary: @escaping @Sendable (Elements.Element) -> [String: WireValue]
    ) {
        count = elements.count
        self.dictionary = { offset in dictionary(elements[elements.index(elements.startIndex, offsetBy: offset)]) }
    }

    /// `dictionaries`, as they are.
    public init(_ dictionaries: [[String: WireValue]]) {
        self.init(dictionaries) { $0 }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }
    public subscript(position: Int) -> [String: WireValue] { dictionary(position) }

    public static func == (left: Self, right: Self) -> Bool {
        left.elementsEqual(right)
    }
}
