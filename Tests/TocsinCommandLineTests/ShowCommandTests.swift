import Foundation
import Testing
@testable import TocsinCommandLine
import TocsinCore

/// `tocsin show ID [--json]`, and how an id or a prefix of one finds its alarm.
@Suite struct ShowCommandTests {
    func world() throws -> TestWorld {
        let world = TestWorld()
        world.agent = FakeAgent(alarms: [try Sample.pasta(), try Sample.tea(), try Sample.wakeUp()])
        return world
    }

    @Test func showsEveryDetailOfATimer() throws {
        let run = try world().run("show", "a1b2c")
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(run.stdout == """
            id:         a1b2c3d4-0000-0000-0000-000000000000
            title:      Pasta
            kind:       timer
            state:      countdown (2:00 left, rings 08:02)
            duration:   3:00
            next ring:  Fri 15 Jan 2027 08:02 UTC
            sound:      default
            ring limit: 10 min
            late limit: 10 min
            created:    07:59

            """)
    }

    @Test func showsAnAlarmsScheduleSnoozeAndHooks() throws {
        let run = try world().run("show", "7e57")
        #expect(run.status == 0)
        #expect(run.stdout == """
            id:         7e570000-0000-0000-0000-000000000000
            title:      Wake up
            kind:       alarm
            state:      scheduled (rings Mon 18 Jan 2027 07:00 UTC, on weekdays)
            schedule:   07:00 on weekdays
            next ring:  Mon 18 Jan 2027 07:00 UTC
            snooze:     9 min
            button:     “Snooze” (snoozes)
            sound:      default
            ring limit: 10 min
            late limit: 10 min
            on fire:    echo hi
            created:    08:00

            """)
    }

    @Test func saysWhetherItRaisesTheOutput() throws {
        for (choice, line) in [
            (OutputRaiseChoice.never, "output:     never unmuted or raised"),
            (.raise(toPercent: 40), "output:     unmuted and raised to at least 40 % while it rings"),
            (.raise(toPercent: nil), "output:     unmuted and raised to the level tocsin config ring-level sets while it rings"),
        ] {
            var pasta = try Sample.pasta()
            pasta.outputRaise = choice
            let world = TestWorld()
            world.agent = FakeAgent(alarms: [pasta])
            let run = world.run("show", "a1b2c")
            #expect(run.status == 0)
            #expect(run.stdout.contains("\nlate limit: 10 min\n\(line)\ncreated:"), "\(run.stdout)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(world.run("show", "a1b2c", "--json").stdout.utf8)) as? [String: Any])
            switch choice {
            case .never: #expect(json["raise-output"] as? Bool == false && json["ring-level"] == nil)
            case .raise(let percent): #expect(json["raise-output"] as? Bool == true && json["ring-level"] as? Int == percent)
            }
        }
        #expect(try world().run("show", "a1b2c").stdout.contains("output:") == false, "none: as the settings say, so nothing to say")
    }

    @Test func jsonIsOneObject() throws {
        let run = try world().run("show", "a1b2ff", "--json")
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(object["title"] as? String == "Tea")
        #expect(object["state"] as? String == "paused")
    }

    @Test func anIDIsReadWhateverItsCase() throws {
        #expect(try world().run("show", "A1B2C3D4-0000-0000-0000-000000000000").stdout.hasPrefix("id:         a1b2c3d4-"))
        #expect(try world().run("show", "A1B2C").stdout.hasPrefix("id:         a1b2c3d4-"))
    }

    @Test func aPrefixOfSeveralIDsIsAUsageErrorNamingThem() throws {
        let run = try world().run("show", "a1b2")
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == "tocsin: “a1b2” matches 2 alarms (a1b2c3d4 “Pasta”, a1b2ffff “Tea”); give more of the id.\nSee “tocsin --help”.\n")
    }

    @Test func aPrefixOfNoIDIsRefused() throws {
        let run = try world().run("show", "0000")
        #expect(run.status == 1)
        #expect(run.stderr == "tocsin: No alarm or timer has an id starting with “0000”; see “tocsin list”.\n")
    }

    @Test func somethingThatIsNoIDIsAUsageError() throws {
        let run = try world().run("show", "pasta")
        #expect(run.status == 2)
        #expect(run.stderr == "tocsin: “pasta” is not an alarm id; ids are shown by “tocsin list”.\nSee “tocsin --help”.\n")
    }

    /// A whole id is asked of the agent, which says it has none.
    @Test func aWholeUnknownIDIsTheAgentsRefusal() throws {
        let run = try world().run("show", "0b0b0000-0000-0000-0000-000000000000")
        #expect(run.status == 1)
        #expect(run.stderr == "tocsin: No alarm has the id 0b0b0000-0000-0000-0000-000000000000.\n")
    }

    @Test(arguments: [
        ([String](), "Missing ID."),
        (["a1b2", "extra"], "Unexpected argument “extra”."),
        (["a1b2", "--all"], "Unknown option “--all” for “tocsin show”."),
    ])
    func eachMistakeIsAUsageError(_ arguments: [String], _ message: String) throws {
        let run = try world().run(["show"] + arguments)
        #expect(run.status == 2)
        #expect(run.stderr == "tocsin: \(message)\nSee “tocsin show --help”.\n")
        #expect(run.connections == 0)
    }
}
