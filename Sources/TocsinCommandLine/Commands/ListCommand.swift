import Foundation
import TocsinCore
import TocsinKit

/// `tocsin list`: every alarm and timer with its state.
enum ListCommand: Command {
    static let name = "list"
    static let summary = "list alarms and timers"
    static let help = """
        Usage: tocsin list [--json]

        Lists every alarm and timer: a short id (any unique prefix of an id is accepted by the
        other commands), its state (countdown, paused, alerting), what it is doing and its title.

          --json   one JSON array of alarm objects (the keys of the D-Bus API, plus "remaining")
        """

    static func run(_ arguments: [String]) throws(CommandError) {
        let parsed = try ParsedArguments(arguments, command: name, flags: ["--json"])
        try parsed.expectPositionals([], command: name)
        let client: TocsinClient
        let alarms: [Alarm]
        do {
            client = try TocsinClient()
            alarms = try client.alarms()
        } catch {
            throw CommandError(error)
        }
        let now = Date()
        let ringing = alarms.filter { $0.state.name == .alerting }
        if !ringing.isEmpty, let hiddenBy = try? hiddenAlertsReason(client) {
            // Alerts are invisible on screen: the list is where the user finds what rings.
            Output.note("Ringing with its alert hidden (\(hiddenBy)): \(ringing.map { "“\($0.title)” (\(AlarmText.shortID($0.id)))" }.joined(separator: ", ")). Stop with “tocsin stop”.")
        }
        if parsed.flags.contains("--json") {
            print(AlarmText.json(.array(alarms.map { AlarmText.jsonObject($0, at: now) })))
        } else if alarms.isEmpty {
            Output.note("No alarms or timers.")
        } else {
            print(AlarmText.table(alarms, at: now))
        }
    }
}

/// Why alerts are hidden right now (a do-not-disturb that hides even critical alerts), or `nil`.
private func hiddenAlertsReason(_ client: TocsinClient) throws(TocsinError) -> String? {
    let status = try client.status()
    guard status[AlarmWireFormat.StatusKey.doNotDisturbHidesAlerts.rawValue] == .bool(true),
          case .string(let mechanism)? = status[AlarmWireFormat.StatusKey.doNotDisturbMechanism.rawValue] else { return nil }
    return mechanism
}
