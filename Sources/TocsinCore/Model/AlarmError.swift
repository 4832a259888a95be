import FoundationEssentials

/// Why the agent refused an operation. Each case maps to one named D-Bus error.
public enum AlarmError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No alarm has this id.
    case notFound(id: UUID)
    /// The intent is not allowed in the alarm's current state; `requirement` says which state it needs.
    case invalidState(intent: AlarmIntent, title: String, state: AlarmStateName, requirement: String)
    /// The request itself is wrong (bad duration, unknown key, unreadable sound file…).
    case invalidArgument(AlarmInputError)
    /// The agent holds as many alarms as it will; nothing was added.
    case limitReached(limit: Int)
    /// The application holds as many alarms as an application may; nothing was added.
    case appLimitReached(app: String, limit: Int)
    /// The application may not set alarms: the user refused, or has not answered.
    case notAuthorized(app: String, state: AuthorizationState)
    /// A sandboxed application asked for shell commands (hooks), which would run outside its sandbox.
    case hooksFromSandbox(app: String, confinement: AppConfinement)

    /// One sentence for a person.
    public var description: String {
        switch self {
        case .notFound(let id):
            "No alarm or timer has the id “\(id.uuidString.lowercased())”."
        case .invalidState(let intent, let title, let state, let requirement):
            "Cannot \(intent.verb) “\(title)”: it is \(state.phrase) (\(state.rawValue)); \(requirement)."
        case .invalidArgument(let inputError):
            inputError.message
        case .limitReached(let limit):
            "The agent already holds \(limit) alarms and timers, its maximum; cancel some first."
        case .appLimitReached(let app, let limit):
            "“\(app)” already holds \(limit) alarms, the most an application may; cancel some first."
        case .notAuthorized(let app, .denied):
            "“\(app)” may not set alarms: the user did not allow it (change it with “tocsin auth grant \(app)”)."
        case .notAuthorized(let app, _):
            "“\(app)” may not set alarms until the user answers whether to allow it."
        case .hooksFromSandbox(let app, let confinement):
            "“\(app)” runs in a \(confinement.phrase), and Tocsin runs no command for a sandboxed app: it would run outside the sandbox with all of the user's rights. Schedule the alarm without hooks, and act on its events in the app itself (perform App Intents in the app, or call Watch and observe the Changed and Removed signals)."
        }
    }
}
