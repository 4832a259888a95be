import Foundation
import HeadlessSession
import Testing

/// Every bad input gets one clear sentence and a distinct exit status, and the agent stays healthy.
@Suite(.serialized) struct BadInputTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let status: Int32
        let message: String
        var testDescription: String { "tocsin " + arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(arguments: ["timer", "-5s"], status: 2, message: "“-5s” is negative"),
        Case(arguments: ["timer", "abc"], status: 2, message: "“abc” is not a duration"),
        Case(arguments: ["timer", "0"], status: 2, message: "must be longer than zero"),
        Case(arguments: ["timer"], status: 2, message: "Missing DURATION"),
        Case(arguments: ["timer", "5s", "--colour", "red"], status: 2, message: "Unknown option “--colour”"),
        Case(arguments: ["timer", "5s", "--button", "Go"], status: 2, message: "A button label needs"),
        Case(arguments: ["timer", "5s", "--sound", "/no/such/file.wav"], status: 1, message: "“/no/such/file.wav” does not exist"),
        Case(arguments: ["timer", "5s", "--sound", "no-such-event"], status: 1, message: "“no-such-event”"),
        Case(arguments: ["pause", "0123abcd"], status: 1, message: "No alarm or timer has an id starting with “0123abcd”"),
        Case(arguments: ["pause", "not-an-id!"], status: 2, message: "is not an alarm id"),
        Case(arguments: ["resume", "12345678-1234-1234-1234-123456789abc"], status: 1, message: "No alarm or timer has the id"),
        Case(arguments: ["stop"], status: 1, message: "Nothing is ringing."),
        Case(arguments: ["frobnicate"], status: 2, message: "Unknown command “frobnicate”"),
    ]

    @Test func eachBadInputGetsAClearError() throws {
        let fixture = try AgentSession("badinput")
        for badInput in Self.cases {
            let result = try fixture.session.run(try AgentSession.binary("tocsin"), badInput.arguments)
            #expect(result.status == badInput.status, "\(badInput.testDescription): \(result)")
            #expect(result.stderr.contains(badInput.message), "\(badInput.testDescription): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(badInput.testDescription) printed on stdout: \(result.stdout)")
        }
        #expect(try fixture.alarms().isEmpty, "a refused request left an alarm behind")
        #expect(fixture.agent.isRunning)
    }

    @Test func pausingARingingTimerNamesItsState() throws {
        let fixture = try AgentSession("wrongstate")
        let id = try fixture.startTimer("1s", "--title", "Soup")
        _ = try fixture.waitForNotification(titled: "Soup") { $0.urgency == 2 }
        let pause = try fixture.tocsin("pause", id)
        #expect(pause.status == 1)
        #expect(pause.stderr.contains("Cannot pause “Soup”: it is ringing (alerting)"), "\(pause.stderr)")
        let resume = try fixture.tocsin("resume", id)
        #expect(resume.stderr.contains("it is ringing"), "\(resume.stderr)")
        #expect(try fixture.tocsin("stop", id).status == 0)
        let stopAgain = try fixture.tocsin("stop", id)
        #expect(stopAgain.status == 1)
        #expect(fixture.agent.isRunning)
    }

    @Test func agentNotRunningSaysHowToStartIt() throws {
        let fixture = try AgentSession("noagent")
        fixture.agent.terminate()
        let result = try fixture.tocsin("list")
        #expect(result.status == 3)
        #expect(result.stderr.contains("The Tocsin agent is not running. Start it with “tocsind &”"), "\(result.stderr)")
    }

    @Test func corruptStateFileIsKeptAsideAndReported() throws {
        let fixture = try AgentSession("corrupt")
        fixture.agent.terminate()
        let stateFile = fixture.stateDirectory.appendingPathComponent("alarms.json")
        let garbage = Data("{\"format\":1,\"alarms\":[{\"id\":".utf8)
        try FileManager.default.createDirectory(at: fixture.stateDirectory, withIntermediateDirectories: true)
        try garbage.write(to: stateFile)
        try fixture.restartAgent()
        #expect(try fixture.alarms().isEmpty)
        let kept = try FileManager.default.contentsOfDirectory(atPath: fixture.stateDirectory.path).filter { $0.hasPrefix("alarms.json.unreadable-") }
        #expect(kept.count == 1)
        if let name = kept.first {
            #expect(try Data(contentsOf: fixture.stateDirectory.appendingPathComponent(name)) == garbage)
        }
        #expect(fixture.agentLog.contains("could not be used"), "\(fixture.agentLog)")
        // The agent works on: a new timer is saved to a fresh file.
        _ = try fixture.startTimer("1m")
        #expect(try fixture.alarms().count == 1)
    }
}

/// A state file from a newer Tocsin is never touched, and the agent says why it cannot save.
@Suite(.serialized) struct StateFormatTests {
    @Test func newerStateFileIsLeftUntouchedAndChangesAreRefused() throws {
        let fixture = try AgentSession("newer-format")
        fixture.agent.terminate()
        let stateFile = fixture.stateDirectory.appendingPathComponent("alarms.json")
        try FileManager.default.createDirectory(at: fixture.stateDirectory, withIntermediateDirectories: true)
        let newer = Data(#"{"format":99,"alarms":[{"something":"from the future"}]}"#.utf8)
        try newer.write(to: stateFile)
        try fixture.restartAgent()
        #expect(fixture.agentLog.contains("written by a newer Tocsin"), "\(fixture.agentLog)")
        let refused = try fixture.tocsin("timer", "5m")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("Not saving to \(stateFile.path): it was written by a newer Tocsin"), "\(refused.stderr)")
        #expect(refused.stderr.contains("Nothing was changed."))
        #expect(try fixture.alarms().isEmpty)
        #expect(try Data(contentsOf: stateFile) == newer)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.stateDirectory.path) == ["alarms.json"])
        let status = try fixture.tocsin("status")
        #expect(status.stdout.contains("NOT writable"), "\(status.stdout)")
    }
}
