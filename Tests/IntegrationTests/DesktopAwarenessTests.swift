import Foundation
import HeadlessSession
import Testing

/// The agent knows its notification server and do-not-disturb state, `tocsin doctor` reports
/// them, a notification server that comes after the agent gets its own presentation, and a
/// sound server that appears late still gets the ring.
@Suite(.serialized) struct DesktopAwarenessTests {
    @Test func doctorReportsAHealthySession() throws {
        let fixture = try AgentSession("doctor")
        let doctor = try fixture.tocsin("doctor", "--json")
        #expect(doctor.status == 0, "\(doctor)")
        let findings = try #require(try JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8)) as? [[String: Any]])
        let byCheck = Dictionary(uniqueKeysWithValues: findings.compactMap { finding in
            (finding["check"] as? String).map { ($0, finding) }
        })
        for check in ["agent", "notifications", "do not disturb", "sound", "sound driver", "alarm sound", "waking the machine", "time zone", "state"] {
            #expect(byCheck[check] != nil, "doctor has no \(check) check: \(doctor.stdout)")
        }
        #expect((byCheck["notifications"]?["message"] as? String)?.hasPrefix("dunst 1.") == true, "\(byCheck["notifications"] ?? [:])")
        #expect(byCheck["do not disturb"]?["message"] as? String == "off")
        #expect(byCheck["sound"]?["level"] as? String == "ok")
        #expect(findings.allSatisfy { $0["level"] as? String != "problem" }, "\(doctor.stdout)")
    }

