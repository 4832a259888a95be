import Foundation
import TocsinCore

/// `tocsin pause|resume|cancel|stop|snooze [ID]`: the intents, as shell commands (and so as
/// keyboard shortcuts).
struct IntentCommand {
    let name: String
    let intent: AlarmIntent
    let summary: String
    /// Without an id, act on every ringing alarm (stop and snooze), or on the one on screen that
    /// can take the intent (pause, resume, cancel).
    let actsOnRingingWithoutID: Bool

    static let all = [
        IntentCommand(name: "pause", intent: .pause, summary: "pause a counting-down timer (the only one without ID)", actsOnRingingWithoutID: false),
        IntentCommand(name: "resume", intent: .resume, summary: "resume a paused timer (the only one without ID)", actsOnRingingWithoutID: false),
        IntentCommand(name: "cancel", intent: .cancel, summary: "remove an alarm or timer, whatever its state (the only one on screen without ID)", actsOnRingingWithoutID: false),
        IntentCommand(name: "stop", intent: .stop, summary: "stop a ringing alarm (all ringing ones without ID)", actsOnRingingWithoutID: true),
        IntentCommand(name: "snooze", intent: .countdown, summary: "snooze a ringing alarm (all ringing ones without ID)", actsOnRingingWithoutID: true),
    ]

    var help: String {
        let noID = actsOnRingingWithoutID
            ? "\nWithout ID it acts on every alarm that is ringing, which makes it a good keyboard\nshortcut: bind “tocsin \(name)” in your desktop's keyboard settings.\n"
            : "\nWithout ID it acts on the one alarm or timer on screen (counting down, paused or\nringing) that can be \(intent.pastParticiple), and lists the candidates when there are\nseveral: a keyboard shortcut or a panel button can bind “tocsin \(name)”.\n"
        return """
            Usage: tocsin \(name) [ID]

            Asks the agent to \(intent.verb) the alarm or timer ID (any unique prefix of its id).
            \(noID)
            Exit status: 0 done, 1 refused by the agent (unknown id, wrong state), 2 usage error,
            3 agent not reachable.
            """
    }

    /// Runs the intent with the arguments after its name, in `context`.
    func run(_ arguments: [String], in context: CommandContext) throws(CommandError) {
        let parsed = try ParsedArguments(arguments, command: name)
        let client: any AgentClient
        do { client = try context.connect() } catch { throw CommandError(error) }
        if parsed.positionals.isEmpty {
            if actsOnRingingWithoutID { try runOnRinging(client, in: context) } else { try runOnTheOneOnScreen(client, in: context) }
            return
        }
        try parsed.expectPositionals(["ID"], command: name)
        let alarm = try AlarmResolver(client: client).alarm(named: parsed.positionals[0])
        do { try client.perform(intent, on: alarm.id) } catch { throw CommandError(error) }
    }

    /// The intent on the one alarm on screen that can take it (`IntentTarget`).
    private func runOnTheOneOnScreen(_ client: any AgentClient, in context: CommandContext) throws(CommandError) {
        let alarms: [Alarm]
        do { alarms = try client.alarms() } catch { throw CommandError(error) }
        let now = context.now()
        switch IntentTarget.of(intent, among: alarms, now: now) {
        case .one(let alarm):
            do { try client.perform(intent, on: alarm.id) } catch { throw CommandError(error) }
            context.output.note(done(alarm))
        case .none(let needs):
            throw .refused("Nothing is \(needs), so there is nothing to \(intent.verb); give an ID (see “tocsin list”).")
        case .several(let candidates):
            let listed = candidates.map { "  \(AlarmText.shortID($0.id))  “\($0.title)”, \(context.text.status(of: $0, at: now))" }.joined(separator: "\n")
            throw .usage("\(candidates.count) alarms could be \(intent.pastParticiple); give one's ID (or a unique prefix of it):\n\(listed)", command: name)
        }
    }

    private func runOnRinging(_ client: any AgentClient, in context: CommandContext) throws(CommandError) {
        let ringing: [Alarm]
        do { ringing = try client.alarms().filter { $0.state.name == .alerting } } catch { throw CommandError(error) }
        guard !ringing.isEmpty else { throw .refused("Nothing is ringing.") }
        for alarm in ringing {
            do {
                try client.perform(intent, on: alarm.id)
                context.output.note(done(alarm))
            } catch {
                throw CommandError(error)
            }
        }
    }

    /// "Paused “Pasta” (3f2b8c1e)."
    private func done(_ alarm: Alarm) -> String {
        "\(intent.pastParticiple.prefix(1).uppercased())\(intent.pastParticiple.dropFirst()) “\(alarm.title)” (\(AlarmText.shortID(alarm.id)))."
    }
}
