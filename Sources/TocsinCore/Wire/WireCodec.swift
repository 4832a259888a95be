import FoundationEssentials

/// How one Swift value travels as one argument of `io.github.tocsin.Alarms1`: its D-Bus type, how
/// it is written, and how it is read back. The side that writes an argument and the side that
/// reads it use the same codec, from `AlarmsInterface`'s table, so they cannot disagree.
public struct WireCodec<Value>: Sendable {
    /// The argument's D-Bus type string.
    public let signature: String
    private let write: @Sendable (Value) -> WireArgument
    private let read: @Sendable (WireArgument) throws(AlarmInputError) -> Value?

    /// A codec of type `signature` that writes with `write` and reads with `read`, which
    /// returns `nil` for an argument of another type and throws for one of this type that is
    /// not a `Value` (a malformed id, an unknown key).
    public init(signature: String, write: @escaping @Sendable (Value) -> WireArgument,
                read: @escaping @Sendable (WireArgument) throws(AlarmInputError) -> Value?) {
        self.signature = signature
        self.write = write
        self.read = read
    }

    /// `value` as an argument.
    public func encode(_ value: Value) -> WireArgument {
        write(value)
    }

    /// The value `argument` holds; `nil` when it is not of this codec's D-Bus type.
    public func decode(_ argument: WireArgument) throws(AlarmInputError) -> Value? {
        try read(argument)
    }
}

// MARK: - The codecs of the interface's arguments

extension WireCodec where Value == UUID {
    /// An alarm id (`s`): lowercase 8-4-4-4-12 hexadecimal going out, either case coming in.
    public static var alarmID: Self {
        WireCodec(signature: "s", write: { .value(.string($0.hexText)) }) { argument throws(AlarmInputError) in
            guard case .value(.string(let text)) = argument else { return nil }
            guard let id = UUID(hexText: text) else {
                throw AlarmInputError("“\(AlarmInputError.quotable(text.prefix(64)))” is not an alarm id (ids look like 3f2b8c1e-0d4a-4c1e-9a57-8f1e2d3c4b5a).")
            }
            return id
        }
    }
}

extension WireCodec where Value == String {
    /// An application id (`s`), refused unless it is one (`AppAuthorizations.validatedAppID`).
    public static var appID: Self {
        WireCodec(signature: "s", write: { .value(.string($0)) }) { argument throws(AlarmInputError) in
            guard case .value(.string(let text)) = argument else { return nil }
            return try AppAuthorizations.validatedAppID(text)
        }
    }
}

extension WireCodec where Value == String {
    /// Any text (`s`), as it is.
    public static var text: Self {
        WireCodec(signature: "s", write: { .value(.string($0)) }) { argument in
            guard case .value(.string(let text)) = argument else { return nil }
            return text
        }
    }
}

extension WireCodec where Value == AppIntentButtons.Button {
    /// One of the buttons that run an application's intent (`s`): its raw value.
    public static var appIntentButton: Self {
        WireCodec(signature: "s", write: { .value(.string($0.rawValue)) }) { argument throws(AlarmInputError) in
            guard case .value(.string(let text)) = argument else { return nil }
            guard let button = AppIntentButtons.Button(rawValue: text) else {
                throw AlarmInputError("Unknown app-intent button “\(AlarmInputError.quotable(text.prefix(32)))”.")
            }
            return button
        }
    }
}

extension WireCodec where Value == AuthorizationState {
    /// An authorization state (`s`): its raw value.
    public static var authorizationState: Self {
        WireCodec(signature: "s", write: { .value(.string($0.rawValue)) }) { argument throws(AlarmInputError) in
            guard case .value(.string(let text)) = argument else { return nil }
            guard let state = AuthorizationState(rawValue: text) else {
                throw AlarmInputError("“\(AlarmInputError.quotable(text.prefix(32)))” is not an authorization state (notDetermined, authorized, denied).")
            }
            return state
        }
    }
}

extension WireCodec where Value == [String: AuthorizationState] {
    /// Applications and their states (`a{ss}`). A state this build does not know is left out,
    /// as an older client leaves out what a newer agent adds.
    public static var authorizations: Self {
        WireCodec(signature: "a{ss}", write: { .value(.stringMap($0.mapValues(\.rawValue))) }) { argument in
            guard case .value(.stringMap(let states)) = argument else { return nil }
            return states.compactMapValues(AuthorizationState.init(rawValue:))
        }
    }
}