    /// The demo's session (dunst, PulseAudio, no panel, no phone link): all is well for what
    /// alarms need, and the panel and the phones are named as optional, not as faults.
    @Test func doctorSaysAllIsWellInTheDemosSessionAndNamesTheOptionalParts() throws {
        let fixture = try AgentSession("doctor-demo")
        let doctor = try fixture.tocsin("doctor")
        #expect(doctor.status == 0, "\(doctor)")
        let lines = doctor.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("optional panel: no panel shows Tocsin's tray item: countdowns show in their notifications only"), "\(doctor.stdout)")
        #expect(lines.contains("optional phones: off, and neither KDE Connect nor GSConnect runs here"), "\(doctor.stdout)")
        #expect(lines.contains { $0.hasPrefix("ok       locked screen: no screen locker is running now") }, "\(doctor.stdout)")
        #expect(!lines.contains { $0.hasPrefix("warning") || $0.hasPrefix("PROBLEM") }, "\(doctor.stdout)")
        #expect(lines.last == "All is well: alarms will be seen and heard here (2 optional parts not set up).", "\(doctor.stdout)")
    }

    @Test func pausedDunstIsDetectedFollowedAndReported() throws {
        let fixture = try AgentSession("dnd-doctor")
        try fixture.session.setNotificationsPaused(true)
        // Followed, not only read at start-up: the agent logs the change by itself.
        #expect(fixture.eventually(timeout: 3) { fixture.agentLog.contains("do-not-disturb is ON (dunst is paused)") }, "\(fixture.agentLog)")
        let doctor = try fixture.tocsin("doctor")
        #expect(doctor.status == 0, "a paused dunst is a warning, not a problem: \(doctor)")
        #expect(doctor.stdout.contains("warning  do not disturb: on (dunst is paused): even alarm alerts are hidden, but alarms still ring"), "\(doctor.stdout)")

        let id = try fixture.startTimer("1s", "--title", "Hidden")
        #expect(fixture.eventually(timeout: 3) { (try? fixture.alarm(id)?.string("state")) == "alerting" })
        let list = try fixture.tocsin("list")
        #expect(list.stderr.contains("Ringing with its alert hidden (dunst is paused): “Hidden”"), "\(list.stderr)")
        #expect(fixture.agentLog.contains("“Hidden” is ringing, but its alert is hidden (dunst is paused)"))
        #expect(try fixture.tocsin("stop").status == 0)

        try fixture.session.setNotificationsPaused(false)
        #expect(fixture.eventually(timeout: 3) { (try? fixture.tocsin("doctor").stdout.contains("ok       do not disturb: off")) == true })
    }

    @Test func doctorWithoutTheAgentAsksTheServerItself() throws {
        let session = try HeadlessSession(label: "doctor-alone")
        defer { session.stop() }
        let tocsin = try AgentSession.binary("tocsin")
        let alone = try session.run(tocsin, ["doctor"])
        #expect(alone.stdout.contains("PROBLEM  agent:"), "no agent runs, and none can be activated: \(alone.stdout)")
        #expect(alone.stdout.contains("ok       notifications: dunst 1.9"), "\(alone.stdout)")
        #expect(alone.stdout.contains("ok       do not disturb: off"), "\(alone.stdout)")
        try session.setNotificationsPaused(true)
        let paused = try session.run(tocsin, ["doctor"])
        #expect(paused.stdout.contains("warning  do not disturb: on (dunst is paused): even alarm alerts are hidden, but alarms still ring"),
                "\(paused.stdout)")
        let dunst = try #require(session.childProcesses.first { $0.name == "dunst" && $0.isRunning })
        dunst.terminate()
        _ = dunst.waitForExit(timeout: .seconds(5))
        let none = try session.run(tocsin, ["doctor"])
        #expect(none.stdout.contains("PROBLEM  notifications: no notification server is running"), "\(none.stdout)")
    }

    @Test func missingNotificationServerIsAProblemForTheDoctor() throws {
        let fixture = try AgentSession("doctor-nonotify")
        let dunst = try #require(fixture.session.childProcesses.first { $0.name == "dunst" && $0.isRunning })
        dunst.terminate()
        _ = dunst.waitForExit(timeout: .seconds(5))
        #expect(fixture.eventually(timeout: 3) { fixture.agentLog.contains("No notification server is running") })
        let doctor = try fixture.tocsin("doctor")
        #expect(doctor.status == 1, "\(doctor)")
        #expect(doctor.stdout.contains("PROBLEM  notifications: no notification server is running"), "\(doctor.stdout)")
        #expect(doctor.stderr.contains("problem(s) found"))
    }

    @Test func aNotificationServerThatComesAfterTheAgentGetsItsOwnPresentation() throws {
        // The agent starts with a countdown to show and no server to show it on: it has only the
        // unknown server's profile (progress drawn as text, the commands named). The countdown's
        // first frame on the server that comes must still be the server's own presentation.
        let fixture = try AgentSession("lateserver")
        let id = try fixture.startTimer("10m", "--title", "Late pasta")
        let dunst = try #require(fixture.session.childProcesses.first { $0.name == "dunst" && $0.isRunning })
        dunst.terminate()
        _ = dunst.waitForExit(timeout: .seconds(5))
        fixture.agent.kill(signal: SIGKILL)
        _ = fixture.agent.waitForExit(timeout: .seconds(5))
        try fixture.restartAgent()
        #expect(fixture.eventually(timeout: 5) { fixture.agentLog.contains("No notification server is running") }, "\(fixture.agentLog)")
        Thread.sleep(forTimeInterval: 1.5) // ticks with nobody to show them to

        let serverCame = Date()
        try fixture.session.startDunstAgain()
        let shown = try fixture.waitForNotification(titled: "Late pasta") { $0.receivedAt > serverCame && $0.id != 0 }
        Thread.sleep(forTimeInterval: 2.5) // a few more ticks
        let since = fixture.notifications(titled: "Late pasta").filter { $0.receivedAt > serverCame && $0.id != 0 }
        #expect(since.count >= 2, "not counting down on the new server: \(since)")
        for frame in since {
            // dunst draws the `value` hint as a bar and draws the buttons: no text bar, no commands.
            #expect(frame.value != nil, "a frame without dunst's bar: \(frame)")
            #expect(!frame.body.contains("tocsin pause"), "a frame naming the commands dunst has buttons for: \(frame)")
            #expect(frame.actions.map(\.label).contains("Pause"), "\(frame)")
        }
        #expect(Set(since.map(\.id)) == [shown.id], "not replaced in place: \(since.map(\.id))")
        #expect(try fixture.session.displayedNotificationCount() == 1)
        #expect(try fixture.tocsin("cancel", id).status == 0)
    }

    @Test func aSoundServerThatAppearsLateStillGetsTheRing() throws {
        // The agent is pointed at a socket nobody listens on yet; later the session's PulseAudio
        // starts listening there, as a sound server starting after the alarm would.
        let socket = FileManager.default.temporaryDirectory.appendingPathComponent("tocsin-late-\(UUID().uuidString.prefix(8)).sock")
        let fixture = try AgentSession("latesound", agentEnvironment: ["PULSE_SERVER": "unix:\(socket.path)"])
        let id = try fixture.startTimer("1s", "--title", "Late")
        let silentAlert = try fixture.waitForNotification(titled: "Late") { $0.urgency == 2 && $0.body.contains("No sound:") }
        #expect(try fixture.tocsin("doctor").stdout.contains("PROBLEM  sound:"))
        let recording = try fixture.session.startRecording()
        let load = try fixture.session.run(try HeadlessSession.executable("pactl"),
                                           ["load-module", "module-native-protocol-unix", "auth-anonymous=1", "socket=\(socket.path)"])
        try #require(load.status == 0, "\(load)")
        let listening = Date()
        #expect(fixture.eventually(timeout: 4) { recording.currentTrace().firstLoudWindow(after: listening) != nil }, "no sound after the sound server appeared")
        _ = recording.stop()
        // The alert no longer says it is silent.
        let audible = try fixture.waitForNotification(titled: "Late", timeout: .seconds(3)) { $0.receivedAt > silentAlert.receivedAt && $0.urgency == 2 && !$0.body.contains("No sound:") }
        #expect(audible.id == silentAlert.id)
        #expect(fixture.agentLog.contains("The sound server plays again."))
        #expect(try fixture.tocsin("stop", id).status == 0)
    }
}

