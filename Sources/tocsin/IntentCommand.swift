import Foundation
import TocsinCore
import TocsinKit

/// `tocsin pause|resume|cancel|stop|snooze [ID]`: the intents, as shell commands (and so as
/// keyboard shortcuts).
struct IntentCommand {
    let name: String
    let intent: AlarmIntent
    let summary: String
    /// Without an id, act on every ringing alarm (stop and snooze), or require an id.
    let actsOnRingingWithoutID: Bool

    static let all = [
        IntentCommand(name: "pause", intent: .pause, summary: "pause a counting-down timer", actsOnRingingWithoutID: false),
        IntentCommand(name: "resume", intent: .resume, summary: "resume a paused timer", actsOnRingingWithoutID: false),
        IntentCommand(name: "cancel", intent: .cancel, summary: "remove an alarm or timer, whatever its state", actsOnRingingWithoutID: false),
        IntentCommand(name: "stop", intent: .stop, summary: "stop a ringing alarm (all ringing ones without ID)", actsOnRingingWithoutID: true),
        IntentCommand(name: "snooze", intent: .countdown, summary: "snooze a ringing alarm (all ringing ones without ID)", actsOnRingingWithoutID: true),
    ]

    var help: String {
        let idPart = actsOnRingingWithoutID ? "[ID]" : "ID"
        let noID = actsOnRingingWithoutID
            ? "\nWithout ID it acts on every alarm that is ringing, which makes it a good keyboard\nshortcut: bind “tocsin \(name)” in your desktop's keyboard settings.\n"
            : ""
        return """
            Usage: tocsin \(name) \(idPart)

            Asks the agent to \(intent.verb) the alarm or timer ID (any unique prefix of its id).
            \(noID)
            Exit status: 0 done, 1 refused by the agent (unknown id, wrong state), 2 usage error,
            3 agent not reachable.
            """
    }

    func run(_ arguments: [String]) throws(CommandError) {
        let parsed = try ParsedArguments(arguments, command: name)
        let client: TocsinClient
        do { client = try TocsinClient() } catch { throw CommandError(error) }
        if parsed.positionals.isEmpty && actsOnRingingWithoutID {
            try runOnRinging(client)
            return
        }
        try parsed.expectPositionals(["ID"], command: name)
        let alarm = try AlarmResolver(client: client).alarm(named: parsed.positionals[0])
        do { try client.perform(intent, on: alarm.id) } catch { throw CommandError(error) }
    }

    private func runOnRinging(_ client: TocsinClient) throws(CommandError) {
        let ringing: [Alarm]
        do { ringing = try client.alarms().filter { $0.state.name == .alerting } } catch { throw CommandError(error) }
        guard !ringing.isEmpty else { throw .refused("Nothing is ringing.") }
        for alarm in ringing {
            do {
                try client.perform(intent, on: alarm.id)
                Output.note("\(name == "stop" ? "Stopped" : "Snoozed") “\(alarm.title)” (\(AlarmText.shortID(alarm.id))).")
            } catch {
                throw CommandError(error)
            }
        }
    }
}
