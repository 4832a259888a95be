import BusTestSupport
import Foundation
import HeadlessSession
import Testing

/// A media player on the user's bus whose `Properties.Get` answers with no value at all — well
/// formed D-Bus, as a buggy player can send — used to make the agent trap the moment a timer
/// rang (issue #45): the alarm was never heard and `tocsin status` failed. Now the player's
/// answer is one named failure of that player, said once, and the alarm rings.
@Suite(.serialized) struct WrongPlayerAnswerTests {
    @Test func aPlayerAnsweringGetWithNothingSilencesNoAlarm() throws {
        let fixture = try AgentSession("wrong-player")
        let player = try StandInPeer(on: fixture.session.busAddress, name: "org.mpris.MediaPlayer2.buggy") { call in
            // Whatever it is asked (Get, and Pause if the agent took it for playing): nothing.
            _ = call
            return .reply("()")
        }
        defer { player.stop() }
        let recording = try fixture.session.startRecording()
        let agentPID = fixture.agent.pid

        let id = try fixture.startTimer("2s", "--title", "Tea")
        let fireTime = Date(timeIntervalSince1970: try #require(try fixture.alarm(id)?.number("fire-time")))
        var firstSound: Date?
        _ = fixture.eventually(timeout: 4) {
            firstSound = recording.currentTrace().firstLoudWindow(after: fireTime.addingTimeInterval(-0.05))
            return firstSound != nil
        }
        guard let firstSound else {
            Issue.record("no sound after the due time; the agent said: \(fixture.agentLog.suffix(2000))")
            return
        }
        #expect(firstSound.timeIntervalSince(fireTime) < 0.5, "first sound \(firstSound.timeIntervalSince(fireTime)) s after the due time")
        // The agent asked the player, and got its empty answer.
        #expect(fixture.eventually(timeout: 3) { player.calls.contains { $0.member == "Get" } }, "the player was never asked: \(player.calls)")

        let status = try fixture.tocsin("status")
        #expect(status.status == 0, "tocsin status failed: \(status)")
        #expect(fixture.agent.isRunning && fixture.agent.pid == agentPID, "the agent is gone: \(fixture.agentLog.suffix(2000))")
        let said = fixture.agentLog.split(separator: "\n").filter { $0.contains("org.mpris.MediaPlayer2.buggy") }
        #expect(said.count == 1, "the player's wrong answer was not said exactly once: \(said)")
        #expect(said.first?.contains("a reply of another type than (v)") == true, "\(said)")

        let stop = try fixture.tocsin("stop", id)
        #expect(stop.status == 0, "\(stop)")
        Thread.sleep(forTimeInterval: 1.5)
        let stopped = Date()
        Thread.sleep(forTimeInterval: 1.0)
        let trace = recording.stop()
        #expect(trace.isSilent(from: stopped, to: stopped.addingTimeInterval(0.9)), "still sound after Stop")
    }
}
