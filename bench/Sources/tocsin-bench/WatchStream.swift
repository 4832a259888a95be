import Foundation
import HeadlessSession

/// One line of `tocsin watch --json`: a change the agent announced, as a client received it.
struct WatchEvent: Sendable {
    /// When `tocsin watch` received the signal (its own clock reading, CLOCK_REALTIME).
    let receivedAt: Date
    /// "scheduled", "fired", "stopped", "cancelled", "agent-started"…
    let event: String
    let alarmID: String?
    let title: String?
    /// The alarm's `fire-time` in the announcement (present while it counts down or waits).
    let fireTime: Date?
}

/// A `tocsin watch --json` running in the session for the whole benchmark: the client-side view
/// of every change, in particular when each `fired` signal reached a client.
///
/// The process writes to a log file in the session directory; it is parsed incrementally.
final class WatchStream {
    private let process: SessionProcess
    private let log: FileHandle
    private var partialLine = Data()
    private(set) var events: [WatchEvent] = []

    /// Starts `tocsin watch --json`. Call `waitUntilSubscribed` before relying on it.
    init(session: HeadlessSession, tocsin: URL) throws {
        process = try session.launch(tocsin, ["watch", "--json"])
        log = try FileHandle(forReadingFrom: process.standardOutputURL)
    }

    deinit {
        try? log.close()
    }

    /// Reads whatever the watcher printed since the last call.
    func refresh() {
        guard let data = try? log.readToEnd(), !data.isEmpty else { return }
        partialLine.append(data)
        // A line still being written stays for the next call.
        guard let lastNewline = partialLine.lastIndex(of: UInt8(ascii: "\n")) else { return }
        for line in partialLine[partialLine.startIndex..<lastNewline].split(separator: UInt8(ascii: "\n")) {
            if let event = Self.parse(Data(line)) { events.append(event) }
        }
        partialLine = Data(partialLine[partialLine.index(after: lastNewline)...])
    }

    /// Waits until an event matching `predicate` has been printed and returns the first such.
    func waitFor(timeout: Duration, _ predicate: (WatchEvent) -> Bool) -> WatchEvent? {
        let deadline = Date().addingTimeInterval(timeout.seconds)
        while true {
            refresh()
            if let match = events.first(where: predicate) { return match }
            if Date() >= deadline || !process.isRunning { return nil }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    /// Waits until every id in `ids` has an event named `event`; returns false on timeout.
    func waitForAll(_ ids: Set<String>, event: String, timeout: Duration) -> Bool {
        let deadline = Date().addingTimeInterval(timeout.seconds)
        while true {
            refresh()
            let seen = Set(events.filter { $0.event == event }.compactMap(\.alarmID))
            if ids.isSubset(of: seen) { return true }
            if Date() >= deadline || !process.isRunning { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// The first event named `event` for alarm `id`.
    func first(_ event: String, id: String) -> WatchEvent? {
        events.first { $0.event == event && $0.alarmID == id }
    }

    private static func parse(_ line: Data) -> WatchEvent? {
        guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
              let time = (object["time"] as? NSNumber)?.doubleValue,
              let event = object["event"] as? String else { return nil }
        let alarm = object["alarm"] as? [String: Any]
        return WatchEvent(
            receivedAt: Date(timeIntervalSince1970: time),
            event: event,
            alarmID: alarm?["id"] as? String,
            title: alarm?["title"] as? String,
            fireTime: (alarm?["fire-time"] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue) })
    }
}
