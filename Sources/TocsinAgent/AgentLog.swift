import FoundationEssentials
import Glibc

/// The agent's log: one line per event on standard error, which systemd's journal (or the
/// terminal) keeps. Each line starts with a level so `journalctl -p` and tests can filter.
public struct AgentLog: Sendable {
    /// How serious a line is.
    public enum Level: String, Sendable {
        case info, warning, error
    }

    private let write: @Sendable (String) -> Void

    /// A log writing to standard error.
    public static let standardError = AgentLog { line in writeToStandardError(line) }

    /// Writes `line` and a newline to standard error in one write(2), so lines from the sound
    /// thread and the main loop never interleave.
    public static func writeToStandardError(_ line: String) {
        var bytes = Array((line + "\n").utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
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
