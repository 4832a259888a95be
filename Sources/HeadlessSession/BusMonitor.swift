import Foundation

/// Watches every message on the session bus for the session's lifetime, so a test sees exactly
/// what the notification server was asked to show, with every hint and action, and which id it
/// returned — independent of how dunst happens to render it.
///
/// `busctl monitor --json=short` writes one JSON object per message to a log file in the session
/// directory; the log is parsed incrementally (from the last offset) whenever someone asks.
///
/// `@unchecked Sendable`: the read offset, the partial last line and the parsed traffic are
/// shared by every thread that queries the session, and all of them are guarded by `lock`.
final class BusMonitor: @unchecked Sendable {
    let process: SessionProcess
    private let lock = NSLock()
    private let log: FileHandle
    private var partialLine = Data()
    private var traffic = NotificationTraffic()

    private init(process: SessionProcess, log: FileHandle) {
        self.process = process
        self.log = log
    }

    deinit {
        try? log.close()
    }

    /// Starts the monitor and returns once it provably sees bus traffic: a probe call is sent
    /// until it shows up in the log, so no notification sent after this returns can be missed.
    static func start(launcher: ChildLauncher, environment: [String: String]) throws -> BusMonitor {
        let busctl = try ExecutableLocator.find("busctl", environment: environment)
        let address = environment["DBUS_SESSION_BUS_ADDRESS"] ?? ""
        let process = try launcher.launch(
            name: "bus-monitor", executable: busctl,
            arguments: ["--address=\(address)", "monitor", "--json=short"],
            environment: environment)
        let log: FileHandle
        do {
            log = try FileHandle(forReadingFrom: process.standardOutputURL)
        } catch {
            throw HeadlessSessionError.componentFailed(
                component: "bus monitor", reason: "cannot read its log: \(error)", stderrTail: "")
        }
        let monitor = BusMonitor(process: process, log: log)

        // A bus name nobody owns; asking about it puts the name into the monitored traffic.
        let probeName = "org.tocsin.HeadlessSession.Probe.P" + UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let seesTraffic = try Polling.until(timeout: .seconds(10), interval: .milliseconds(20)) {
            guard process.isRunning else { return true }
            if let text = try? String(contentsOf: process.standardOutputURL, encoding: .utf8), text.contains(probeName) {
                return true
            }
            _ = try launcher.run(
                name: "busctl", executable: busctl,
                arguments: ["--address=\(address)", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                            "org.freedesktop.DBus", "NameHasOwner", "s", probeName],
                environment: environment, timeout: .seconds(5))
            return false
        }
        guard seesTraffic, process.isRunning else {
            throw HeadlessSessionError.componentFailed(
                component: "bus monitor (busctl monitor)",
                reason: process.isRunning
                    ? "saw no bus traffic within 10 s"
                    : "exited with status \(process.terminationStatus ?? -1)",
                stderrTail: process.standardErrorTail())
        }
        return monitor
    }

    /// Parses whatever the monitor has logged since the last call, then reads the traffic.
    func read<T>(_ body: (NotificationTraffic) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        consumeNewLines()
        return body(traffic)
    }

    /// Must be called with `lock` held.
    private func consumeNewLines() {
        guard let data = try? log.readToEnd(), !data.isEmpty else { return }
        partialLine.append(data)
        // Only complete lines are parsed; a line busctl is still writing stays for next time.
        guard let lastNewline = partialLine.lastIndex(of: UInt8(ascii: "\n")) else { return }
        let complete = partialLine[partialLine.startIndex..<lastNewline]
        for line in complete.split(separator: UInt8(ascii: "\n")) where !line.isEmpty {
            traffic.consume(line: Substring(decoding: line, as: UTF8.self))
        }
        partialLine = Data(partialLine[partialLine.index(after: lastNewline)...])
    }
}
