import Foundation
@testable import TocsinCommandLine
import TocsinCore

// Runs `tocsin` in a world the test gives it: a fixed clock, zone and locale, a settings
// directory of its own, and an agent in memory (or none).

/// What one run of `tocsin` did.
struct CommandRun {
    let status: Int32
    let stdout: String
    let stderr: String
    /// How many times the command connected to the agent.
    let connections: Int
}

/// A world for `tocsin` to run in.
final class TestWorld {
    /// The time the commands read.
    var now = t0
    /// The terminal's zone and locale ("C": a 24-hour clock).
    var timeZone = TimeZoneRules.utc
    var localeIdentifier = "C"
    /// The agent, or `nil` for none on the bus.
    var agent: FakeAgent? = FakeAgent()
    /// `XDG_CONFIG_HOME`: a directory of this world's own, made when something is written.
    let configHome = FileManager.default.temporaryDirectory.appendingPathComponent("tocsin-cli-tests-\(UUID().uuidString)")

    init() {}

    deinit { try? FileManager.default.removeItem(at: configHome) }

    /// Runs `tocsin arguments…`.
    func run(_ arguments: String...) -> CommandRun {
        run(arguments)
    }

    /// Runs `tocsin` with `arguments`.
    func run(_ arguments: [String]) -> CommandRun {
        let output = RecordedOutput()
        var connections = 0
        let agent = agent
        let context = CommandContext(
            now: { [now] in now },
            timeZone: timeZone,
            localeIdentifier: localeIdentifier,
            environment: ["XDG_CONFIG_HOME": configHome.path, "HOME": "/nonexistent"],
            connect: { () throws(TocsinError) -> any AgentClient in
                connections += 1
                guard let agent else { throw .agentUnavailable("There is no agent in this test.") }
                return agent
            },
            output: output)
        let status = CommandLineTool.run(arguments, in: context)
        return CommandRun(status: status, stdout: output.stdout, stderr: output.stderr, connections: connections)
    }
}
