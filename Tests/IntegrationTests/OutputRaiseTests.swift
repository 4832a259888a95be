import Foundation
import HeadlessSession
import Testing

/// A muted or turned-down output still wakes its user, and gets its own settings back (#34), on
/// PulseAudio and on PipeWire with pipewire-pulse and WirePlumber: the sound is read at the
/// sink's monitor, the output's mute and every channel's volume through pactl, as a user's
/// volume control reads them.
@Suite(.serialized) struct OutputRaiseTests {
    /// The loudest 0.3 s of the alarm at 70 %: clearly heard (at 3 % it reads 0 on PipeWire and
    /// about 2e-5 on PulseAudio).
    static let heard = 0.01
    static let sink = "tocsin_null"

    /// A session on `server` whose output is set as a user left it: `muted`, each channel at `percents`.
    static func session(_ label: String, _ server: SoundServerKind, muted: Bool, percents: [Int]) throws -> (AgentSession, SinkState) {
        let fixture = try AgentSession("\(label)-\(server)", soundServer: server)
        try fixture.session.setSinkVolume(sink, percents: percents)
        try fixture.session.setSinkMute(sink, muted)
        let before = try fixture.session.sinkState(sink)
        try #require(before.muted == muted && before.channelPercents == percents, "the output was not set up: \(before)")
        return (fixture, before)
    }

    /// Waits until the output reads as `condition` says.
    static func output(_ fixture: AgentSession, _ name: String = sink, becomes condition: (SinkState) -> Bool) -> SinkState? {
        var last: SinkState?
        let reached = fixture.eventually(timeout: 5) {
            last = try? fixture.session.sinkState(name)
            return last.map(condition) ?? false
        }
        return reached ? last : nil
    }

    /// The agent's own stream once it has played for 1.3 s: what a person can reach in a mixer.
    /// Sooner, a change is taken for the sound server settling the new stream (its remembered
    /// mute or volume arriving) and set right (`AgentState.streamSettling`, 1 s).
    static func settledAlarmStream(_ fixture: AgentSession) -> SinkInputState? {
        var firstSeen: [Int: Date] = [:]
        var settled: SinkInputState?
        _ = fixture.eventually(timeout: 10) {
            for stream in (try? fixture.session.sinkInputs().filter { $0.processID == fixture.agent.pid }) ?? [] {
                let seen = firstSeen[stream.index] ?? Date()
                firstSeen[stream.index] = seen
                if Date().timeIntervalSince(seen) >= 1.3 { settled = stream }
            }
            return settled != nil
        }
        return settled
    }

