/// The shape of the `io.github.tocsin.Alarms1` D-Bus interface, as the agent implements it.
///
/// The agent builds its introspection data from these tables, and handles methods by switching
/// over `AlarmsMethod`, so the compiler keeps the table and the handlers in step; a test checks
/// the table against the documented `dbus/io.github.tocsin.Alarms1.xml`.
public enum AlarmsInterface {
    /// The well-known bus name the agent owns.
    public static let busName = "io.github.tocsin.Agent"
    /// The object the interface lives on.
    public static let objectPath = "/io/github/tocsin/Agent"
    /// The interface name.
    public static let name = "io.github.tocsin.Alarms1"
    /// The value of the `Version` property.
    public static let version: UInt32 = 5
    /// Prefix of the agent's D-Bus error names.
    public static let errorPrefix = "io.github.tocsin.Error."

    /// A method or signal argument.
    public struct Argument: Sendable, Equatable {
        public let name: String
        public let signature: String
    }

    /// The introspection XML for the interface, as the agent registers it.
    public static var introspectionXML: String {
        func arguments(_ list: [Argument], direction: String?) -> String {
            list.map { argument in
                let directionAttribute = direction.map { " direction=\"\($0)\"" } ?? ""
                return "      <arg name=\"\(argument.name)\" type=\"\(argument.signature)\"\(directionAttribute)/>\n"
            }.joined()
        }
        let methods = AlarmsMethod.allCases.map { method in
            "    <method name=\"\(method.rawValue)\">\n" + arguments(method.inArguments, direction: "in")
                + arguments(method.outArguments, direction: "out") + "    </method>\n"
        }.joined()
        let signals = AlarmsSignal.allCases.map { signal in
            "    <signal name=\"\(signal.rawValue)\">\n" + arguments(signal.arguments, direction: nil) + "    </signal>\n"
        }.joined()
        return "<node>\n  <interface name=\"\(name)\">\n" + methods + signals
            + "    <property name=\"Version\" type=\"u\" access=\"read\"/>\n  </interface>\n</node>\n"
    }
}

/// The interface's methods.
public enum AlarmsMethod: String, CaseIterable, Sendable {
    case schedule = "Schedule"
    case cancel = "Cancel"
    case pause = "Pause"
    case resume = "Resume"
    case stop = "Stop"
    case countdown = "Countdown"
    case secondary = "Secondary"
    case list = "List"
    case listPacked = "ListPacked"
    case get = "Get"
    case getStatus = "GetStatus"
    case watch = "Watch"
    case receiveIntents = "ReceiveIntents"
    case identifyApplication = "IdentifyApplication"
    case requestAuthorization = "RequestAuthorization"
    case getAuthorization = "GetAuthorization"
    case listAuthorizations = "ListAuthorizations"
    case listApplications = "ListApplications"
    case setAuthorization = "SetAuthorization"

    /// The arguments the caller sends.
    public var inArguments: [AlarmsInterface.Argument] {
        switch self {
        case .schedule: [.init(name: "request", signature: "a{sv}")]
        case .list, .listPacked, .getStatus, .watch, .receiveIntents, .requestAuthorization, .getAuthorization, .listAuthorizations, .listApplications: []
        case .identifyApplication: [.init(name: "app_id", signature: "s")]
        case .setAuthorization: [.init(name: "app_id", signature: "s"), .init(name: "state", signature: "s")]
        case .cancel, .pause, .resume, .stop, .countdown, .secondary, .get: [.init(name: "id", signature: "s")]
        }
    }

    /// The arguments of the reply.
    public var outArguments: [AlarmsInterface.Argument] {
        switch self {
        case .schedule: [.init(name: "id", signature: "s")]
        case .list: [.init(name: "alarms", signature: "aa{sv}")]
        case .listPacked: [.init(name: "packed_alarms", signature: "ay")]
        case .get: [.init(name: "alarm", signature: "a{sv}")]
        case .getStatus: [.init(name: "status", signature: "a{sv}")]
        case .requestAuthorization, .getAuthorization: [.init(name: "state", signature: "s")]
        case .listAuthorizations: [.init(name: "states", signature: "a{ss}")]
        case .listApplications: [.init(name: "applications", signature: "aa{sv}")]
        case .identifyApplication, .setAuthorization, .watch, .receiveIntents: []
        case .cancel, .pause, .resume, .stop, .countdown, .secondary: []
        }
    }
}

/// The interface's signals.
public enum AlarmsSignal: String, CaseIterable, Sendable {
    /// An alarm changed state and still exists: `(s event, a{sv} alarm)`.
    case changed = "Changed"
    /// An alarm was removed: `(s reason, a{sv} alarm)`.
    case removed = "Removed"
    /// An application's authorization changed: `(s app_id, s state)`.
    case authorizationChanged = "AuthorizationChanged"

    /// The signal's arguments.
    public var arguments: [AlarmsInterface.Argument] {
        switch self {
        case .changed: [.init(name: "event", signature: "s"), .init(name: "alarm", signature: "a{sv}")]
        case .removed: [.init(name: "reason", signature: "s"), .init(name: "alarm", signature: "a{sv}")]
        case .authorizationChanged: [.init(name: "app_id", signature: "s"), .init(name: "state", signature: "s")]
        }
    }
}

/// The interface's named errors.
public enum AlarmsErrorName: String, CaseIterable, Sendable {
    case notFound = "NotFound"
    case invalidState = "InvalidState"
    case invalidArgument = "InvalidArgument"
    case limitReached = "LimitReached"
    case storageFailed = "StorageFailed"
    case notAuthorized = "NotAuthorized"

    /// The full D-Bus error name, e.g. `io.github.tocsin.Error.NotFound`.
    public var dbusName: String { AlarmsInterface.errorPrefix + rawValue }
}