/// Media players are paused while an alarm rings and resumed after, so music never drowns it.
@Suite(.serialized) struct MediaPlayerTests {
    @Test func aPlayingMediaPlayerIsPausedWhileTheAlarmRingsAndResumedAfter() throws {
        let fixture = try AgentSession("mpris")
        let player = try fixture.session.launch(try AgentSession.binary("fake-media-player"), [])
        defer { player.terminate() }
        #expect(fixture.eventually(timeout: 5) { player.standardOutput().contains("Ready") }, "the fake player did not start: \(player.standardError())")
        let id = try fixture.startTimer("1s", "--title", "Music")
        _ = try fixture.waitForNotification(titled: "Music") { $0.urgency == 2 }
        #expect(fixture.eventually(timeout: 3) { player.standardOutput() == "Ready\nPaused\n" }, "player saw: \(player.standardOutput())")
        #expect(try fixture.tocsin("stop", id).status == 0)
        #expect(fixture.eventually(timeout: 3) { player.standardOutput() == "Ready\nPaused\nPlaying\n" }, "player saw: \(player.standardOutput())")
        #expect(fixture.agentLog.contains("Paused the media player org.mpris.MediaPlayer2.tocsintest"))
    }

    @Test func thePlayerResumesOnlyWhenTheLastAlarmIsAnswered() throws {
        let fixture = try AgentSession("mpris-paused")
        let player = try fixture.session.launch(try AgentSession.binary("fake-media-player"), [])
        defer { player.terminate() }
        #expect(fixture.eventually(timeout: 5) { player.standardOutput().contains("Ready") })
        // Two alarms ring; the player is paused once and resumed only when both are answered.
        let first = try fixture.startTimer("1s", "--title", "One")
        let second = try fixture.startTimer("1s", "--title", "Two")
        _ = try fixture.waitForNotification(titled: "Two") { $0.urgency == 2 }
        #expect(fixture.eventually(timeout: 3) { player.standardOutput() == "Ready\nPaused\n" })
        #expect(try fixture.tocsin("stop", first).status == 0)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(player.standardOutput() == "Ready\nPaused\n", "resumed while an alarm still rings: \(player.standardOutput())")
        #expect(try fixture.tocsin("stop", second).status == 0)
        #expect(fixture.eventually(timeout: 3) { player.standardOutput() == "Ready\nPaused\nPlaying\n" })
    }
}

/// How loud the ring is: a chosen volume, and a crescendo that starts soft and rises.
@Suite(.serialized) struct LoudnessTests {
    /// A one-second full-scale beep as a 16-bit WAV, so each repeat starts loud at once.
    static func beep(in session: HeadlessSession) throws -> URL {
        let url = session.directory.appendingPathComponent("beep.wav")
        let sox = try session.run(try HeadlessSession.executable("sox"), ["-n", "-r", "44100", "-c", "2", "-b", "16", url.path, "synth", "1", "sine", "880", "vol", "0.5"])
        try #require(sox.status == 0, "\(sox)")
        return url
    }

