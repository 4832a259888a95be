import Foundation
import Glibc

/// One line per exchange, written at once (one write(2) each, so a crash of the agent leaves
/// every line before it): the wall-clock time (seconds since 1970, to the millisecond, as the
/// test compares it with the sink's recording and the agent's death), the exchange's number, the
/// bus, the neighbour, its kind and what was said.
///
///     1767000000.123 #512 session player2 call empty: Properties.Get("org.mpris.MediaPlayer2.Player", "PlaybackStatus") from :1.7 -> ()
///
/// Lines that are not exchanges (a neighbour coming back, the agent leaving the bus) have `-`
/// for a number. Counts by kind are kept for the summary.
final class ExchangeLog {
    private let descriptor: Int32
    private(set) var exchanges = 0
    private(set) var counts: [String: Int] = [:]
    let started = Date()

    init(path: String) {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if descriptor < 0 { FileHandle.standardError.write(Data("stand-in-neighbours: cannot write \(path)\n".utf8)) }
    }

    /// Logs one exchange of `kind` ("call empty", "signal malformed", "caller ok"…).
    func exchange(_ bus: String, _ neighbour: String, _ kind: String, _ what: String) {
        exchanges += 1
        counts[kind, default: 0] += 1
        write("\(Self.timestamp()) #\(exchanges) \(bus) \(neighbour) \(kind): \(what)")
    }

    /// Logs an event that is no exchange.
    func note(_ bus: String, _ neighbour: String, _ what: String) {
        write("\(Self.timestamp()) - \(bus) \(neighbour) note: \(what)")
    }

    private func write(_ line: String) {
        guard descriptor >= 0 else { return }
        var bytes = Array((line + "\n").utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    static func timestamp() -> String {
        String(format: "%.3f", Date().timeIntervalSince1970)
    }
}
