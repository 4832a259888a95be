import Foundation
import TocsinCore

/// `tocsin status`: whether the agent runs, and what it can and cannot do on this machine.
enum StatusCommand: Command {
    static let name = "status"
    static let summary = "show how the agent is set up (time zone, waking the machine, state file)"
    static let help = """
        Usage: tocsin status [--json]

        Shows the agent's version, the time zone local alarm times follow, whether the agent
        can wake a suspended machine for an alarm (and how to let it), where alarms are saved,
        and what is ringing.

          --json   the agent's status dictionary as one JSON object
        """

    static func run(_ arguments: [String], in context: CommandContext) throws(CommandError) {
        let parsed = try ParsedArguments(arguments, command: name, flags: ["--json"])
        try parsed.expectPositionals([], command: name)
        let status: [String: WireValue]
        do { status = try context.connect().status() } catch { throw CommandError(error) }
        if parsed.flags.contains("--json") {
            context.output.result(AlarmText.json(.object(status.mapValues(AlarmText.jsonValue))))
            return
        }
        typealias Key = AlarmWireFormat.StatusKey
        func text(_ key: Key) -> String {
            switch status[key.rawValue] {
            case .string(let value)?: value
            case .integer(let value)?: "\(value)"
            case .bool(let value)?: value ? "yes" : "no"
            default: "?"
            }
        }
        let wakes = status[Key.canWakeSystem.rawValue] == .bool(true)
            ? "yes: a suspended machine wakes up for the next alarm"
            : "no: \(text(.wakeProblem)). Alarms due during suspend ring on resume, or are reported missed beyond their late limit."
        let writable = status[Key.stateWritable.rawValue] == .bool(true) ? "" : " (NOT writable: see the agent's log)"
        let ringing = text(.ringing).split(separator: ",").count
        let rows = [
            ("agent", "running, version \(text(.version))"),
            ("time zone", text(.timeZone)),
            ("wakes the machine", wakes),
            ("state file", text(.stateFile) + writable),
            ("alarms", "\(text(.alarmCount))" + (ringing > 0 ? " (\(ringing) ringing)" : "")),
            ("watching", "\(text(.watchers)) program(s) follow the changes (tocsin watch, panels)"),
        ]
        let width = rows.map(\.0.count).max() ?? 0
        context.output.result(rows.map { "\(($0.0 + ":").padding(toLength: width + 1, withPad: " ", startingAt: 0)) \($0.1)" }.joined(separator: "\n"))
    }
}