    @Test func volumeScalesTheRing() throws {
        let fixture = try AgentSession("volume")
        let beep = try Self.beep(in: fixture.session)
        let recording = try fixture.session.startRecording()
        let loud = try fixture.startTimer("1s", "--title", "Loud", "--sound", beep.path)
        let loudAlert = try fixture.waitForNotification(titled: "Loud") { $0.urgency == 2 }
        Thread.sleep(forTimeInterval: 2)
        #expect(try fixture.tocsin("stop", loud).status == 0)
        let quiet = try fixture.startTimer("1s", "--title", "Quiet", "--sound", beep.path, "--volume", "10%")
        let quietAlert = try fixture.waitForNotification(titled: "Quiet") { $0.urgency == 2 }
        Thread.sleep(forTimeInterval: 2)
        #expect(try fixture.tocsin("stop", quiet).status == 0)
        let trace = recording.stop()
        let loudLevel = trace.rms(from: loudAlert.receivedAt.addingTimeInterval(0.2), to: loudAlert.receivedAt.addingTimeInterval(1.8))
        let quietLevel = trace.rms(from: quietAlert.receivedAt.addingTimeInterval(0.2), to: quietAlert.receivedAt.addingTimeInterval(1.8))
        // 10 % is -20 dB: a tenth of the amplitude.
        #expect(loudLevel > 0.05, "full volume measured \(loudLevel)")
        #expect(quietLevel > loudLevel * 0.05 && quietLevel < loudLevel * 0.2, "10 % measured \(quietLevel) against \(loudLevel) at full volume")
    }

    @Test func crescendoStartsSoftAndRises() throws {
        let fixture = try AgentSession("crescendo")
        let beep = try Self.beep(in: fixture.session)
        let recording = try fixture.session.startRecording()
        let id = try fixture.startTimer("1s", "--title", "Rise", "--sound", beep.path, "--crescendo", "4s")
        let alert = try fixture.waitForNotification(titled: "Rise") { $0.urgency == 2 }
        Thread.sleep(forTimeInterval: 6)
        #expect(try fixture.tocsin("stop", id).status == 0)
        let trace = recording.stop()
        let levels = (0..<6).map { second in
            trace.rms(from: alert.receivedAt.addingTimeInterval(Double(second) + 0.2), to: alert.receivedAt.addingTimeInterval(Double(second) + 0.8))
        }
        #expect(levels[0] > 0.0005, "the first repeat was silent: \(levels)")
        #expect(levels[0] < levels[5] / 10, "the first repeat was not soft: \(levels)")
        #expect(zip(levels, levels.dropFirst()).allSatisfy { $0 <= $1 * 1.1 }, "the level did not rise: \(levels)")
        #expect(levels[5] > 0.05, "it never reached full volume: \(levels)")
    }
}

/// On a notification server that draws no buttons, notifications say what to type instead.
@Suite(.serialized) struct ServerWithoutButtonsTests {
    @Test func notificationsNameTheCommandsWhenTheServerHasNoButtons() throws {
        let fixture = try AgentSession("nobuttons")
        let dunst = try #require(fixture.session.childProcesses.first { $0.name == "dunst" && $0.isRunning })
        dunst.terminate()
        _ = dunst.waitForExit(timeout: .seconds(5))
        let server = try fixture.session.launch(try AgentSession.binary("fake-notification-server"), [])
        defer { server.terminate() }
        #expect(fixture.eventually(timeout: 5) { server.standardOutput().contains("Ready") }, "\(server.standardError())")
        #expect(fixture.eventually(timeout: 3) { fixture.agentLog.contains("fake-notification-server 1.0 (tocsin tests); it shows no buttons") }, "\(fixture.agentLog)")

        let id = try fixture.startTimer("2s", "--title", "Plain", "--snooze", "1m")
        let short = String(id.prefix(8))
        #expect(fixture.eventually(timeout: 4) { server.standardOutput().contains("|Plain|Time’s up") }, "\(server.standardOutput())")
        let lines = server.standardOutput().split(separator: "\n").filter { $0.contains("|Plain|") }
        let countdown = try #require(lines.first)
        // A click answers too (the default action): the text says what it does, then the commands.
        #expect(countdown.contains("\\nClick to pause. Type tocsin pause \(short) to pause, tocsin cancel \(short) to cancel."), "\(countdown)")
        let alert = try #require(lines.last)
        #expect(alert.contains("\\nClick to stop. Type tocsin stop to stop, tocsin snooze to snooze."), "\(alert)")
        let doctor = try fixture.tocsin("doctor")
        #expect(doctor.stdout.contains("warning  notifications: fake-notification-server 1.0: it shows no buttons"), "\(doctor.stdout)")
        #expect(try fixture.tocsin("stop").status == 0)
    }
}
