import Foundation
import HeadlessSession
import Testing

/// Fire times are absolute and saved, so a countdown survives the agent being killed.
@Suite(.serialized) struct RestartTests {
    @Test func timerSurvivesKillNineAndFiresOnTime() throws {
        let fixture = try AgentSession("restart")
        let id = try fixture.startTimer("6s", "--title", "Stew")
        let before = try #require(try fixture.alarm(id))
        let fireTime = try #require(before.number("fire-time"))

        Thread.sleep(forTimeInterval: 1)
        fixture.agent.kill(signal: SIGKILL)
        #expect(fixture.agent.waitForExit(timeout: .seconds(5)) != nil)
        #expect(try fixture.tocsin("list").status == 3, "tocsin should report the agent as unreachable")
        try fixture.restartAgent()

        let after = try #require(try fixture.alarm(id), "the timer was lost in the restart")
        #expect(after.string("state") == "countdown")
        #expect(after.number("fire-time") == fireTime)
        #expect(try fixture.alarms().count == 1)

        let alert = try fixture.waitForNotification(titled: "Stew", timeout: .seconds(8)) { $0.urgency == 2 }
        let lateness = alert.receivedAt.timeIntervalSince1970 - fireTime
        #expect(lateness > -0.01 && lateness < 0.3, "rang \(lateness) s from its due time after the restart")
        #expect(try fixture.tocsin("stop").status == 0)
    }

    @Test func ringingTimerRingsAgainAfterARestart() throws {
        let fixture = try AgentSession("restart-ringing")
        let id = try fixture.startTimer("1s", "--title", "Alarm")
        _ = try fixture.waitForNotification(titled: "Alarm") { $0.urgency == 2 }
        fixture.agent.kill(signal: SIGKILL)
        _ = fixture.agent.waitForExit(timeout: .seconds(5))
        let recording = try fixture.session.startRecording()
        let restarted = Date()
        try fixture.restartAgent()
        #expect(try fixture.alarm(id)?.string("state") == "alerting")
        #expect(fixture.eventually(timeout: 3) { recording.currentTrace().firstLoudWindow(after: restarted) != nil }, "no sound after the restart")
        _ = recording.stop()
        _ = try fixture.waitForNotification(titled: "Alarm") { $0.urgency == 2 && $0.receivedAt > restarted }
        #expect(try fixture.tocsin("stop", id).status == 0)
    }
}
