import Foundation

/// Readiness is always awaited by checking a condition repeatedly, never by a fixed sleep, so a
/// session starts as fast as the machine allows and a slow machine only costs time, not flakiness.
enum Polling {
    /// Checks `condition` every `interval` until it holds or `timeout` passes.
    /// - Returns: whether the condition held in time.
    static func until(
        timeout: Duration,
        interval: Duration = .milliseconds(10),
        _ condition: () throws -> Bool
    ) rethrows -> Bool {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            if try condition() { return true }
            if ContinuousClock.now >= deadline { return false }
            Thread.sleep(forTimeInterval: interval.timeInterval)
        }
    }
}

extension Duration {
    /// The duration in seconds, for Foundation APIs that take a `TimeInterval`.
    var timeInterval: TimeInterval {
        let parts = components
        return TimeInterval(parts.seconds) + TimeInterval(parts.attoseconds) / 1e18
    }
}

/// The last lines of a log file, for error messages: enough to explain a failure, short enough to read.
enum LogTail {
    static func of(_ url: URL, maxLines: Int = 15) -> String {
        guard let data = try? Data(contentsOf: url), !data.isEmpty else { return "" }
        return of(String(decoding: data, as: UTF8.self), maxLines: maxLines)
    }

    static func of(_ text: String, maxLines: Int = 15) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.suffix(maxLines).joined(separator: "\n")
    }
}
