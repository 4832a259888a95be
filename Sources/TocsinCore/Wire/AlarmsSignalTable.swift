extension AlarmsInterface {
    /// One signal of the interface, typed: what it carries in Swift and how that is written on
    /// the bus. The agent emits with these and TocsinKit reads with the same ones.
    public struct TypedSignal<Value>: Sendable {
        /// The signal's name.
        public let signal: AlarmsSignal
        /// Its arguments.
        public let arguments: WireArguments<Value>
    }

    /// `Changed(s event, a{sv} alarm)`: an alarm changed state and still exists.
    public static let changed = TypedSignal<(AlarmEvent.Kind, Alarm)>(
        signal: .changed, arguments: .two("event", .eventKind, "alarm", .alarm))

    /// `Removed(s reason, a{sv} alarm)`: an alarm was removed, as it was then.
    public static let removed = TypedSignal<(AlarmEvent.Kind, Alarm)>(
        signal: .removed, arguments: .two("reason", .eventKind, "alarm", .alarm))

    /// `AuthorizationChanged(s app_id, s state)`.
    public static let authorizationChanged = TypedSignal<(String, AuthorizationState)>(
        signal: .authorizationChanged, arguments: .two("app_id", .appID, "state", .authorizationState))
}

extension AlarmsSignal {
    /// The signal's arguments, from its row of the typed table.
    public var arguments: [AlarmsInterface.Argument] {
        switch self {
        case .changed: AlarmsInterface.changed.arguments.fields
        case .removed: AlarmsInterface.removed.arguments.fields
        case .authorizationChanged: AlarmsInterface.authorizationChanged.arguments.fields
        }
    }
}
