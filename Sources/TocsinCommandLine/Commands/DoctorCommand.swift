import Foundation
import TocsinCore

/// `tocsin doctor`: will my alarms be seen and heard on this desktop? One line per check, with
/// what to do about anything that is not fine.
enum DoctorCommand: Command {
    static let name = "doctor"
    static let summary = "check that alarms will be seen and heard on this desktop"
    static let help = """
        Usage: tocsin doctor [--json]

        Checks, each marked ok, optional, warning or problem, with what to do: the agent
        (running or startable), the notification server (buttons, progress bars), do-not-disturb
        and what it means for alarms, the sound server and the alarm sound, waking a suspended
        machine, the time zone, the state directory, and the parts that add to Tocsin without
        being needed (a panel that shows its tray item, a phone link): "optional" names one
        that is not there, and is no fault. A closing line says whether all is well.

        Exit status: 0 when nothing is a problem (warnings allowed), 1 when something is, 3
        when the session bus itself cannot be reached.

          --json   one JSON array of {"check", "level", "message", "fix"}
        """

    static func run(_ arguments: [String], in context: CommandContext) throws(CommandError) {
        let parsed = try ParsedArguments(arguments, command: name, flags: ["--json"])
        try parsed.expectPositionals([], command: name)
        let client: any AgentClient
        do { client = try context.connect() } catch { throw CommandError(error) }
        let report = DoctorReport(findings: examine(client, in: context))
        if parsed.flags.contains("--json") {
            context.output.line(report.json)
        } else {
            for line in report.lines { context.output.line(line) }
        }
        if let failure = report.failure { throw failure }
    }
}
