import Foundation
import TocsinCore

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

    static func run(_ arguments: [String], in context: CommandContext) throws(CommandError) {
        let parsed = try ParsedArguments(arguments, command: name, flags: ["--json"])
        try parsed.expectPositionals([], command: name)
        let client: any AgentClient
        let alarms: [Alarm]
        do {
            client = try context.connect()
            alarms = try client.alarms()
        } catch {
            throw CommandError(error)
        }
        let now = context.now()
        let ringing = alarms.filter { $0.state.name == .alerting }
        if !ringing.isEmpty, let hiddenBy = try? hiddenAlertsReason(client) {
            // Alerts are invisible on screen: the list is where the user finds what rings.
            context.output.note("Ringing with its alert hidden (\(hiddenBy)): \(ringing.map { "“\($0.title)” (\(AlarmText.shortID($0.id)))" }.joined(separator: ", ")). Stop with “tocsin stop”.")
        }
        if parsed.flags.contains("--json") {
            context.output.result(AlarmText.json(.array(alarms.map { AlarmText.jsonObject($0, at: now) })))
        } else if alarms.isEmpty {
            context.output.note("No alarms or timers.")
        } else {
            context.output.result(context.text.table(alarms, at: now))
        }
    }
}

/// Why alerts are hidden right now (a do-not-disturb that hides even critical alerts), or `nil`.
private func hiddenAlertsReason(_ client: any AgentClient) throws(TocsinError) -> String? {
    let status = try client.status()
    guard status[AlarmWireFormat.StatusKey.doNotDisturbHidesAlerts.rawValue] == .bool(true),
          case .string(let mechanism)? = status[AlarmWireFormat.StatusKey.doNotDisturbMechanism.rawValue] else { return nil }
    return mechanism
}
