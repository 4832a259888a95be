import Foundation
import TocsinCore
import TocsinKit
import TocsinFiles

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

    static func run(_ arguments: [String]) throws(CommandError) {
        let parsed = try ParsedArguments(arguments, command: name, flags: ["--json"])
        try parsed.expectPositionals([], command: name)
        let client: TocsinClient
        do { client = try TocsinClient() } catch { throw CommandError(error) }
        let findings = examine(client)
        if parsed.flags.contains("--json") {
            Output.line(AlarmText.json(.array(findings.map { finding in
                var object: [String: JSONValue] = ["check": .string(finding.check), "level": .string(finding.level.rawValue), "message": .string(finding.message)]
                object["fix"] = finding.fix.map(JSONValue.string)
                return .object(object)
            })))
        } else {
            for finding in findings {
                let mark = switch finding.level {
                case .ok: "ok      "
                case .optional: "optional"
                case .warning: "warning "
                case .problem: "PROBLEM "
                }
                Output.line("\(mark) \(finding.check): \(finding.message)")
                if let fix = finding.fix { Output.line("         → \(fix)") }
            }
            Output.line(ReadinessReport.summary(of: findings.map(\.level)))
        }
        if findings.contains(where: { $0.level == .problem }) {
            throw .refused("\(findings.filter { $0.level == .problem }.count) problem(s) found.")
        }
    }
}