    /// What WirePlumber keeps of streams (its `restore-stream` state file; empty on PulseAudio).
    static func wirePlumberStreamState(_ fixture: AgentSession) -> String {
        let file = fixture.session.directory.appendingPathComponent("state/wireplumber/restore-stream")
        return (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    }

    /// Stops `id` and expects silence from half a second after, as a person hears it.
    static func stopIntoSilence(_ fixture: AgentSession, _ id: String, recording: SoundRecording) throws {
        #expect(try fixture.tocsin("stop", id).status == 0)
        let stopped = Date()
        Thread.sleep(forTimeInterval: 1.6)
        #expect(recording.currentTrace().isSilent(from: stopped.addingTimeInterval(0.5), to: stopped.addingTimeInterval(1.5)), "still sound after Stop")
    }

    @Test(arguments: SoundServerKind.allCases)
    func aMutedOutputRingsAloudAndIsPutBackExactly(server: SoundServerKind) throws {
        let (fixture, before) = try Self.session("muted", server, muted: true, percents: [40, 30])
        let recording = try fixture.session.startRecording()
        let id = try fixture.startTimer("1s", "--title", "Wake up")
        let raised = Self.output(fixture) { !$0.muted && $0.channelPercents.max() == 70 }
        #expect(raised != nil, "not unmuted and raised to 70 %: \(String(describing: try? fixture.session.sinkState(Self.sink)))")
        #expect(raised.map { abs(Double($0.channelVolumes[1]) / Double($0.channelVolumes[0]) - 0.75) < 0.001 } == true,
                "the balance (30:40) was not kept: \(String(describing: raised))")
        #expect(fixture.eventually(timeout: 5) { recording.currentTrace().loudestRMS(over: 0.3) > Self.heard },
                "the alarm was not heard: loudest \(recording.currentTrace().loudestRMS(over: 0.3))")
        try Self.stopIntoSilence(fixture, id, recording: recording)
        let after = Self.output(fixture) { $0.muted == before.muted && $0.channelVolumes == before.channelVolumes }
        #expect(after != nil, "not put back exactly: before \(before), after \(String(describing: try? fixture.session.sinkState(Self.sink)))")
        #expect(fixture.agentLog.contains("raised to 70 % while the alarm rings"), "\(fixture.agentLog)")
    }

    @Test(arguments: SoundServerKind.allCases)
    func anOutputAtThreePercentIsHeardAndGoesBackToThreePercent(server: SoundServerKind) throws {
        let (fixture, before) = try Self.session("three-percent", server, muted: false, percents: [3, 3])
        let recording = try fixture.session.startRecording()
        let id = try fixture.startTimer("1s", "--title", "Quiet desk")
        #expect(Self.output(fixture) { $0.channelPercents == [70, 70] } != nil)
        #expect(fixture.eventually(timeout: 5) { recording.currentTrace().loudestRMS(over: 0.3) > Self.heard }, "the alarm was not heard")
        try Self.stopIntoSilence(fixture, id, recording: recording)
        #expect(Self.output(fixture) { $0.channelVolumes == before.channelVolumes && !$0.muted } != nil, "not back at 3 %")
    }

    @Test(arguments: SoundServerKind.allCases)
    func theUsersOwnTurnDownDuringTheRingStands(server: SoundServerKind) throws {
        let (fixture, _) = try Self.session("user-turns-down", server, muted: true, percents: [3, 3])
        let id = try fixture.startTimer("1s", "--title", "Too loud")
        try #require(Self.output(fixture) { !$0.muted && $0.channelPercents == [70, 70] } != nil, "never raised")
        // Too loud: the user turns it down to 25 %; Tocsin does not fight it…
        try fixture.session.setSinkVolume(Self.sink, percents: [25, 25])
        Thread.sleep(forTimeInterval: 1)
        #expect(try fixture.session.sinkState(Self.sink).channelPercents == [25, 25], "Tocsin raised it again over the user's hand")
        // …and on Stop leaves the volume as the user set it; the mute, still as Tocsin set it, goes back.
        #expect(try fixture.tocsin("stop", id).status == 0)
        let after = Self.output(fixture) { $0.muted }
        #expect(after?.channelPercents == [25, 25], "after Stop: \(String(describing: try? fixture.session.sinkState(Self.sink)))")
    }

    @Test(arguments: SoundServerKind.allCases)
    func twoAlarmsRingingTogetherRaiseOnceAndPutBackAfterTheLast(server: SoundServerKind) throws {
        let (fixture, before) = try Self.session("two-alarms", server, muted: true, percents: [10, 10])
        let recording = try fixture.session.startRecording()
        let first = try fixture.startTimer("1s", "--title", "Pasta")
        let second = try fixture.startTimer("2s", "--title", "Sauce")
        #expect(fixture.eventually(timeout: 6) { (try? fixture.alarm(second))?.string("state") == "alerting" })
        #expect(try fixture.tocsin("stop", first).status == 0)
        Thread.sleep(forTimeInterval: 1)
        #expect(try fixture.session.sinkState(Self.sink).muted == false, "put back while the second still rings")
        let stillRinging = Date()
        #expect(fixture.eventually(timeout: 5) { recording.currentTrace().firstLoudWindow(after: stillRinging, threshold: Self.heard) != nil },
                "the second alarm is not heard after the first is stopped")
        try Self.stopIntoSilence(fixture, second, recording: recording)
        #expect(Self.output(fixture) { $0.muted && $0.channelVolumes == before.channelVolumes } != nil)
        #expect(fixture.agentLog.components(separatedBy: "raised to 70 % while the alarm rings").count == 2, "raised more than once:\n\(fixture.agentLog)")
    }

    @Test(arguments: SoundServerKind.allCases)
    func anAgentKilledMidRingPutsTheOutputBackWhenItStartsAgain(server: SoundServerKind) throws {
        let (fixture, before) = try Self.session("killed", server, muted: true, percents: [3, 3])
        let id = try fixture.startTimer("1s", "--title", "Crash")
        try #require(Self.output(fixture) { !$0.muted && $0.channelPercents == [70, 70] } != nil, "never raised")
        let record = fixture.stateDirectory.appendingPathComponent("output-record.json")
        #expect(FileManager.default.fileExists(atPath: record.path), "no restore record saved before the raise")
        fixture.agent.kill(signal: SIGKILL)
        // Still ringing when the agent comes back: raised once more (it never was put back), then put back on Stop.
        try fixture.restartAgent()
        #expect(try fixture.alarm(id)?.string("state") == "alerting")
        #expect(try fixture.tocsin("stop", id).status == 0)
        #expect(Self.output(fixture) { $0.muted && $0.channelVolumes == before.channelVolumes } != nil,
                "not put back after the restart: \(String(describing: try? fixture.session.sinkState(Self.sink)))")
        #expect(fixture.eventually(timeout: 3) { !FileManager.default.fileExists(atPath: record.path) }, "the record outlived the put-back")
    }

    @Test(arguments: SoundServerKind.allCases)
    func theAlarmFollowsTheDefaultOutputAndBothEndAsTheUserLeftThem(server: SoundServerKind) throws {
        let (fixture, before) = try Self.session("switched", server, muted: true, percents: [3, 3])
        let headphones = "tocsin_headphones"
        try fixture.session.loadNullSink(named: headphones)
        try fixture.session.setSinkVolume(headphones, percents: [12, 12])
        try fixture.session.setSinkMute(headphones, true)
        let headphonesBefore = try fixture.session.sinkState(headphones)
        let recording = try fixture.session.startRecording(of: headphones)
        let id = try fixture.startTimer("1s", "--title", "Plugged in")
        try #require(Self.output(fixture) { !$0.muted } != nil, "never raised")
        // Headphones plugged in: the new default is raised, the old one put back.
        try fixture.session.setDefaultSink(headphones)
        #expect(Self.output(fixture, headphones) { !$0.muted && $0.channelPercents == [70, 70] } != nil, "the new default was not raised")
        #expect(Self.output(fixture) { $0.muted && $0.channelVolumes == before.channelVolumes } != nil, "the old default was not put back")
        #expect(fixture.eventually(timeout: 8) { recording.currentTrace().loudestRMS(over: 0.3) > Self.heard }, "not heard on the headphones")
        #expect(try fixture.tocsin("stop", id).status == 0)
        #expect(Self.output(fixture, headphones) { $0.muted && $0.channelVolumes == headphonesBefore.channelVolumes } != nil,
                "the headphones were not put back: \(String(describing: try? fixture.session.sinkState(headphones)))")
        #expect(try fixture.session.sinkState(Self.sink).channelVolumes == before.channelVolumes)
    }

    @Test(arguments: SoundServerKind.allCases)
    func anOutputThatGoesAwayMidRingLeavesTheAlarmRingingOnTheNext(server: SoundServerKind) throws {
        let (fixture, before) = try Self.session("output-gone", server, muted: true, percents: [3, 3])
        let dock = "tocsin_dock"
        try fixture.session.loadNullSink(named: dock)
        try fixture.session.setSinkMute(dock, true)
        try fixture.session.setDefaultSink(dock)
        let recording = try fixture.session.startRecording()
        let id = try fixture.startTimer("1s", "--title", "Undocked")
        try #require(Self.output(fixture, dock) { !$0.muted } != nil, "the dock's output was never raised")
        // Undocked: the output goes, the server falls back to the other one, which is raised.
        try fixture.session.unloadNullSink(named: dock)
        #expect(Self.output(fixture) { !$0.muted && $0.channelPercents == [70, 70] } != nil, "the remaining output was not raised")
        let after = Date()
        #expect(fixture.eventually(timeout: 8) { recording.currentTrace().firstLoudWindow(after: after, threshold: Self.heard) != nil },
                "not heard on the remaining output")
        #expect(fixture.agentLog.contains("Output “\(dock)” is gone; nothing to put back on it."), "\(fixture.agentLog)")
        try Self.stopIntoSilence(fixture, id, recording: recording)
        #expect(Self.output(fixture) { $0.muted && $0.channelVolumes == before.channelVolumes } != nil)
    }

    @Test(arguments: SoundServerKind.allCases)
    func aSoundServerRestartedMidRingBringsTheSoundBackAndTheLogSaysSo(server: SoundServerKind) throws {
        let fixture = try AgentSession("server-restart-\(server)", soundServer: server)
        let id = try fixture.startTimer("1s", "--title", "Restarted")
        #expect(fixture.eventually(timeout: 5) { (try? fixture.alarm(id))?.string("state") == "alerting" })
        try fixture.session.restartSoundServer()
        let recording = try fixture.session.startRecording()
        let back = Date()
        #expect(fixture.eventually(timeout: 8) { recording.currentTrace().firstLoudWindow(after: back.addingTimeInterval(-2), threshold: Self.heard) != nil },
                "no sound after the server restarted:\n\(fixture.agentLog)")
        #expect(fixture.eventually(timeout: 5) { fixture.agentLog.contains("The sound server answers again.") }, "\(fixture.agentLog)")
        try Self.stopIntoSilence(fixture, id, recording: recording)
    }

    /// A mute the sound server remembers for Tocsin's stream (the user muted the alarm in the
    /// mixer once) does not silence the next alarm; during the ring it was muted in, it holds.
    /// PulseAudio remembers through module-stream-restore, which desktops load (the session's
    /// server does not, so the test loads it); WirePlumber remembers by application.
    @Test(arguments: SoundServerKind.allCases)
    func aMuteTheServerRemembersForTocsinDoesNotSilenceTheNextAlarm(server: SoundServerKind) throws {
        let fixture = try AgentSession("remembered-mute-\(server)", soundServer: server)
        if server == .pulseAudio { try fixture.session.run(URL(fileURLWithPath: "/usr/bin/pactl"), ["load-module", "module-stream-restore"]) }
        let recording = try fixture.session.startRecording()
        let first = try fixture.startTimer("1s", "--title", "Muted in the mixer")
        let stream = Self.settledAlarmStream(fixture)
        #expect(stream != nil, "the alarm's stream never played for long")
        // The user mutes the alarm's stream in the mixer: it stays muted for this ring.
        try fixture.session.setSinkInputMute(try #require(stream).index, true)
        let muted = Date()
        Thread.sleep(forTimeInterval: 2.5)
        #expect(recording.currentTrace().isSilent(from: muted.addingTimeInterval(0.5), to: muted.addingTimeInterval(2.3)),
                "Tocsin unmuted what the user muted during the ring")
        #expect(try fixture.tocsin("stop", first).status == 0)
        // The server has kept the mute for Tocsin's streams (WirePlumber saves it about a second later).
        Thread.sleep(forTimeInterval: 1.5)
        // Read before the next ring, whose unmute WirePlumber saves in turn.
        let wirePlumberState = Self.wirePlumberStreamState(fixture)
        let second = try fixture.startTimer("1s", "--title", "The next morning")
        let started = Date()
        #expect(fixture.eventually(timeout: 6) { recording.currentTrace().firstLoudWindow(after: started, threshold: Self.heard) != nil },
                "the next alarm was silenced by the remembered mute:\n\(fixture.agentLog)")
        if server == .pipeWire {
            // WirePlumber's state says it kept the mute for the alarm role (it first reports a new
            // stream at 0 %, which is what the agent's log then names).
            #expect(wirePlumberState.contains("Output/Audio:media.role:alarm:mute=true"), "WirePlumber remembered no mute for the alarm, so this proves nothing")
            #expect(fixture.agentLog.contains("The alarm's sound started at"), "\(fixture.agentLog)")
        } else {
            #expect(fixture.agentLog.contains("The alarm's sound started at muted"), "the server remembered no mute, so this proves nothing:\n\(fixture.agentLog)")
        }
        try Self.stopIntoSilence(fixture, second, recording: recording)
    }

    /// The same for a volume: the user turned the alarm's stream down to 5 % in the mixer once,
    /// and the server remembers it for Tocsin; the next alarm plays at its own volume all the same
    /// (libcanberra gives every stream its volume, which the servers take over a remembered one).
    @Test(arguments: SoundServerKind.allCases)
    func aVolumeTheServerRemembersForTocsinDoesNotTurnTheNextAlarmDown(server: SoundServerKind) throws {
        let fixture = try AgentSession("remembered-volume-\(server)", soundServer: server)
        if server == .pulseAudio { try fixture.session.run(URL(fileURLWithPath: "/usr/bin/pactl"), ["load-module", "module-stream-restore"]) }
        let first = try fixture.startTimer("1s", "--title", "Turned down in the mixer")
        let stream = Self.settledAlarmStream(fixture)
        #expect(stream != nil, "the alarm's stream never played for long")
        try fixture.session.setSinkInputVolume(try #require(stream).index, percents: [5, 5])
        Thread.sleep(forTimeInterval: 1.5)
        #expect(try fixture.tocsin("stop", first).status == 0)
        Thread.sleep(forTimeInterval: 1.5)
        let wirePlumberState = Self.wirePlumberStreamState(fixture)
        let recording = try fixture.session.startRecording()
        let second = try fixture.startTimer("1s", "--title", "The next morning")
        #expect(fixture.eventually(timeout: 6) { recording.currentTrace().loudestRMS(over: 0.3) > Self.heard },
                "the next alarm played at the remembered 5 %: loudest \(recording.currentTrace().loudestRMS(over: 0.3))")
        #expect(try fixture.session.sinkInputs().first { $0.processID == fixture.agent.pid }?.channelPercents.max() ?? 0 > 5)
        if server == .pipeWire {
            // WirePlumber remembered the 5 % for the alarm role (its state file says so) and put
            // it over the volume libcanberra asked for; PulseAudio keeps a volume the client gives.
            let remembered = wirePlumberState.split(separator: "\n")
                .first { $0.hasPrefix("Output/Audio:media.role:alarm:channelVolumes=") }
                .flatMap { $0.split(separator: "=").last?.split(separator: ";").first.flatMap { Double($0) } }
            #expect(remembered.map { $0 < 0.01 } == true, "WirePlumber remembered no low volume for the alarm, so this proves nothing: \(String(describing: remembered))")
            #expect(fixture.agentLog.contains("The alarm's sound started at"), "\(fixture.agentLog)")
        }
        try Self.stopIntoSilence(fixture, second, recording: recording)
    }

    @Test(arguments: SoundServerKind.allCases)
    func doctorSaysTheServerTheOutputAndWhetherAlarmsWillBeHeard(server: SoundServerKind) throws {
        let (fixture, _) = try Self.session("doctor", server, muted: true, percents: [20, 20])
        let serverName = server == .pulseAudio ? "pulseaudio" : "PulseAudio (on PipeWire"
        var doctor = try fixture.tocsin("doctor")
        #expect(fixture.eventually(timeout: 5) {
            doctor = (try? fixture.tocsin("doctor")) ?? doctor
            return doctor.stdout.contains("\(Self.sink) on \(serverName)") && doctor.stdout.contains("muted, 20 %: a ringing alarm raises it to 70 %")
        }, "\(doctor.stdout)")
        #expect(try fixture.tocsin("config", "raise-output", "no").status == 0)
        #expect(fixture.eventually(timeout: 5) {
            doctor = (try? fixture.tocsin("doctor")) ?? doctor
            return doctor.stdout.contains("is muted, 20 % and raising is off: alarms may not be heard")
        }, "\(doctor.stdout)")
    }

    @Test(arguments: SoundServerKind.allCases)
    func withoutASoundServerTheAlarmShowsAndStopsAndItsSoundComesBackWithTheServer(server: SoundServerKind) throws {
        let fixture = try AgentSession("no-sound-server-\(server)", soundServer: server)
        fixture.session.stopSoundServer()
        let id = try fixture.startTimer("1s", "--title", "Silent desk")
        // Shown, ringing as far as the agent can, and it says why nothing is heard.
        _ = try fixture.waitForNotification(titled: "Silent desk", timeout: .seconds(8)) { $0.urgency == 2 }
        #expect(fixture.eventually(timeout: 5) { fixture.agentLog.contains("No sound server answers") }, "\(fixture.agentLog)")
        // The server comes back while it rings: the sound comes back with it.
        try fixture.session.restartSoundServer()
        let recording = try fixture.session.startRecording()
        let back = Date()
        #expect(fixture.eventually(timeout: 8) { recording.currentTrace().firstLoudWindow(after: back.addingTimeInterval(-2), threshold: Self.heard) != nil },
                "no sound after the server came back:\n\(fixture.agentLog)")
        try Self.stopIntoSilence(fixture, id, recording: recording)
        #expect(try fixture.alarm(id) == nil)
    }
}
