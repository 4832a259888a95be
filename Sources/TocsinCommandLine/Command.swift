/// A `tocsin` subcommand.
protocol Command {
    /// The word after `tocsin` ("timer", "list"…).
    static var name: String { get }
    /// One line for `tocsin --help`.
    static var summary: String { get }
    /// The full help, shown by `tocsin NAME --help`.
    static var help: String { get }
    /// Runs the command with the arguments after its name, in `context` (the clock, the agent,
    /// where it writes…).
    static func run(_ arguments: [String], in context: CommandContext) throws(CommandError)
}
