import FoundationEssentials

/// A call of `io.github.tocsin.Alarms1`, decoded from its arguments: what the agent's handling
/// is given instead of a GVariant. The service turns each D-Bus call into one (`init(_:arguments:)`)
/// and each `AlarmsReply` back into the reply's arguments.
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
    /// them: GDBus has checked their D-Bus types against the interface). Throws the sentence for
    /// the caller when one is not what the method takes.
    public init(_ method: AlarmsMethod, arguments: [WireValue]) throws(AlarmInputError) {
        func string(_ index: Int) throws(AlarmInputError) -> String {
            guard arguments.indices.contains(index), case .string(let text) = arguments[index] else {
                throw AlarmInputError("\(method.rawValue) takes \(method.inArguments.map(\.signature).joined(separator: ", ")) arguments.")
            }
            return text
        }
        func alarmID(_ index: Int) throws(AlarmInputError) -> UUID {
            let text = try string(index)
            guard let id = UUID(hexText: text) else {
                throw AlarmInputError("“\(AlarmInputError.quotable(text.prefix(64)))” is not an alarm id (ids look like 3f2b8c1e-0d4a-4c1e-9a57-8f1e2d3c4b5a).")
            }
            return id
        }
        if let intent = method.intent {
            self = .intent(intent, on: try alarmID(0))
            return
        }
        switch method {
        case .schedule:
            guard let first = arguments.first, case .dictionary(let request) = first else {
                throw AlarmInputError("Schedule takes one a{sv} request.")
            }
            self = .schedule(try AlarmWireFormat.decodeRequest(request))
        case .list, .listPacked: self = .list
        case .get: self = .get(try alarmID(0))
        case .getStatus: self = .getStatus
        case .watch: self = .watch
        case .receiveIntents: self = .receiveIntents
        case .identifyApplication: self = .identifyApplication(try AppAuthorizations.validatedAppID(try string(0)))
        case .requestAuthorization: self = .requestAuthorization
        case .getAuthorization: self = .getAuthorization
        case .listAuthorizations: self = .listAuthorizations
        case .listApplications: self = .listApplications
        case .setAuthorization:
            let app = try AppAuthorizations.validatedAppID(try string(0))
            let stateText = try string(1)
            guard let state = AuthorizationState(rawValue: stateText) else {
                throw AlarmInputError("“\(AlarmInputError.quotable(stateText.prefix(32)))” is not an authorization state (notDetermined, authorized, denied).")
            }
            self = .setAuthorization(state, app: app)
        case .cancel, .pause, .resume, .stop, .countdown, .secondary:
            preconditionFailure("\(method.rawValue) is an intent, decoded above")
        }
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
