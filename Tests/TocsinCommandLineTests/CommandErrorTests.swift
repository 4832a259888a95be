import Testing
@testable import TocsinCommandLine
import TocsinCore

/// How a failure becomes a message and an exit status.
@Suite struct CommandErrorTests {
    @Test func eachKindHasItsExitStatus() {
        #expect(CommandError.usage("x", command: nil).exitStatus == 2)
        #expect(CommandError.refused("x").exitStatus == 1)
        #expect(CommandError.unavailable("x").exitStatus == 3)
    }

    @Test func aUsageErrorPointsAtTheHelp() {
        #expect(CommandError.usage("Missing ID.", command: "show").message == "Missing ID.\nSee “tocsin show --help”.")
        #expect(CommandError.usage("Unknown command “x”.", command: nil).message == "Unknown command “x”.\nSee “tocsin --help”.")
        #expect(CommandError.refused("No alarm.").message == "No alarm.")
        #expect(CommandError.unavailable("No bus.").message == "No bus.")
    }

    /// The agent's refusals exit 1, an agent out of reach 3, and an answer that cannot be read 1.
    @Test func theClientLibrarysErrorsMapToTheirStatus() {
        #expect(CommandError(TocsinError(.notFound, "gone")).exitStatus == 1)
        #expect(CommandError(TocsinError(.invalidState, "ringing")).exitStatus == 1)
        #expect(CommandError(TocsinError.agentUnavailable("no agent")).exitStatus == 3)
        #expect(CommandError(TocsinError.protocolError("garbled")).exitStatus == 1)
        #expect(CommandError(TocsinError(.notFound, "gone")).message == "gone")
    }
}
