import Foundation
import TocsinCore

/// `tocsin show ID`: everything about one alarm.
enum ShowCommand: Command {
    static let name = "show"
    static let summary = "show one alarm or timer in full"
    static let help = """
        Usage: tocsin show ID [--json]

        Shows everything about one alarm or timer, hooks included. ID may be any unique prefix.

          --json   one JSON object (the keys of the D-Bus API, plus "remaining")
        """

    static func run(_ arguments: [String], in context: CommandContext) throws(CommandError) {
        let parsed = try ParsedArguments(arguments, command: name, flags: ["--json"])
        try parsed.expectPositionals(["ID"], command: name)
        let client: any AgentClient
        do { client = try context.connect() } catch { throw CommandError(error) }
        let alarm = try AlarmResolver(client: client).alarm(named: parsed.positionals[0])
        let now = context.now()
        context.output.result(parsed.flags.contains("--json") ? AlarmText.json(AlarmText.jsonObject(alarm, at: now)) : context.text.details(of: alarm, at: now))
    }
}