extension WireCodec where Value == AlarmEvent.Kind {
    /// What happened to an alarm (`s`), as the signals carry it.
    public static var eventKind: Self {
        WireCodec(signature: "s", write: { .value(.string($0.rawValue)) }) { argument throws(AlarmInputError) in
            guard case .value(.string(let text)) = argument else { return nil }
            guard let kind = AlarmEvent.Kind(rawValue: text) else {
                throw AlarmInputError("Unknown alarm event “\(AlarmInputError.quotable(text.prefix(32)))”.")
            }
            return kind
        }
    }
}

extension WireCodec where Value == AlarmRequest {
    /// A `Schedule` request (`a{sv}`, `AlarmWireFormat`'s request keys).
    public static var scheduleRequest: Self {
        WireCodec(signature: "a{sv}", write: { .value(.dictionary(AlarmWireFormat.encode($0))) }) { argument throws(AlarmInputError) in
            guard case .value(.dictionary(let dictionary)) = argument else { return nil }
            return try AlarmWireFormat.decodeRequest(dictionary)
        }
    }
}

extension WireCodec where Value == Alarm {
    /// An alarm dictionary (`a{sv}`, `AlarmWireFormat`'s alarm keys).
    public static var alarm: Self {
        WireCodec(signature: "a{sv}", write: { .value(.dictionary(AlarmWireFormat.encode($0))) }) { argument throws(AlarmInputError) in
            guard case .value(.dictionary(let dictionary)) = argument else { return nil }
            return try AlarmWireFormat.decodeAlarm(dictionary)
        }
    }
}

extension WireCodec where Value == [Alarm] {
    /// A list of alarm dictionaries (`aa{sv}`), written one dictionary at a time.
    public static var alarms: Self {
        WireCodec(signature: "aa{sv}", write: { .dictionaries(WireDictionaries($0, AlarmWireFormat.encode)) }) { argument throws(AlarmInputError) in
            guard case .dictionaries(let dictionaries) = argument else { return nil }
            return try dictionaries.map { dictionary throws(AlarmInputError) in try AlarmWireFormat.decodeAlarm(dictionary) }
        }
    }

    /// A list of alarm dictionaries as the serialised bytes of their `aa{sv}` (`ay`), written
    /// straight from the alarms (`GVariantPacking` says why).
    public static var packedAlarms: Self {
        WireCodec(signature: "ay", write: { .bytes(GVariantPacking.pack($0, fields: AlarmWireFormat.forEachField)) }) { argument throws(AlarmInputError) in
            guard case .bytes(let bytes) = argument else { return nil }
            let dictionaries: [[String: WireValue]]
            do throws(GVariantPacking.Malformed) {
                dictionaries = try GVariantPacking.unpackDictionaries(bytes)
            } catch {
                throw AlarmInputError("The packed list of alarms is malformed: \(error.reason).")
            }
            return try dictionaries.map { dictionary throws(AlarmInputError) in try AlarmWireFormat.decodeAlarm(dictionary) }
        }
    }
}

extension WireCodec where Value == [String: WireValue] {
    /// A dictionary kept as it is (`a{sv}`): the `GetStatus` reply, whose keys are
    /// `AlarmWireFormat.StatusKey`'s.
    public static var dictionary: Self {
        WireCodec(signature: "a{sv}", write: { .value(.dictionary($0)) }) { argument in
            guard case .value(.dictionary(let dictionary)) = argument else { return nil }
            return dictionary
        }
    }
}

extension WireCodec where Value == [ApplicationRecord] {
    /// Applications (`aa{sv}`, `AlarmWireFormat`'s application keys). One that lacks what a
    /// record needs is left out.
    public static var applications: Self {
        WireCodec(signature: "aa{sv}", write: { .dictionaries(WireDictionaries($0, AlarmWireFormat.encode)) }) { argument in
            guard case .dictionaries(let dictionaries) = argument else { return nil }
            return dictionaries.compactMap(AlarmWireFormat.decodeApplication)
        }
    }
}
