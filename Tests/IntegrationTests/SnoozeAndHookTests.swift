import Foundation
import HeadlessSession
import Testing

/// Snooze counts down again and rings again; hooks run with the alarm's details in their
/// environment.
@Suite(.serialized) struct SnoozeAndHookTests {
    @Test func snoozeRingsAgainAfterTheSnoozeDuration() throws {
        let fixture = try AgentSession("snooze")
        let hookLog = fixture.session.directory.appendingPathComponent("snooze-hook.txt")
        let id = try fixture.startTimer("1s", "--title", "Nap", "--snooze", "2s", "--button", "Again",
                                        "--on-snooze", "echo \"$TOCSIN_EVENT $TOCSIN_ID\" >> \(hookLog.path)")
        let firstAlert = try fixture.waitForNotification(titled: "Nap") { $0.urgency == 2 }
        #expect(firstAlert.buttonLabels == ["Stop", "Again"])

        let recording = try fixture.session.startRecording()
        let snoozed = Date()
        try fixture.session.clickAction(label: "Again", onNotification: firstAlert.id)
        let countdown = try fixture.waitForNotification(titled: "Nap") { $0.receivedAt > snoozed && $0.buttonLabels == ["Pause", "Cancel"] }
        #expect(countdown.remainingSeconds == 2)
        #expect(try fixture.alarm(id)?.string("state") == "countdown")
        #expect(fixture.eventually(timeout: 3) { (try? String(contentsOf: hookLog, encoding: .utf8)) == "snooze \(id)\n" })

        let secondAlert = try fixture.waitForNotification(titled: "Nap", timeout: .seconds(5)) { $0.receivedAt > snoozed && $0.urgency == 2 }
        let rangAgainAfter = secondAlert.receivedAt.timeIntervalSince(snoozed)
        #expect(rangAgainAfter > 1.8 && rangAgainAfter < 2.8, "rang again \(rangAgainAfter) s after the snooze")
        Thread.sleep(forTimeInterval: 1.2)
        let trace = recording.stop()
        #expect(trace.isSilent(from: snoozed.addingTimeInterval(0.4), to: secondAlert.receivedAt.addingTimeInterval(-0.1)), "sound during the snooze")
        #expect(trace.rms(from: secondAlert.receivedAt, to: secondAlert.receivedAt.addingTimeInterval(1.2)) > 0.005, "no sound on the second ring")
        #expect(try fixture.tocsin("stop", id).status == 0)
    }

    @Test func customButtonRunsItsHookWithTheAlarmsEnvironment() throws {
        let fixture = try AgentSession("button")
        let output = fixture.session.directory.appendingPathComponent("button-env.txt")
        // The title holds shell syntax: it must arrive as data, never run.
        let title = "Step 1; touch \(fixture.session.directory.path)/injected"
        let id = try fixture.startTimer("1s", "--title", title, "--button", "Next step",
                                        "--on-button", "env | grep ^TOCSIN_ | sort > \(output.path)")
        let alert = try fixture.waitForNotification(titled: title) { $0.urgency == 2 }
        #expect(alert.buttonLabels == ["Stop", "Next step"])
        try fixture.session.clickAction(label: "Next step", onNotification: alert.id)

        #expect(fixture.eventually(timeout: 5) { FileManager.default.fileExists(atPath: output.path) && ((try? String(contentsOf: output, encoding: .utf8)) ?? "").contains("TOCSIN_TITLE") })
        let environment = try String(contentsOf: output, encoding: .utf8)
        #expect(environment.contains("TOCSIN_EVENT=secondary\n"))
        #expect(environment.contains("TOCSIN_ID=\(id)\n"))
        #expect(environment.contains("TOCSIN_TITLE=\(title)\n"))
        #expect(!FileManager.default.fileExists(atPath: fixture.session.directory.appendingPathComponent("injected").path))
        // The custom button ends the timer.
        #expect(fixture.eventually(timeout: 2) { (try? fixture.alarms().isEmpty) == true })
    }

    @Test func stopAndFireHooksRun() throws {
        let fixture = try AgentSession("stophook")
        let log = fixture.session.directory.appendingPathComponent("events.txt")
        let id = try fixture.startTimer("1s", "--title", "Hooks",
                                        "--on-fire", "echo \"$TOCSIN_EVENT\" >> \(log.path)",
                                        "--on-stop", "echo \"$TOCSIN_EVENT\" >> \(log.path)")
        _ = try fixture.waitForNotification(titled: "Hooks") { $0.urgency == 2 }
        #expect(fixture.eventually(timeout: 3) { (try? String(contentsOf: log, encoding: .utf8)) == "fire\n" })
        #expect(try fixture.tocsin("stop", id).status == 0)
        #expect(fixture.eventually(timeout: 3) { (try? String(contentsOf: log, encoding: .utf8)) == "fire\nstop\n" })
        #expect(fixture.agentLog.contains("stop hook of “Hooks”"))
    }
}
