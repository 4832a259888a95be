/// The shape of the `io.github.tocsin.Alarms1` D-Bus interface, as the agent implements it.
///
/// The agent builds its introspection data from these tables, and handles methods by switching
/// over `AlarmsMethod`, so the compiler keeps the table and the handlers in step. Each method's
/// typed row — arguments, reply, errors — is in `AlarmsMethodTable.swift`, and both the agent
/// and TocsinKit encode and decode with it; `InterfaceAgreementTests` hold the table, the
/// documented `dbus/io.github.tocsin.Alarms1.xml` and tocsind(1) to the same interface.
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
        /// Its name in the introspection XML.
        public let name: String
        /// Its D-Bus type string.
        public let signature: String

        /// The argument `name`, of D-Bus type `signature`.
        public init(name: String, signature: String) {
            self.name = name
            self.signature = signature
        }
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
}

/// The interface's signals.
public enum AlarmsSignal: String, CaseIterable, Sendable {
    /// An alarm changed state and still exists: `(s event, a{sv} alarm)`.
    case changed = "Changed"
    /// An alarm was removed: `(s reason, a{sv} alarm)`.
    case removed = "Removed"
    /// An application's authorization changed: `(s app_id, s state)`.
    case authorizationChanged = "AuthorizationChanged"
}
