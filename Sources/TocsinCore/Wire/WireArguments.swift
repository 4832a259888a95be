/// The arguments of a method call, a reply or a signal, in order: their names and D-Bus types
/// (what the introspection XML lists) and how one Swift value — nothing, one value, or a pair —
/// is written as them and read back.
public struct WireArguments<Value>: Sendable {
    /// Each argument's name and D-Bus type, in order.
    public let fields: [AlarmsInterface.Argument]
    private let write: @Sendable (Value) -> [WireArgument]
    private let read: @Sendable ([WireArgument]) throws(AlarmInputError) -> Value?

    private init(fields: [AlarmsInterface.Argument], write: @escaping @Sendable (Value) -> [WireArgument],
                 read: @escaping @Sendable ([WireArgument]) throws(AlarmInputError) -> Value?) {
        self.fields = fields
        self.write = write
        self.read = read
    }

    /// `value` as the arguments, in order.
    public func encode(_ value: Value) -> [WireArgument] {
        write(value)
    }

    /// The value `arguments` hold; `nil` when they are not as many, or not of the types,
    /// `fields` says. Throws when one is of its type but not a value of it.
    public func decode(_ arguments: [WireArgument]) throws(AlarmInputError) -> Value? {
        guard arguments.count == fields.count else { return nil }
        return try read(arguments)
    }

    /// One argument, `name`, written by `codec`.
    public static func one(_ name: String, _ codec: WireCodec<Value>) -> Self {
        WireArguments(fields: [.init(name: name, signature: codec.signature)], write: { [codec.encode($0)] }) { arguments throws(AlarmInputError) in
            try codec.decode(arguments[0])
        }
    }

    /// Two arguments, `firstName` and `secondName`, written by their codecs.
    public static func two<First, Second>(_ firstName: String, _ first: WireCodec<First>, _ secondName: String, _ second: WireCodec<Second>) -> Self
    where Value == (First, Second) {
        WireArguments(
            fields: [.init(name: firstName, signature: first.signature), .init(name: secondName, signature: second.signature)],
            write: { [first.encode($0.0), second.encode($0.1)] }
        ) { arguments throws(AlarmInputError) in
            guard let firstValue = try first.decode(arguments[0]), let secondValue = try second.decode(arguments[1]) else { return nil }
            return (firstValue, secondValue)
        }
    }

    /// Three arguments, written by their codecs.
    public static func three<First, Second, Third>(_ firstName: String, _ first: WireCodec<First>, _ secondName: String, _ second: WireCodec<Second>,
                                                   _ thirdName: String, _ third: WireCodec<Third>) -> Self
    where Value == (First, Second, Third) {
        WireArguments(
            fields: [.init(name: firstName, signature: first.signature), .init(name: secondName, signature: second.signature),
                     .init(name: thirdName, signature: third.signature)],
            write: { [first.encode($0.0), second.encode($0.1), third.encode($0.2)] }
        ) { arguments throws(AlarmInputError) in
            guard let firstValue = try first.decode(arguments[0]), let secondValue = try second.decode(arguments[1]),
                  let thirdValue = try third.decode(arguments[2]) else { return nil }
            return (firstValue, secondValue, thirdValue)
        }
    }
}

extension WireArguments where Value == Void {
    /// No arguments.
    public static var none: Self {
        WireArguments(fields: [], write: { _ in [] }, read: { _ in () })
    }
}
