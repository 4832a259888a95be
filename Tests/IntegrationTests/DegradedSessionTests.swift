import Foundation
import HeadlessSession
import Testing

/// What goes wrong around the agent — no sound server, a hook that never ends — is logged
/// clearly and the agent keeps working.
@Suite(.serialized) struct DegradedSessionTests {
    @Test func missingSoundServerIsLoggedAndTimersStillFire() throws {
        let fixture = try AgentSession("nosound", agentEnvironment: ["PULSE_SERVER": "unix:/nonexistent/pulse.sock"])
        // The sound server is opened off the main loop, so the report may follow "Ready".
        #expect(fixture.eventually(timeout: 5) { fixture.agentLog.contains("Cannot reach a sound server") }, "\(fixture.agentLog)")
        let id = try fixture.startTimer("1s", "--title", "Silent")
        let alert = try fixture.waitForNotification(titled: "Silent") { $0.urgency == 2 }
        #expect(alert.buttonLabels == ["Stop"])
        #expect(try fixture.alarm(id)?.string("state") == "alerting")
        #expect(try fixture.tocsin("stop", id).status == 0)
        #expect(fixture.agent.isRunning)
    }

    @Test func unknownThemeSoundIsRefusedAndAFileSoundRings() throws {
        let fixture = try AgentSession("sounds")
        let refused = try fixture.tocsin("timer", "1s", "--sound", "no-such-sound-event")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("No installed sound theme has the sound “no-such-sound-event”"), "\(refused.stderr)")

        let recording = try fixture.session.startRecording()
        let id = try fixture.startTimer("1s", "--title", "Bell", "--sound", "/usr/share/sounds/freedesktop/stereo/bell.oga")
        let alert = try fixture.waitForNotification(titled: "Bell") { $0.urgency == 2 }
        #expect(fixture.eventually(timeout: 2) { recording.currentTrace().firstLoudWindow(after: alert.receivedAt.addingTimeInterval(-0.1)) != nil })
        _ = recording.stop()
        #expect(try fixture.alarm(id)?.string("sound") == "/usr/share/sounds/freedesktop/stereo/bell.oga")
        #expect(try fixture.tocsin("stop", id).status == 0)
    }

    @Test func hookThatNeverEndsIsKilledAfterItsTimeLimit() throws {
        let fixture = try AgentSession("slowhook", agentArguments: ["--hook-time-limit", "1"])
        let marker = fixture.session.directory.appendingPathComponent("hook-pid")
        let id = try fixture.startTimer("1s", "--title", "Stuck", "--on-fire", "echo $$ > \(marker.path); exec sleep 600")
        _ = try fixture.waitForNotification(titled: "Stuck") { $0.urgency == 2 }
        #expect(fixture.eventually(timeout: 5) { fixture.agentLog.contains("fire hook of “Stuck” ran longer than 1 s and was killed") }, "\(fixture.agentLog)")
        let pid = try #require(Int32(String(contentsOf: marker, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(fixture.eventually(timeout: 2) { kill(pid, 0) != 0 }, "the hook's process \(pid) is still alive")
        // The agent went on working while the hook hung.
        #expect(try fixture.tocsin("stop", id).status == 0)
    }

    @Test func alertingTransitionHappensOnTime() throws {
        let fixture = try AgentSession("precision")
        let watch = try fixture.startWatching("watch", "--json")
        var ids: [String] = []
        for index in 0..<5 {
            ids.append(try fixture.startTimer("\(1 + Double(index) * 0.37)s", "--title", "T\(index)"))
        }
        #expect(fixture.eventually(timeout: 6) { watch.standardOutput().components(separatedBy: "\"event\":\"fired\"").count - 1 == ids.count })
        var lateness: [Double] = []
        for line in watch.standardOutput().split(separator: "\n") {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["event"] as? String == "fired",
                  let received = (object["time"] as? NSNumber)?.doubleValue,
                  let alarm = object["alarm"] as? [String: Any],
                  let due = (alarm["alerting-since"] as? NSNumber)?.doubleValue else { continue }
            lateness.append(received - due)
        }
        watch.terminate()
        try #require(lateness.count == ids.count, "not every timer fired: \(lateness)")
        // Measured from the moment a client *received* the signal, so this includes the bus hop.
        // The precision figure is the bench's (p99 over 400 timers, target 10 ms); here, on a
        // machine busy with the rest of the suite, the typical one must be within it and none
        // a noticeable moment late (seen: 10.2 ms twice in one run of 5, once all else had passed).
        let shown = lateness.map { String(format: "%.1f ms", $0 * 1000) }
        #expect(lateness.allSatisfy { $0 >= 0 && $0 < 0.050 }, "fired signals arrived \(shown) after the due times")
        #expect(lateness.sorted()[lateness.count / 2] < 0.010, "the median fired signal arrived more than 10 ms late: \(shown)")
        for id in ids { _ = try fixture.tocsin("stop", id) }
    }
}

/// Without a notification server the agent says so once, and timers still ring.
@Suite(.serialized) struct MissingNotificationServerTests {
    @Test func missingNotificationServerIsLoggedAndTheTimerStillRings() throws {
        let fixture = try AgentSession("nonotify")
        let dunst = try #require(fixture.session.childProcesses.first { $0.name == "dunst" && $0.isRunning })
        dunst.terminate()
        #expect(dunst.waitForExit(timeout: .seconds(5)) != nil)

        let recording = try fixture.session.startRecording()
        let id = try fixture.startTimer("1s", "--title", "Unseen")
        #expect(fixture.eventually(timeout: 3) { fixture.agentLog.contains("Could not show") }, "\(fixture.agentLog)")
        #expect(fixture.eventually(timeout: 3) { recording.currentTrace().peakRMS > 0.01 }, "no sound without a notification server")
        _ = recording.stop()
        #expect(try fixture.alarm(id)?.string("state") == "alerting")
        #expect(try fixture.tocsin("stop").status == 0)
        // Logged once, not once per second of the countdown.
        #expect(fixture.agentLog.components(separatedBy: "Could not show").count - 1 == 1, "\(fixture.agentLog)")
        #expect(fixture.agent.isRunning)
    }
}
