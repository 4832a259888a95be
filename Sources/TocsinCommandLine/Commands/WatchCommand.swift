import Foundation
import GLibSupport
import TocsinCore
import TocsinKit

/// `tocsin watch`: one line per change, until interrupted.
enum WatchCommand: Command {
    static let name = "watch"
    static let summary = "print every change of every alarm as it happens"
    static let help = """
        Usage: tocsin watch [--json | --format waybar|i3blocks|polybar]

        Prints one line per change (scheduled, paused, resumed, fired, snoozed, stopped,
        cancelled, secondary, unacknowledged) until interrupted. Keeps watching when the agent
        restarts, and says when it stops or comes back.

          --json            one JSON object per line: {"time":…, "event":…, "alarm":{…}}; when the
                            agent goes away or returns: {"time":…, "event":"agent-stopped"|"agent-started"}
          --format FORMAT   what a status bar shows instead: the nearest countdown ("Pasta 2:59"),
                            what rings ("Pasta ringing") or what is paused ("Tea 1:00 paused"),
                            a line each time it changes (each second while something counts
                            down; one idle line otherwise).
                            waybar: {"text", "tooltip", "class", "alt", "percentage"}, with
                            "return-type": "json"; i3blocks (interval=persist) and polybar
                            (tail = true): the text. Bind a click to “tocsin stop”.
        """

    static func run(_ arguments: [String], in context: CommandContext) throws(CommandError) {
        let parsed = try ParsedArguments(arguments, command: name, options: ["--format"], flags: ["--json"])
        try parsed.expectPositionals([], command: name)
        let json = parsed.flags.contains("--json")
        var panelFormat: PanelFormat?
        if let formatName = parsed.values["--format"] {
            guard let format = PanelFormat(rawValue: formatName) else {
                throw .usage("Unknown format “\(formatName)”; known formats: \(PanelFormat.allCases.map(\.rawValue).joined(separator: ", ")).", command: name)
            }
            guard !json else { throw .usage("--json and --format go one at a time.", command: name) }
            panelFormat = format
        }
        let client: any AgentClient
        do { client = try context.connect() } catch { throw CommandError(error) }
        if let panelFormat {
            let panel = PanelWatch(format: panelFormat, client: client, output: context.output)
            panel.start()
            let loop = MainLoop()
            loop.quitOnTerminationSignals { _ in }
            withExtendedLifetime(panel) { loop.run() }
            return
        }
        client.watch { change in
            if json {
                context.output.line(AlarmText.json(.object([
                    "time": .number(change.receivedAt.timeIntervalSince1970),
                    "event": .string(change.event.rawValue),
                    "alarm": AlarmText.jsonObject(change.alarm, at: change.receivedAt),
                ])))
            } else {
                context.output.line(context.text.watchLine(change.event, change.alarm, removed: change.isRemoval, at: change.receivedAt))
            }
        }
        var agentPresent: Bool?
        client.watchAgentPresence { present in
            defer { agentPresent = present }
            // The first report is the state at start: say only if the agent is missing.
            guard agentPresent != nil || !present else { return }
            if json {
                context.output.line(AlarmText.json(.object(["time": .number(context.now().timeIntervalSince1970), "event": .string(present ? "agent-started" : "agent-stopped")])))
            } else {
                context.output.note(present ? "The agent is running again." : "The agent is not running; waiting for it to start.")
            }
        }
        let loop = MainLoop()
        loop.quitOnTerminationSignals { _ in }
        loop.run()
    }
}
