import Foundation

/// The agent's log: one line per event on standard error, which systemd's journal (or the
/// terminal) keeps. Each line starts with a level so `journalctl -p` and tests can filter.
public struct AgentLog: Sendable {
    /// How serious a line is.
    public enum Level: String, Sendable {
        case info, warning, error
    }

    private let write: @Sendable (String) -> Void

    /// A log writing to standard error.
    public static let standardError = AgentLog { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// A log handing each line to `write` (for tests).
    public init(write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    /// Logs an ordinary event.
    public func info(_ message: String) { log(.info, message) }
    /// Logs something the user may need to fix; the agent keeps working.
    public func warning(_ message: String) { log(.warning, message) }
    /// Logs a failure.
    public func error(_ message: String) { log(.error, message) }

    private func log(_ level: Level, _ message: String) {
        write("tocsind[\(level.rawValue)] \(message)")
    }
}
