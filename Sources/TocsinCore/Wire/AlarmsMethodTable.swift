import FoundationEssentials

extension AlarmsInterface {
    /// One method of the interface, typed: what its arguments and its reply are in Swift, how
    /// each is written on the bus, and the errors it answers with.
    ///
    /// The agent reads calls (`AlarmsCall`) and writes replies (`AlarmsReply`) with these;
    /// TocsinKit writes calls and reads replies with the same ones. So a client cannot send what
    /// the agent does not read, nor expect a reply the agent does not write.
    public struct TypedMethod<Arguments, Reply>: Sendable {
        /// The method's name.
        public let method: AlarmsMethod
        /// Its in-arguments.
        public let arguments: WireArguments<Arguments>
        /// Its out-arguments.
        public let reply: WireArguments<Reply>
        /// The errors of its own it answers with, besides those any method may
        /// (`AlarmsInterface.errorsOfEveryMethod`).
        public let errors: [AlarmsErrorName]

        init(_ method: AlarmsMethod, arguments: WireArguments<Arguments>, reply: WireArguments<Reply>, errors: [AlarmsErrorName] = []) {
            self.method = method
            self.arguments = arguments
            self.reply = reply
            self.errors = errors
        }

        /// The method without its Swift types: what the introspection XML and the
        /// documentation list.
        public var entry: MethodEntry {
            MethodEntry(method: method, inArguments: arguments.fields, outArguments: reply.fields, errors: errors)
        }
    }

    /// One row of the interface's table: a method's name, arguments, reply and errors.
    public struct MethodEntry: Sendable, Equatable {
        public let method: AlarmsMethod
        public let inArguments: [Argument]
        public let outArguments: [Argument]
        public let errors: [AlarmsErrorName]
    }

    /// The errors any method may answer with: `NotAuthorized` when the agent cannot tell who
    /// is calling, `InvalidState` while the agent starts or stops.
    public static let errorsOfEveryMethod: [AlarmsErrorName] = [.notAuthorized, .invalidState]

    // MARK: The methods

    /// `Schedule(a{sv} request) → (s id)`.
    public static let schedule = TypedMethod<AlarmRequest, UUID>(
        .schedule, arguments: .one("request", .scheduleRequest), reply: .one("id", .alarmID),
        errors: [.invalidArgument, .notAuthorized, .limitReached, .storageFailed])

    /// `Cancel`, `Pause`, `Resume`, `Stop`, `Countdown`, `Secondary`: `intent` on the alarm
    /// `(s id)`.
    public static func intent(_ intent: AlarmIntent) -> TypedMethod<UUID, Void> {
        // Cancelling is allowed in every state.
        let errors: [AlarmsErrorName] = intent == .cancel
            ? [.notFound, .invalidArgument, .storageFailed] : [.notFound, .invalidState, .invalidArgument, .storageFailed]
        return TypedMethod(AlarmsMethod(intent), arguments: .one("id", .alarmID), reply: .none, errors: errors)
    }

    /// `List() → (aa{sv} alarms)`.
    public static let list = TypedMethod<Void, [Alarm]>(.list, arguments: .none, reply: .one("alarms", .alarms))

    /// `ListPacked() → (ay packed_alarms)`: what `List` returns, as one byte array.
    public static let listPacked = TypedMethod<Void, [Alarm]>(.listPacked, arguments: .none, reply: .one("packed_alarms", .packedAlarms))

    /// `Get(s id) → (a{sv} alarm)`.
    public static let get = TypedMethod<UUID, Alarm>(
        .get, arguments: .one("id", .alarmID), reply: .one("alarm", .alarm), errors: [.notFound, .invalidArgument])

    /// `GetStatus() → (a{sv} status)`, keyed by `AlarmWireFormat.StatusKey`.
    public static let getStatus = TypedMethod<Void, [String: WireValue]>(.getStatus, arguments: .none, reply: .one("status", .dictionary))

    /// `Watch()`.
    public static let watch = TypedMethod<Void, Void>(.watch, arguments: .none, reply: .none)

    /// `ReceiveIntents()`.
    public static let receiveIntents = TypedMethod<Void, Void>(.receiveIntents, arguments: .none, reply: .none)

    /// `IdentifyApplication(s app_id)`.
    public static let identifyApplication = TypedMethod<String, Void>(
        .identifyApplication, arguments: .one("app_id", .appID), reply: .none, errors: [.invalidArgument, .notAuthorized])

    /// `RequestAuthorization() → (s state)`, once the user answered.
    public static let requestAuthorization = TypedMethod<Void, AuthorizationState>(
        .requestAuthorization, arguments: .none, reply: .one("state", .authorizationState))

    /// `GetAuthorization() → (s state)`.
    public static let getAuthorization = TypedMethod<Void, AuthorizationState>(
        .getAuthorization, arguments: .none, reply: .one("state", .authorizationState))

    /// `ListAuthorizations() → (a{ss} states)`.
    public static let listAuthorizations = TypedMethod<Void, [String: AuthorizationState]>(
        .listAuthorizations, arguments: .none, reply: .one("states", .authorizations), errors: [.notAuthorized])

    /// `ListApplications() → (aa{sv} applications)`.
    public static let listApplications = TypedMethod<Void, [ApplicationRecord]>(
        .listApplications, arguments: .none, reply: .one("applications", .applications), errors: [.notAuthorized])

    /// `SetAuthorization(s app_id, s state)`.
    public static let setAuthorization = TypedMethod<(String, AuthorizationState), Void>(
        .setAuthorization, arguments: .two("app_id", .appID, "state", .authorizationState), reply: .none,
        errors: [.notAuthorized, .invalidArgument])
}

extension AlarmsMethod {
    /// The method's row of the typed table: the one place its arguments, reply and errors are
    /// written down.
    public var entry: AlarmsInterface.MethodEntry {
        switch self {
        case .schedule: AlarmsInterface.schedule.entry
        case .cancel: AlarmsInterface.intent(.cancel).entry
        case .pause: AlarmsInterface.intent(.pause).entry
        case .resume: AlarmsInterface.intent(.resume).entry
        case .stop: AlarmsInterface.intent(.stop).entry
        case .countdown: AlarmsInterface.intent(.countdown).entry
        case .secondary: AlarmsInterface.intent(.secondary).entry
        case .list: AlarmsInterface.list.entry
        case .listPacked: AlarmsInterface.listPacked.entry
        case .get: AlarmsInterface.get.entry
        case .getStatus: AlarmsInterface.getStatus.entry
        case .watch: AlarmsInterface.watch.entry
        case .receiveIntents: AlarmsInterface.receiveIntents.entry
        case .identifyApplication: AlarmsInterface.identifyApplication.entry
        case .requestAuthorization: AlarmsInterface.requestAuthorization.entry
        case .getAuthorization: AlarmsInterface.getAuthorization.entry
        case .listAuthorizations: AlarmsInterface.listAuthorizations.entry
        case .listApplications: AlarmsInterface.listApplications.entry
        case .setAuthorization: AlarmsInterface.setAuthorization.entry
        }
    }

    /// The arguments the caller sends.
    public var inArguments: [AlarmsInterface.Argument] { entry.inArguments }

    /// The arguments of the reply.
    public var outArguments: [AlarmsInterface.Argument] { entry.outArguments }

    /// The errors of its own the method answers with (any method may also answer with
    /// `AlarmsInterface.errorsOfEveryMethod`).
    public var errors: [AlarmsErrorName] { entry.errors }
}
