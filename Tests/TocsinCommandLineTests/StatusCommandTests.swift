import Foundation
import Testing
@testable import TocsinCommandLine
import TocsinCore

/// `tocsin status [--json]`: the agent's status dictionary, for people or as JSON.
@Suite struct StatusCommandTests {
    typealias Key = AlarmWireFormat.StatusKey

    func world(_ status: [Key: WireValue]) -> TestWorld {
        let world = TestWorld()
        world.agent = FakeAgent(status: Dictionary(uniqueKeysWithValues: status.map { ($0.key.rawValue, $0.value) }))
        return world
    }

    @Test func printsOneLinePerThingTheAgentSays() {
        let run = world([
            .version: .string("0.1.0"), .timeZone: .string("Europe/Paris"), .canWakeSystem: .bool(true),
            .stateFile: .string("/home/ada/.local/state/tocsin/alarms.json"), .stateWritable: .bool(true),
            .alarmCount: .integer(3), .ringing: .string("a1b2c3d4-0000-0000-0000-000000000000,be110000-0000-0000-0000-000000000000"),
            .watchers: .integer(2),
        ]).run("status")
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(run.stdout == """
            agent:             running, version 0.1.0
            time zone:         Europe/Paris
            wakes the machine: yes: a suspended machine wakes up for the next alarm
            state file:        /home/ada/.local/state/tocsin/alarms.json
            alarms:            3 (2 ringing)
            watching:          2 program(s) follow the changes (tocsin watch, panels)

            """)
    }

    @Test func saysWhyTheMachineWillNotWakeAndAStateFileThatCannotBeWritten() {
        let run = world([
            .version: .string("0.1.0"), .timeZone: .string("UTC"), .canWakeSystem: .bool(false),
            .wakeProblem: .string("tocsind lacks CAP_WAKE_ALARM"), .stateFile: .string("/s/alarms.json"), .stateWritable: .bool(false),
            .alarmCount: .integer(0), .ringing: .string(""), .watchers: .integer(0),
        ]).run("status")
        #expect(run.stdout == """
            agent:             running, version 0.1.0
            time zone:         UTC
            wakes the machine: no: tocsind lacks CAP_WAKE_ALARM. Alarms due during suspend ring on resume, or are reported missed beyond their late limit.
            state file:        /s/alarms.json (NOT writable: see the agent's log)
            alarms:            0
            watching:          0 program(s) follow the changes (tocsin watch, panels)

            """)
    }

    /// Keys an older agent does not send show as "?".
    @Test func whatTheAgentDoesNotSayIsAQuestionMark() {
        let lines = world([:]).run("status").stdout.split(separator: "\n")
        #expect(lines.first == "agent:             running, version ?")
        #expect(lines.dropFirst().first == "time zone:         ?")
    }

    @Test func jsonIsTheDictionaryWithSortedKeys() {
        let run = world([.version: .string("0.1.0"), .canWakeSystem: .bool(false), .alarmCount: .integer(3)]).run("status", "--json")
        #expect(run.status == 0)
        #expect(run.stdout == "{\"alarm-count\":3,\"can-wake-system\":false,\"version\":\"0.1.0\"}\n")
    }

    @Test func mistakesAreUsageErrors() {
        let world = TestWorld()
        let run = world.run("status", "x")
        #expect(run.status == 2)
        #expect(run.stderr == "tocsin: Unexpected argument “x”.\nSee “tocsin status --help”.\n")
        #expect(world.run("status", "--json=no").stderr == "tocsin: --json takes no value.\nSee “tocsin status --help”.\n")
        #expect(run.connections == 0)
    }

    @Test func withoutAnAgentItExits3() {
        let world = TestWorld()
        world.agent = nil
        #expect(world.run("status").status == 3)
    }
}
