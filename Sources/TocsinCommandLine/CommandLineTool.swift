import Foundation
import TocsinCore

/// `tocsin`, the command line for the Tocsin agent. Each command lives in its own file; this one
/// only picks the command and turns errors into messages and exit statuses.
public enum CommandLineTool {
    /// Every command but the intents (`IntentCommand.all`), in the order `tocsin --help` lists them.
    static var commands: [any Command.Type] {
        [TimerCommand.self, AlarmCommand.self, ListCommand.self, ShowCommand.self, WatchCommand.self, StatusCommand.self, DoctorCommand.self, AuthCommand.self, PhoneCommand.self, ConfigCommand.self]
    }

    /// `tocsin --help`.
    static let overview = """
        Usage: tocsin COMMAND [options]

        Alarms and timers that ring no matter what, from the command line.

        Commands:
        \((commands.map { ($0.name, $0.summary) } + IntentCommand.all.map { ($0.name, $0.summary) })
            .map { "  \($0.0.padding(toLength: 8, withPad: " ", startingAt: 0)) \($0.1)" }.joined(separator: "\n"))

        “tocsin COMMAND --help” tells more about each. Exit status: 0 done, 1 refused by the
        agent, 2 usage error, 3 agent not reachable.
        """

    /// Runs `tocsin` with `arguments` (those after the program's name) on this terminal and
    /// returns the exit status: 0 done, 1 refused by the agent, 2 usage error, 3 agent not reachable.
    @MainActor
    public static func run(_ arguments: [String]) -> Int32 {
        run(arguments, in: .terminal)
    }

    /// Runs `tocsin` with `arguments` in `context`; returns the exit status.
    static func run(_ arguments: [String], in context: CommandContext) -> Int32 {
        var arguments = arguments
        guard let name = arguments.first else {
            context.output.note(overview)
            return 2
        }
        arguments.removeFirst()
        switch name {
        case "--help", "-h", "help":
            context.output.result(overview)
            return 0
        case "--version":
            context.output.result("tocsin \(TocsinVersion.string)")
            return 0
        default:
            break
        }
        let wantsHelp = arguments.contains("--help") || arguments.contains("-h")
        do throws(CommandError) {
            if let command = commands.first(where: { $0.name == name }) {
                if wantsHelp { context.output.result(command.help) } else { try command.run(arguments, in: context) }
            } else if let command = IntentCommand.all.first(where: { $0.name == name }) {
                if wantsHelp { context.output.result(command.help) } else { try command.run(arguments, in: context) }
            } else {
                throw .usage("Unknown command “\(name)”.", command: nil)
            }
            return 0
        } catch {
            context.output.note("tocsin: \(error.message)")
            return error.exitStatus
        }
    }
}
