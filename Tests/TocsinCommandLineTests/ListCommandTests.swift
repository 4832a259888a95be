import Foundation
import Testing
@testable import TocsinCommandLine
import TocsinCore

/// `tocsin list [--json]`: what it prints for the alarms the agent holds, at `t0` (08:00 UTC).
@Suite struct ListCommandTests {
    func world(_ alarms: [Alarm]) -> TestWorld {
        let world = TestWorld()
        world.agent = FakeAgent(alarms: alarms)
        return world
    }

    @Test func printsATableOfEveryAlarmInTheAgentsOrder() throws {
        let run = world([try Sample.pasta(), try Sample.tea(), try Sample.wakeUp(), try Sample.bell()]).run("list")
        #expect(run.status == 0)
        #expect(run.stderr == "")
        #expect(run.stdout == """
            ID        STATE      STATUS                                        TITLE
            a1b2c3d4  countdown  2:00 left, rings 08:02                        Pasta
            a1b2ffff  paused     1:05 left, paused                             Tea
            7e570000  scheduled  rings Mon 18 Jan 2027 07:00 UTC, on weekdays  Wake up
            be110000  alerting   ringing since 07:59                           Bell

            """)
    }

    /// The time left is the clock's at the time passed in, not at the time the test runs.
    @Test func theTimeLeftIsAtTheTimeGiven() throws {
        let world = world([try Sample.pasta()])
        world.now = at(61)
        #expect(world.run("list").stdout.contains("a1b2c3d4  countdown  0:59 left, rings 08:02  Pasta"))
    }

    @Test func timesFollowTheZoneAndTheLocale() throws {
        let world = world([try Sample.pasta(), try Sample.wakeUp()])
        world.timeZone = TimeZoneRules(secondsEast: -5 * 3600)
        world.localeIdentifier = "en_US.UTF-8"
        let lines = world.run("list").stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1].hasPrefix("a1b2c3d4  countdown  2:00 left, rings 3:02 AM"))
        #expect(lines[2].hasPrefix("7e570000  scheduled  rings Mon 18 Jan 2027 02:00 UTC-5, on weekdays"))
    }

    @Test func withNoAlarmsItSaysSoOnStandardError() {
        let run = world([]).run("list")
        #expect(run.status == 0)
        #expect(run.stdout == "")
        #expect(run.stderr == "No alarms or timers.\n")
    }

    @Test func jsonIsOneArrayOfTheAgentsKeysPlusRemaining() throws {
        let run = world([try Sample.pasta(), try Sample.tea()]).run("list", "--json")
        #expect(run.status == 0)
        #expect(run.stdout.hasSuffix("]\n") && run.stdout.filter { $0 == "\n" }.count == 1, "one line")
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        #expect(objects.count == 2)
        #expect(objects[0]["id"] as? String == "a1b2c3d4-0000-0000-0000-000000000000")
        #expect(objects[0]["title"] as? String == "Pasta")
        #expect(objects[0]["state"] as? String == "countdown")
        #expect(objects[0]["remaining"] as? Double == 120)
        #expect(objects[1]["state"] as? String == "paused")
        #expect(objects[1]["remaining"] as? Double == 65, "a paused timer's, as the agent sends it")
    }

    /// A running countdown's time remaining is worked out at the time given, to the millisecond.
    @Test func jsonRemainingIsAtTheTimeGiven() throws {
        let world = world([try Sample.pasta()])
        world.now = at(30.25)
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(world.run("list", "--json").stdout.utf8)) as? [[String: Any]])
        #expect(objects.first?["remaining"] as? Double == 89.75)
    }

    @Test func withNoAlarmsJSONIsAnEmptyArray() {
        let run = world([]).run("list", "--json")
        #expect(run.stdout == "[]\n")
        #expect(run.stderr == "")
    }

    /// When do-not-disturb hides even alarm alerts, the list says what rings unseen.
    @Test func saysWhatRingsWithItsAlertHidden() throws {
        let world = world([try Sample.pasta(), try Sample.bell()])
        world.agent?.reportedStatus = [AlarmWireFormat.StatusKey.doNotDisturbHidesAlerts.rawValue: .bool(true),
                                       AlarmWireFormat.StatusKey.doNotDisturbMechanism.rawValue: .string("GNOME do-not-disturb")]
        let run = world.run("list")
        #expect(run.status == 0)
        #expect(run.stderr == "Ringing with its alert hidden (GNOME do-not-disturb): “Bell” (be110000). Stop with “tocsin stop”.\n")
        #expect(run.stdout.contains("be110000  alerting"))
    }

    @Test func saysNothingOfHiddenAlertsWhenTheyShow() throws {
        let world = world([try Sample.bell()])
        world.agent?.reportedStatus = [AlarmWireFormat.StatusKey.doNotDisturbHidesAlerts.rawValue: .bool(false),
                                       AlarmWireFormat.StatusKey.doNotDisturbMechanism.rawValue: .string("GNOME do-not-disturb")]
        #expect(world.run("list").stderr == "")
    }

    @Test(arguments: [
        (["extra"], "Unexpected argument “extra”."),
        (["--json=yes"], "--json takes no value."),
        (["--frob"], "Unknown option “--frob” for “tocsin list”."),
    ])
    func eachMistakeIsAUsageError(_ arguments: [String], _ message: String) {
        let world = TestWorld()
        let run = world.run(["list"] + arguments)
        #expect(run.status == 2)
        #expect(run.stderr == "tocsin: \(message)\nSee “tocsin list --help”.\n")
        #expect(run.connections == 0)
    }

    @Test func withoutAnAgentItExits3() {
        let world = TestWorld()
        world.agent = nil
        let run = world.run("list")
        #expect(run.status == 3)
        #expect(run.stderr == "tocsin: There is no agent in this test.\n")
    }
}
