import Foundation

/// A signal seen on the session bus, as the bus monitor logged it.
public struct BusSignal: Sendable {
    /// The sender's unique name (":1.12").
    public let sender: String
    public let path: String
    public let interface: String
    public let member: String
    /// Each argument as JSON text: `true`, `42`, `"text"`.
    public let arguments: [String]
    /// When the monitor saw it (the bus's wall clock).
    public let at: Date
}

/// The signals in the bus monitor's log (`busctl monitor --json=short`, one message a line),
/// read from the start of the log each time: signals are few beside the rest of the traffic,
/// and a line is decoded only when it names the member asked for.
enum BusSignals {
    static func read(from monitor: BusMonitor, member: String? = nil) -> [BusSignal] {
        guard let data = try? Data(contentsOf: monitor.process.standardOutputURL) else { return [] }
        let memberMark = member.map { "\"member\":\"\($0)\"" }
        var signals: [BusSignal] = []
        for line in data.split(separator: UInt8(ascii: "\n")) {
            let text = Substring(decoding: line, as: UTF8.self)
            guard text.contains("\"type\":\"signal\""), memberMark.map({ text.contains($0) }) ?? true,
                  let message = try? JSONDecoder().decode(JSONValue.self, from: Data(line)) else { continue }
            let microseconds = message["timestamp-realtime"]?.int64 ?? 0
            signals.append(BusSignal(sender: message["sender"]?.string ?? "", path: message["path"]?.string ?? "",
                                     interface: message["interface"]?.string ?? "", member: message["member"]?.string ?? "",
                                     arguments: (message["payload"]?["data"]?.array ?? []).map(\.jsonText),
                                     at: Date(timeIntervalSince1970: TimeInterval(microseconds) / 1_000_000)))
        }
        return signals
    }
}
