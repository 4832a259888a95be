import Foundation
import Testing
@testable import TocsinCommandLine
import TocsinCore

/// `tocsin pause|resume|cancel|stop|snooze [ID]`, with and without an id.
@Suite struct IntentCommandTests {
    func world(_ alarms: [Alarm]) -> TestWorld {
        let world = TestWorld()
        world.agent = FakeAgent(alarms: alarms)
        return world
    }

    /// What the agent was asked to do, as (intent, id prefix).
    func performed(_ world: TestWorld) -> [String] {
        (world.agent?.performed ?? []).map { "\($0.0.rawValue) \(AlarmText.shortID($0.1))" }
    }

    @Test func withAnIDItActsOnThatAlarmAndSaysNothing() throws {
        let world = world([try Sample.pasta(), try Sample.tea(), try Sample.bell()])
        for (command, prefix) in [("pause", "a1b2c"), ("resume", "a1b2f"), ("cancel", "a1b2c3d4"), ("stop", "be11"), ("snooze", "BE11")] {
            let run = world.run(command, prefix)
            #expect(run.status == 0, "\(command): \(run.stderr)")
            #expect(run.stdout == "" && run.stderr == "", "\(command)")
        }
        #expect(performed(world) == ["pause a1b2c3d4", "resume a1b2ffff", "cancel a1b2c3d4", "stop be110000", "countdown be110000"])
    }

    @Test func withoutAnIDPauseActsOnTheOneCountingDown() throws {
        let world = world([try Sample.wakeUp(), try Sample.pasta(), try Sample.tea()])
        let run = world.run("pause")
        #expect(run.status == 0)
        #expect(run.stderr == "Paused “Pasta” (a1b2c3d4).\n")
        #expect(performed(world) == ["pause a1b2c3d4"])
    }

    @Test func withoutAnIDResumeActsOnTheOnePaused() throws {
        let world = world([try Sample.pasta(), try Sample.tea()])
        #expect(world.run("resume").stderr == "Resumed “Tea” (a1b2ffff).\n")
        #expect(performed(world) == ["resume a1b2ffff"])
    }

    /// A waiting alarm is never the target: it is not on screen.
    @Test func withNothingToActOnItIsRefused() throws {
        let world = world([try Sample.wakeUp()])
        let run = world.run("pause")
        #expect(run.status == 1)
        #expect(run.stderr == "tocsin: Nothing is counting down, so there is nothing to pause; give an ID (see “tocsin list”).\n")
        #expect(world.run("cancel").stderr
            == "tocsin: Nothing is counting down, paused or ringing, so there is nothing to cancel; give an ID (see “tocsin list”).\n")
        #expect(performed(world).isEmpty)
    }

    @Test func severalCandidatesAreListedOldestFirstInsteadOfGuessed() throws {
        let rice = try Sample.timer(id: id("41ce"), title: "Rice", duration: 600, startedAt: at(-30))
        let world = world([rice, try Sample.pasta()])
        let run = world.run("pause")
        #expect(run.status == 2)
        #expect(run.stderr == """
            tocsin: 2 alarms could be paused; give one's ID (or a unique prefix of it):
              a1b2c3d4  “Pasta”, 2:00 left, rings 08:02
              41ce0000  “Rice”, 9:30 left, rings 08:09
            See “tocsin pause --help”.

            """)
        #expect(performed(world).isEmpty)
    }

    @Test func withoutAnIDStopAndSnoozeActOnEveryRingingAlarm() throws {
        let other = try Sample.timer(id: id("0dd0"), title: "Eggs", duration: 60, startedAt: at(-100))
        var ringing = other
        ringing.state = .alerting(since: at(-40))
        let world = world([try Sample.pasta(), try Sample.bell(), ringing])
        let run = world.run("stop")
        #expect(run.status == 0)
        #expect(run.stderr == "Stopped “Bell” (be110000).\nStopped “Eggs” (0dd00000).\n")
        #expect(performed(world) == ["stop be110000", "stop 0dd00000"])
        #expect(world.run("snooze").stderr == "Snoozed “Bell” (be110000).\nSnoozed “Eggs” (0dd00000).\n")
    }

    @Test func stopWithNothingRingingIsRefused() throws {
        let run = world([try Sample.pasta()]).run("stop")
        #expect(run.status == 1)
        #expect(run.stderr == "tocsin: Nothing is ringing.\n")
    }

    @Test func theAgentsRefusalExits1() throws {
        let world = world([try Sample.pasta()])
        world.agent?.refusal = TocsinError(.invalidState, "“Pasta” is counting down; only a paused timer resumes.")
        let run = world.run("resume", "a1b2")
        #expect(run.status == 1)
        #expect(run.stderr == "tocsin: “Pasta” is counting down; only a paused timer resumes.\n")
    }

    @Test func mistakesAreUsageErrors() throws {
        let world = world([try Sample.pasta()])
        #expect(world.run("pause", "a1b2", "extra").stderr == "tocsin: Unexpected argument “extra”.\nSee “tocsin pause --help”.\n")
        let unknown = world.run("stop", "--all")
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "tocsin: Unknown option “--all” for “tocsin stop”.\nSee “tocsin stop --help”.\n")
        #expect(unknown.connections == 0)
        #expect(performed(world).isEmpty)
    }
}
