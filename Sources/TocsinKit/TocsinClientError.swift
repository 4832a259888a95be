import TocsinCore

/// Why a request to the Tocsin agent failed. Each case carries one sentence for a person.
public enum TocsinClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The agent cannot be reached: no session bus, not running and not activatable, or not answering.
    case agentUnavailable(String)
    /// No alarm has the id.
    case notFound(String)
    /// The request is not allowed in the alarm's current state.
    case invalidState(String)
    /// The request is malformed (bad duration, unknown key, unreadable sound file…).
    case invalidArgument(String)
    /// The agent holds as many alarms as it will.
    case limitReached(String)
    /// The agent could not save the change, so it did not make it.
    case storageFailed(String)
    /// The application may not set alarms: the user refused or has not answered.
    case notAuthorized(String)
    /// The agent answered something this client does not understand (a version mismatch).
    case protocolError(String)

    /// The sentence for a person.
    public var message: String {
        switch self {
        case .agentUnavailable(let message), .notFound(let message), .invalidState(let message),
             .invalidArgument(let message), .limitReached(let message), .storageFailed(let message), .notAuthorized(let message),
             .protocolError(let message):
            message
        }
    }

    public var description: String { message }

    /// The error for a D-Bus error `name` with `message`, as the agent sends them.
    init(dbusErrorName name: String?, message: String) {
        switch name {
        case AlarmsErrorName.notFound.dbusName?: self = .notFound(message)
        case AlarmsErrorName.invalidState.dbusName?: self = .invalidState(message)
        case AlarmsErrorName.invalidArgument.dbusName?: self = .invalidArgument(message)
        case AlarmsErrorName.limitReached.dbusName?: self = .limitReached(message)
        case AlarmsErrorName.storageFailed.dbusName?: self = .storageFailed(message)
        case AlarmsErrorName.notAuthorized.dbusName?: self = .notAuthorized(message)
        case "org.freedesktop.DBus.Error.ServiceUnknown"?, "org.freedesktop.DBus.Error.NameHasNoOwner"?:
            self = .agentUnavailable(Self.notRunning)
        case let name? where name.hasPrefix("org.freedesktop.DBus.Error.Spawn"):
            self = .agentUnavailable("The Tocsin agent could not be started by D-Bus (\(message)). Run “tocsind” in a terminal to see why.")
        case "org.freedesktop.DBus.Error.NoReply"?, "org.freedesktop.DBus.Error.Timeout"?:
            self = .agentUnavailable("The Tocsin agent did not answer in time (\(message)).")
        default:
            self = .protocolError(message)
        }
    }

    /// What to say when the agent is not running.
    static let notRunning = "The Tocsin agent is not running. Start it with “tocsind &” (installed packages start it with your desktop session)."
}
