import Foundation
import HeadlessSession
import Testing

/// What the agent offers a locked screen, read and pressed over the real session bus as Tocsin's
/// GNOME Shell extension does on GNOME's lock screen (io.github.tocsin.LockScreen1): the alarms
/// with their titles, times and buttons; Snooze and Stop pressed there into silence; the
/// `WakeDisplay` signal as a ring starts and every 10 s while it rings; titles kept private with
/// `tocsin config lock-screen-titles hide`, and the notifications' `x-gnome-privacy-scope` hint
/// that lets GNOME's own lock screen show them otherwise. The lockers themselves are driven in
/// the desktops' lock-screen tests.
@Suite(.serialized) struct LockScreenServiceTests {
    static let path = "/io/github/tocsin/LockScreen"
    static let interface = "io.github.tocsin.LockScreen1"

    /// The `Alarms` property, each entry's values by key (strings, numbers, buttons as
    /// [[key, label]]), as `busctl` reads it.
    static func alarms(_ fixture: AgentSession) throws -> [[String: Any]] {
        let read = try fixture.session.run(try HeadlessSession.executable("busctl"),
                                           ["--user", "--json=short", "get-property", "io.github.tocsin.Agent", path, interface, "Alarms"],
                                           timeout: .seconds(10))
        guard read.status == 0, let json = try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any],
              let entries = json["data"] as? [[String: Any]] else {
            Issue.record("busctl could not read Alarms: \(read)")
            return []
        }
        return entries.map { entry in entry.mapValues { ($0 as? [String: Any])?["data"] ?? $0 } }
    }

    /// `Press(id, button)`, as a lock screen's button sends it.
    static func press(_ fixture: AgentSession, _ id: String, _ button: String) throws -> CommandResult {
        try fixture.session.run(try HeadlessSession.executable("busctl"),
                                ["--user", "call", "io.github.tocsin.Agent", path, interface, "Press", "ss", id, button], timeout: .seconds(10))
    }

    @Test func aLockScreenReadsTheAlarmsAndItsSnoozeAndStopActIntoSilence() throws {
        let fixture = try AgentSession("lock-screen-service")
        let signals = try fixture.session.launch(try HeadlessSession.executable("dbus-monitor"),
                                                 ["--session", "type='signal',interface='\(Self.interface)'"])
        defer { signals.terminate() }
        let eggs = try fixture.startTimer("10m", "--title", "Eggs")
        let tea = try fixture.startTimer("3s", "--title", "Tea", "--snooze", "2s")
        var entries: [[String: Any]] = []
        #expect(try fixture.eventually(timeout: 5) {
            entries = try Self.alarms(fixture)
            return entries.compactMap { $0["title"] as? String } == ["Tea", "Eggs"]
        }, "the soonest end first: \(entries)")
        let counting = try #require(entries.first)
        #expect(counting["id"] as? String == tea && counting["state"] as? String == "counting")
        let endsAt = try #require((counting["ends-at"] as? NSNumber)?.doubleValue) / 1_000_000
        #expect(abs(endsAt - Date().addingTimeInterval(3).timeIntervalSince1970) < 2, "ends-at is when it ends, in microseconds: \(endsAt)")
        #expect((counting["buttons"] as? [[String]]) == [["pause", "Pause"], ["cancel", "Cancel"]])
        #expect((counting["time"] as? String).map { ["0:03", "0:02", "0:01"].contains($0) } == true, "\(counting)")

        let recording = try fixture.session.startRecording()
        _ = try fixture.waitForNotification(titled: "Tea") { $0.urgency == 2 }
        let rangAt = Date()
        #expect(try fixture.eventually(timeout: 5) {
            entries = try Self.alarms(fixture)
            return entries.first?["state"] as? String == "ringing"
        }, "\(entries)")
        #expect((entries.first?["buttons"] as? [[String]]) == [["stop", "Stop"], ["secondary", "Snooze"]])
        #expect((entries.first?["time"] as? String)?.wholeMatch(of: /\d{1,2}:\d{2}/) != nil, "the time of day it rang: \(entries)")
        // Woken as it starts, and again 10 s later while it still rings.
        #expect(fixture.eventually(timeout: 5) { Self.wakes(signals) >= 1 }, "no WakeDisplay: \(signals.standardOutput())")
        #expect(fixture.eventually(timeout: 15) { Self.wakes(signals) >= 2 }, "not woken again while ringing: \(signals.standardOutput())")
        #expect(Date().timeIntervalSince(rangAt) > 8, "the second wake came too soon")
        #expect(recording.currentTrace().firstLoudWindow(after: .distantPast) != nil, "the alarm was never heard")

        // Snooze on the lock screen: silent, counting down its 2 s, then ringing again.
        let snoozed = try Self.press(fixture, tea, "secondary")
        #expect(snoozed.status == 0, "\(snoozed)")
        #expect(try fixture.eventually(timeout: 5) { try fixture.alarm(tea)?.string("state") == "countdown" }, "Snooze did not snooze it")
        #expect(fixture.agentLog.contains("The lock screen's secondary"), "\(fixture.agentLog)")
        #expect(try fixture.eventually(timeout: 6) { try fixture.alarm(tea)?.string("state") == "alerting" }, "the snooze did not ring again")

        try fixture.expectStoppedIntoSilence(tea, recording: recording) {
            let stopped = try Self.press(fixture, tea, "stop")
            #expect(stopped.status == 0, "\(stopped)")
        }
        #expect(try fixture.eventually(timeout: 5) { try Self.alarms(fixture).compactMap { $0["title"] as? String } == ["Eggs"] })

        // Buttons it does not show, and alarms it does not show, are refused with the agent's errors.
        let noStop = try Self.press(fixture, eggs, "stop")
        #expect(noStop.status != 0 && noStop.stderr.contains("shows no “stop” button"), "\(noStop)")
        let unknown = try Self.press(fixture, UUID().uuidString.lowercased(), "stop")
        #expect(unknown.status != 0 && unknown.stderr.contains("shows no alarm"), "\(unknown)")
        let garbage = try Self.press(fixture, "not-an-id", "stop")
        #expect(garbage.status != 0 && garbage.stderr.contains("is not an alarm's id"), "\(garbage)")
        #expect(try fixture.alarm(eggs)?.string("state") == "countdown", "nothing happened to Eggs")
    }

    @Test func hiddenTitlesShowAsAlarmOrTimerAndTheNotificationsLoseGnomesPrivacyHint() throws {
        let fixture = try AgentSession("lock-screen-privacy")
        let shown = try fixture.startTimer("10m", "--title", "Flight to Oslo")
        let visible = try fixture.waitForNotification(titled: "Flight to Oslo")
        #expect(visible.hints["x-gnome-privacy-scope"] == "system", "GNOME may show the title on its lock screen: \(visible)")
        #expect(try fixture.eventually(timeout: 5) { try Self.alarms(fixture).first?["title"] as? String == "Flight to Oslo" })

        let hide = try fixture.tocsin("config", "lock-screen-titles", "hide")
        #expect(hide.status == 0 && hide.stdout == "lock-screen-titles hide\n", "\(hide)")
        #expect(try fixture.eventually(timeout: 5) { try Self.alarms(fixture).first?["title"] as? String == "Timer" }, "the agent did not follow the setting")
        #expect(fixture.eventually(timeout: 5) {
            fixture.notifications(titled: "Flight to Oslo").last.map { $0.hints["x-gnome-privacy-scope"] == nil } == true
        }, "shown again without the hint: \(fixture.notifications(titled: "Flight to Oslo").last?.description ?? "")")
        #expect(try Self.alarms(fixture).first?["id"] as? String == shown)
        #expect(fixture.agentLog.contains("A locked screen shows “Alarm” or “Timer” instead of alarms' titles."), "\(fixture.agentLog)")

        // A file the agent cannot read keeps titles private, and says so.
        let file = fixture.session.directory.appendingPathComponent("config/tocsin/lock-screen.json")
        _ = try fixture.tocsin("config", "lock-screen-titles", "show")
        #expect(try fixture.eventually(timeout: 5) { try Self.alarms(fixture).first?["title"] as? String == "Flight to Oslo" })
        try Data("{\"lock-screen-titles\": ".utf8).write(to: file)
        #expect(try fixture.eventually(timeout: 5) { try Self.alarms(fixture).first?["title"] as? String == "Timer" }, "an unreadable file showed titles")
        #expect(fixture.agentLog.contains("a locked screen shows “Alarm” instead of alarms' titles"), "\(fixture.agentLog)")
    }

    /// How many `WakeDisplay` signals dbus-monitor printed.
    static func wakes(_ monitor: SessionProcess) -> Int {
        monitor.standardOutput().components(separatedBy: "member=WakeDisplay").count - 1
    }
}
