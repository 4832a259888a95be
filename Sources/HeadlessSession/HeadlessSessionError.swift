import Foundation

/// An error from a headless session: which part failed, why, and the tail of the log that explains it.
public enum HeadlessSessionError: Error, CustomStringConvertible, LocalizedError {
    /// A session component (D-Bus daemon, Xvfb, dunst, pulseaudio, the bus monitor…) could not be
    /// started or did not become ready.
    case componentFailed(component: String, reason: String, stderrTail: String)
    /// A program run inside the session did not finish in time; it was killed.
    case commandTimedOut(command: String, timeout: Duration, stderrTail: String)
    /// A helper command the session relies on (dunstctl, import, pactl…) exited with a failure status.
    case commandFailed(command: String, status: Int32, stderrTail: String)
    /// No notification matching the caller's condition arrived in time.
    case notificationTimedOut(timeout: Duration, observedSummaries: [String])
    /// The notification did not go away (no CloseNotification call, no NotificationClosed signal) in time.
    case notificationNotClosed(id: UInt32, timeout: Duration)
    /// A notification action could not be clicked; `offered` lists the context-menu lines dunst offered.
    case actionNotClickable(label: String, notificationID: UInt32, reason: String, offered: [String])
    /// A sound recording could not be started.
    case recordingFailed(reason: String, stderrTail: String)
    /// The session was already stopped.
    case sessionStopped
    /// The screen never showed what a test waited for; `lastRead` is what OCR read last.
    case screenNeverShowed(what: String, lastRead: String)
    /// A helper command answered, but not what the session needed (unreadable output, no sink of
    /// that name, a change the server did not take); `reason` says what was wrong.
    case unexpectedAnswer(command: String, reason: String)

    /// A readable explanation including the failing component and its log tail.
    public var description: String {
        switch self {
        case let .componentFailed(component, reason, stderrTail):
            return "HeadlessSession: \(component) failed: \(reason)" + Self.tailSuffix(stderrTail)
        case let .commandTimedOut(command, timeout, stderrTail):
            return "HeadlessSession: `\(command)` did not finish within \(timeout); it was killed"
                + Self.tailSuffix(stderrTail)
        case let .commandFailed(command, status, stderrTail):
            return "HeadlessSession: `\(command)` exited with status \(status)" + Self.tailSuffix(stderrTail)
        case let .notificationTimedOut(timeout, observedSummaries):
            let seen = observedSummaries.isEmpty
                ? "none"
                : observedSummaries.map { "\"\($0)\"" }.joined(separator: ", ")
            return "HeadlessSession: no matching notification within \(timeout); notifications seen: \(seen)"
        case let .notificationNotClosed(id, timeout):
            return "HeadlessSession: notification \(id) was not closed within \(timeout)"
        case let .actionNotClickable(label, notificationID, reason, offered):
            let menu = offered.isEmpty ? "(nothing)" : offered.joined(separator: " | ")
            return "HeadlessSession: cannot click action \"\(label)\" on notification \(notificationID): "
                + "\(reason). dunst offered: \(menu)"
        case let .recordingFailed(reason, stderrTail):
            return "HeadlessSession: sound recording failed: \(reason)" + Self.tailSuffix(stderrTail)
        case .sessionStopped:
            return "HeadlessSession: the session was already stopped"
        case let .screenNeverShowed(what, lastRead):
            return "HeadlessSession: the screen never showed \(what); it read:\n\(lastRead.isEmpty ? "(no text)" : lastRead)"
        case let .unexpectedAnswer(command, reason):
            return "HeadlessSession: `\(command)`: \(reason)"
        }
    }

    /// Same as `description`, so `localizedDescription` is informative too.
    public var errorDescription: String? { description }

    private static func tailSuffix(_ tail: String) -> String {
        let trimmed = tail.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? "" : "\n--- stderr tail ---\n\(trimmed)"
    }
}
