import FoundationEssentials

/// A call of `io.github.tocsin.Alarms1`, decoded from its arguments: what the agent's handling
/// is given instead of a GVariant. The service turns each D-Bus call into one (`init(_:arguments:)`)
/// and each `AlarmsReply` back into the reply's arguments (`arguments(answering:)`), both with
/// `AlarmsInterface`'s typed table.
public enum AlarmsCall: Sendable, Equatable {
    /// `Schedule(a{sv})`.
    case schedule(AlarmRequest)
    /// `Pause`, `Resume`, `Cancel`, `Stop`, `Countdown`, `Secondary`: an intent on an alarm.
    case intent(AlarmIntent, on: UUID)
    /// `List()` or `ListPacked()`: the same answer, which the service encodes as each method
    /// says.
    case list
    /// `Get(s)`.
    case get(UUID)
    /// `GetStatus()`.
    case getStatus
    /// `Watch()`.
    case watch
    /// `ReceiveIntents()`.
    case receiveIntents
    /// `IdentifyApplication(s)`, with the id validated.
    case identifyApplication(String)
    /// `RequestAuthorization()`.
    case requestAuthorization
    /// `GetAuthorization()`.
    case getAuthorization
    /// `ListAuthorizations()`.
    case listAuthorizations
    /// `ListApplications()`.
    case listApplications
    /// `SetAuthorization(s, s)`, with the id validated.
    case setAuthorization(AuthorizationState, app: String)

    /// Decodes `method`, called with `arguments` (its in-arguments in order, as the bus delivered
    /// them: GDBus has checked their D-Bus types against the interface), with the method's row of
    /// `AlarmsInterface`'s table, the one a client encodes the call with. Throws the sentence for
    /// the caller when one is not what the method takes.
    public init(_ method: AlarmsMethod, wireArguments arguments: [WireArgument]) throws(AlarmInputError) {
        /// The arguments as `typed` reads them, or the sentence saying what the method takes.
        func decode<Arguments, Reply>(_ typed: AlarmsInterface.TypedMethod<Arguments, Reply>) throws(AlarmInputError) -> Arguments {
            guard let decoded = try typed.arguments.decode(arguments) else {
                // Schedule's own sentence is older than the others', and callers have seen it.
                throw AlarmInputError(method == .schedule ? "Schedule takes one a{sv} request."
                    : "\(method.rawValue) takes \(method.inArguments.map(\.signature).joined(separator: ", ")) arguments.")
            }
            return decoded
        }
        switch method {
        case .schedule: self = .schedule(try decode(AlarmsInterface.schedule))
        case .cancel: self = .intent(.cancel, on: try decode(AlarmsInterface.intent(.cancel)))
        case .pause: self = .intent(.pause, on: try decode(AlarmsInterface.intent(.pause)))
        case .resume: self = .intent(.resume, on: try decode(AlarmsInterface.intent(.resume)))
        case .stop: self = .intent(.stop, on: try decode(AlarmsInterface.intent(.stop)))
        case .countdown: self = .intent(.countdown, on: try decode(AlarmsInterface.intent(.countdown)))
        case .secondary: self = .intent(.secondary, on: try decode(AlarmsInterface.intent(.secondary)))
        case .list: try decode(AlarmsInterface.list); self = .list
        case .listPacked: try decode(AlarmsInterface.listPacked); self = .list
        case .get: self = .get(try decode(AlarmsInterface.get))
        case .getStatus: try decode(AlarmsInterface.getStatus); self = .getStatus
        case .watch: try decode(AlarmsInterface.watch); self = .watch
        case .receiveIntents: try decode(AlarmsInterface.receiveIntents); self = .receiveIntents
        case .identifyApplication: self = .identifyApplication(try decode(AlarmsInterface.identifyApplication))
        case .requestAuthorization: try decode(AlarmsInterface.requestAuthorization); self = .requestAuthorization
        case .getAuthorization: try decode(AlarmsInterface.getAuthorization); self = .getAuthorization
        case .listAuthorizations: try decode(AlarmsInterface.listAuthorizations); self = .listAuthorizations
        case .listApplications: try decode(AlarmsInterface.listApplications); self = .listApplications
        case .setAuthorization:
            let (app, state) = try decode(AlarmsInterface.setAuthorization)
            self = .setAuthorization(state, app: app)
        }
    }

    /// Decodes `method` called with `arguments`, each a `WireValue` (`s` or `a{sv}`), as every
    /// method's in-arguments are.
    public init(_ method: AlarmsMethod, arguments: [WireValue]) throws(AlarmInputError) {
        try self.init(method, wireArguments: arguments.map(WireArgument.value))
    }
}

/// What the agent answers a call with; the service writes it as the method's out-arguments.
public enum AlarmsReply: Sendable, Equatable {
    /// No out-arguments.
    case nothing
    /// `Schedule`: the new alarm's id.
    case id(UUID)
    /// `List`, `ListPacked`: the alarms the caller may see.
    case alarms([Alarm])
    /// `Get`: one alarm.
    case alarm(Alarm)
    /// `GetStatus`: the status dictionary.
    case status([String: WireValue])
    /// `RequestAuthorization`, `GetAuthorization`.
    case authorization(AuthorizationState)
    /// `ListAuthorizations`.
    case authorizations([String: AuthorizationState])
    /// `ListApplications`.
    case applications([ApplicationRecord])
}

extension AlarmsReply {
    /// The reply's out-arguments as `method` writes them, with the method's row of
    /// `AlarmsInterface`'s table, the one a client decodes the reply with; `nil` when this is no
    /// reply to `method` (a mistake of the agent's, which the service reports rather than send).
    public func arguments(answering method: AlarmsMethod) -> [WireArgument]? {
        switch (method, self) {
        case (.schedule, .id(let id)): AlarmsInterface.schedule.reply.encode(id)
        case (.list, .alarms(let alarms)): AlarmsInterface.list.reply.encode(alarms)
        case (.listPacked, .alarms(let alarms)): AlarmsInterface.listPacked.reply.encode(alarms)
        case (.get, .alarm(let alarm)): AlarmsInterface.get.reply.encode(alarm)
        case (.getStatus, .status(let status)): AlarmsInterface.getStatus.reply.encode(status)
        case (.requestAuthorization, .authorization(let state)): AlarmsInterface.requestAuthorization.reply.encode(state)
        case (.getAuthorization, .authorization(let state)): AlarmsInterface.getAuthorization.reply.encode(state)
        case (.listAuthorizations, .authorizations(let states)): AlarmsInterface.listAuthorizations.reply.encode(states)
        case (.listApplications, .applications(let applications)): AlarmsInterface.listApplications.reply.encode(applications)
        case (_, .nothing) where method.outArguments.isEmpty: []
        default: nil
        }
    }
}

extension AlarmsMethod {
    /// The intent this method performs; `nil` for the methods that are not intents. With
    /// `init(_:)`, the one table of intents and methods, which the agent and TocsinClient share.
    public var intent: AlarmIntent? {
        switch self {
        case .pause: .pause
        case .resume: .resume
        case .cancel: .cancel
        case .stop: .stop
        case .countdown: .countdown
        case .secondary: .secondary
        case .schedule, .list, .listPacked, .get, .getStatus, .watch, .receiveIntents, .identifyApplication,
             .requestAuthorization, .getAuthorization, .listAuthorizations, .listApplications, .setAuthorization: nil
        }
    }

    /// The method that performs `intent`.
    public init(_ intent: AlarmIntent) {
        self = Self.allCases.first { $0.intent == intent }!
    }
}
