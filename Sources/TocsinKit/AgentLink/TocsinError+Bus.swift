import GLibSupport
import TocsinCore

extension TocsinError {
    /// The error for a call to the agent that failed with `failure`: the agent's own refusal read
    /// back under its D-Bus error name, or the bus's word that the agent cannot be reached.
    /// `timeoutMilliseconds` is the call's, for the sentence when it got no answer in time.
    init(failedCall failure: GLibError, timeoutMilliseconds: Int32) {
        if failure.isTimeout {
            self = .agentUnavailable("The Tocsin agent did not answer within \(timeoutMilliseconds / 1000) s; it may be stuck. Restart it (“pkill tocsind; tocsind &”) and look at its log.")
            return
        }
        guard let name = failure.remoteName else {
            self = .protocolError(failure.message)
            return
        }
        if let refusal = TocsinError(dbusErrorName: name, message: failure.message) {
            self = refusal
            return
        }
        switch name {
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
            self = .agentUnavailable(Self.notRunning)
        case let name where name.hasPrefix("org.freedesktop.DBus.Error.Spawn"):
            self = .agentUnavailable("The Tocsin agent could not be started by D-Bus (\(failure.message)). Run “tocsind” in a terminal to see why.")
        case "org.freedesktop.DBus.Error.NoReply", "org.freedesktop.DBus.Error.Timeout":
            self = .agentUnavailable("The Tocsin agent did not answer in time (\(failure.message)).")
        default:
            self = .protocolError(failure.message)
        }
    }

    /// What to say when the agent is not running.
    static let notRunning = "The Tocsin agent is not running. Start it with “tocsind &” (installed packages start it with your desktop session)."
}
