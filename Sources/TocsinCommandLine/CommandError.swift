import TocsinCore

/// Why a `tocsin` command failed, which decides its exit status.
enum CommandError: Error {
    /// The command line is wrong (exit 2); `command` names the subcommand for the help hint.
    case usage(String, command: String?)
    /// The agent refused or failed the request (exit 1).
    case refused(String)
    /// The agent could not be reached (exit 3).
    case unavailable(String)

    /// The error for a failure reported by the client library.
    init(_ error: TocsinError) {
        switch error.kind {
        case .agentUnavailable: self = .unavailable(error.message)
        case .refused, .protocolError: self = .refused(error.message)
        }
    }

    /// The process exit status.
    var exitStatus: Int32 {
        switch self {
        case .usage: 2
        case .refused: 1
        case .unavailable: 3
        }
    }

    /// What to print on standard error.
    var message: String {
        switch self {
        case .usage(let message, let command?): "\(message)\nSee “tocsin \(command) --help”."
        case .usage(let message, nil): "\(message)\nSee “tocsin --help”."
        case .refused(let message), .unavailable(let message): message
        }
    }
}
