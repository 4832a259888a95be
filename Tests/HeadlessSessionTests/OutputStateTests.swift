import Foundation
import Testing
@testable import HeadlessSession

extension RealSessionTests {
    /// The output as a user changes it (mute, volume per channel, a second sink, the default sink,
    /// a sound-server restart), on both servers, checked by what reaches the null sink's monitor.
    ///
    /// Levels are judged over whole recordings (the loudest 300 ms stretch, or every sample of
    /// each channel), never at a wall-clock moment: a recording's times can be off (see
    /// `SoundRecording`), and which sink the tone went to is what matters. Each recording starts
    /// before the tone and ends once the player has exited and the recording holds that moment.
    @Suite("Output state")
    struct Output {
        /// A 1 kHz sine at half scale: RMS 0.354 (−9 dBFS), loud enough to tell 3 % (cubic:
        /// 0.03³ = −91 dB) from silence and 30 % from 70 % per channel.
        static let toneRMS = 0.3536
        /// Quieter than this is silence here (−60 dBFS); the servers' "quiet" is 0 or 1 LSB.
        static let silence = 0.001

        @Test("the session runs the sound server asked for, with tocsin_null as default and the silence stream on it",
              arguments: SoundServerKind.allCases)
        func runsTheServerAskedFor(kind: SoundServerKind) throws {
            let session = try HeadlessSession(label: "server-\(kind)", soundServer: kind)
            defer { session.stop() }
            print("\(kind): session started in \(session.startupDuration)")
            #expect(session.soundServer == kind)
            #expect(session.environment["PULSE_SERVER"] == session.soundServerAddress)
            #expect(session.soundServerIsRunning)

            let name = try session.soundServerName()
            switch kind {
            case .pulseAudio: #expect(name == "pulseaudio", "server name \(name)")
            case .pipeWire: #expect(name.hasPrefix("PulseAudio (on PipeWire 0.3"), "server name \(name)")
            }
            let running = Set(session.runningChildProcesses.map(\.name))
            let parts: Set = kind == .pipeWire ? ["pipewire", "wireplumber", "pipewire-pulse"] : ["pulseaudio"]
            #expect(running.isSuperset(of: parts.union(["silence-stream"])), "running: \(running)")
            #expect(running.isDisjoint(with: kind == .pipeWire ? ["pulseaudio"] : ["pipewire", "wireplumber", "pipewire-pulse"]),
                    "running: \(running)")

            let sink = try session.sinkState()
            #expect(sink.name == "tocsin_null")
            #expect(!sink.muted && sink.channelPercents == [100, 100], "\(sink)")
            #expect(sink.channelNames == ["front-left", "front-right"])
            let silence = try session.sinkInputs().filter { $0.applicationName == SoundServer.silenceClientName }
            #expect(silence.count == 1 && silence.first?.sinkName == "tocsin_null", "silence streams: \(silence)")

            if kind == .pipeWire {
                // WirePlumber keeps its memory in the session's XDG_STATE_HOME: the default sink
                // chosen at start is written there (about a second after the choice).
                let defaults = session.directory.appendingPathComponent("state/wireplumber/default-nodes")
                var stored = ""
                let written = Polling.until(timeout: .seconds(5), interval: .milliseconds(100)) {
                    stored = (try? String(contentsOf: defaults, encoding: .utf8)) ?? ""
                    return stored.contains("tocsin_null")
                }
                #expect(written, "\(defaults.path) holds: \(stored)")
                // The session's WirePlumber configuration is read: the camera monitor is off, so
                // WirePlumber does not warn that libcamera is missing (it does with Debian's own).
                let wireplumber = try #require(session.childProcesses.first { $0.name == "wireplumber" })
                #expect(!wireplumber.standardError().contains("libcamera"), "\(wireplumber.standardError())")
            }

            session.stop()
            #expect(processesUsing(session.directory).isEmpty, "processes still using the session after stop()")
        }

        @Test("a tone is loud at 100 %, silent muted, near-silent at 3 %, and loud again once restored",
              arguments: SoundServerKind.allCases)
        func levelsFollowMuteAndVolume(kind: SoundServerKind) throws {
            let session = try HeadlessSession(label: "levels-\(kind)", soundServer: kind)
            defer { session.stop() }
            let tone = try Self.makeTone(in: session)

            let full = try Self.play(tone, in: session)
            let input = try #require(full.input, "paplay's stream was never listed as a sink input")
            #expect(input.sinkName == "tocsin_null" && !input.muted && input.channelPercents == [100, 100], "\(input)")
            #expect(input.applicationName == "paplay", "\(input)")
            #expect(abs(full.level - Self.toneRMS) < 0.03, "at 100 %: \(full.level)")

            try session.setSinkMute("tocsin_null", true)
            #expect(try session.sinkState().muted)
            let muted = try Self.play(tone, in: session)
            #expect(muted.input?.sinkName == "tocsin_null", "the tone must still play into the muted sink: \(String(describing: muted.input))")
            #expect(muted.level <= Self.silence, "muted: \(muted.level)")

            try session.setSinkMute("tocsin_null", false)
            try session.setSinkVolume("tocsin_null", percents: [3, 3])
            let low = try session.sinkState()
            #expect(!low.muted && low.channelPercents == [3, 3], "\(low)")
            let quiet = try Self.play(tone, in: session)
            #expect(quiet.input != nil)
            #expect(quiet.level <= Self.silence, "at 3 %: \(quiet.level)")

            try session.setSinkVolume("tocsin_null", percents: [100, 100])
            let restored = try Self.play(tone, in: session)
            #expect(abs(restored.level - Self.toneRMS) < 0.03, "restored to 100 %: \(restored.level)")
            print("\(kind): tone level at 100 % \(full.level), muted \(muted.level), 3 % \(quiet.level), restored \(restored.level)")
        }

        @Test("per-channel volumes are read back as set, and the recorded balance follows them",
              arguments: SoundServerKind.allCases)
        func channelVolumes(kind: SoundServerKind) throws {
            let session = try HeadlessSession(label: "balance-\(kind)", soundServer: kind)
            defer { session.stop() }
            let tone = try Self.makeTone(in: session)

            try session.setSinkVolume("tocsin_null", percents: [30, 70])
            let byPercent = try session.sinkState("tocsin_null")
            #expect(byPercent.channelPercents == [30, 70], "\(byPercent)")
            // Raw values a program saved come back exactly (19661 also prints as 30 %).
            try session.setSinkVolume("tocsin_null", volumes: [19_661, 45_875])
            let byValue = try session.sinkState("tocsin_null")
            #expect(byValue.channelVolumes == [19_661, 45_875], "\(byValue)")
            print("\(kind): pactl 30% 70% set \(byPercent.channelVolumes); raw 19661 45875 read back \(byValue.channelVolumes)")

            let played = try Self.play(tone, in: session)
            let (left, right) = try Self.channelRMS(of: played.recording)
            // Cubic volumes: the right channel is (0.7 / 0.3)³ = 12.7 times louder (22 dB).
            #expect(left > Self.silence, "left at 30 %: \(left)")
            #expect((10.0...16.0).contains(right / left), "left \(left), right \(right), ratio \(right / left)")
            print("\(kind): at 30 %/70 % the recording's channels: left \(left), right \(right), ratio \(right / left)")
        }

        @Test("a second sink made default takes new streams; switching back and removing it works",
              arguments: SoundServerKind.allCases)
        func secondSinkAndDefault(kind: SoundServerKind) throws {
            let session = try HeadlessSession(label: "second-\(kind)", soundServer: kind)
            defer { session.stop() }
            let tone = try Self.makeTone(in: session)

            let second = try session.loadNullSink(named: "tocsin_second")
            #expect(!second.muted && second.channelNames.count == 2, "\(second)")
            #expect(Set(try session.sinks().map(\.name)).isSuperset(of: ["tocsin_null", "tocsin_second"]))
            #expect(try session.defaultSinkName() == "tocsin_null", "loading a sink must not change the default")

            try session.setDefaultSink("tocsin_second")
            #expect(try session.sinkState().name == "tocsin_second")
            let toSecond = try Self.play(tone, in: session, alsoRecording: "tocsin_second")
            #expect(toSecond.input?.sinkName == "tocsin_second", "\(String(describing: toSecond.input))")
            #expect(toSecond.level <= Self.silence, "tocsin_null while tocsin_second is default: \(toSecond.level)")
            let onSecond = try #require(toSecond.otherLevel)
            #expect(abs(onSecond - Self.toneRMS) < 0.03, "tocsin_second while default: \(onSecond)")

            try session.setDefaultSink("tocsin_null")
            let back = try Self.play(tone, in: session, alsoRecording: "tocsin_second")
            #expect(back.input?.sinkName == "tocsin_null", "\(String(describing: back.input))")
            #expect(abs(back.level - Self.toneRMS) < 0.03, "tocsin_null default again: \(back.level)")
            #expect(try #require(back.otherLevel) <= Self.silence, "tocsin_second no longer default: \(String(describing: back.otherLevel))")

            try session.unloadNullSink(named: "tocsin_second")
            #expect(!(try session.sinks().map(\.name)).contains("tocsin_second"))
            print("\(kind): default tocsin_second: null \(toSecond.level), second \(onSecond); default back: null \(back.level), second \(String(describing: back.otherLevel))")
        }

        @Test("the sound server stops and restarts: a fresh tocsin_null is default again and a tone is recorded",
              arguments: SoundServerKind.allCases)
        func restart(kind: SoundServerKind) throws {
            let session = try HeadlessSession(label: "restart-\(kind)", soundServer: kind)
            defer { session.stop() }
            let tone = try Self.makeTone(in: session)
            let serverParts: Set = ["pulseaudio", "pipewire", "wireplumber", "pipewire-pulse", "silence-stream"]
            let before = session.runningChildProcesses.filter { serverParts.contains($0.name) }
            let name = try session.soundServerName()
            try session.setSinkMute("tocsin_null", true)
            try session.setSinkVolume("tocsin_null", percents: [40, 40])
            try session.loadNullSink(named: "tocsin_second")

            let started = ContinuousClock.now
            try session.restartSoundServer()
            let took = ContinuousClock.now - started
            #expect(before.allSatisfy { !$0.isRunning }, "still running: \(before.filter(\.isRunning).map(\.name))")
            let after = session.runningChildProcesses.filter { serverParts.contains($0.name) }
            #expect(after.count == before.count && Set(after.map(\.name)) == Set(before.map(\.name)), "after: \(after.map(\.name))")
            #expect(try session.soundServerName() == name)
            let sink = try session.sinkState()
            #expect(sink.name == "tocsin_null" && !sink.muted && sink.channelPercents == [100, 100],
                    "a fresh sink after the restart: \(sink)")
            #expect(!(try session.sinks().map(\.name)).contains("tocsin_second"))
            let played = try Self.play(tone, in: session)
            #expect(abs(played.level - Self.toneRMS) < 0.03, "after the restart: \(played.level)")

            session.stopSoundServer()
            #expect(!session.soundServerIsRunning)
            #expect(throws: HeadlessSessionError.self) { _ = try session.sinkState() }
            let restartedAt = ContinuousClock.now
            try session.restartSoundServer()
            let tookFromStopped = ContinuousClock.now - restartedAt
            #expect(session.soundServerIsRunning)
            let again = try Self.play(tone, in: session)
            #expect(abs(again.level - Self.toneRMS) < 0.03, "after a stop and a start: \(again.level)")
            print("\(kind): restart took \(took), start from stopped \(tookFromStopped); levels after \(played.level), \(again.level)")
        }

        @Test("a stream muted by the user stays muted for the application's next stream, even after a restart, on PipeWire only",
              arguments: SoundServerKind.allCases)
        func mutedStreamIsRemembered(kind: SoundServerKind) throws {
            let session = try HeadlessSession(label: "remember-\(kind)", soundServer: kind)
            defer { session.stop() }
            let tone = try Self.makeTone(in: session)

            let player = try session.launch(try Tool.path("paplay"), ["--latency-msec=10", tone.path])
            var input: SinkInputState?
            _ = try Polling.until(timeout: .seconds(5), interval: .milliseconds(20)) {
                input = try session.sinkInputs().first { $0.processID == player.pid }
                return input != nil || !player.isRunning
            }
            let playing = try #require(input, "paplay's stream was never listed: \(player.standardError())")
            try session.setSinkInputMute(playing.index, true)
            #expect(player.waitForExit(timeout: .seconds(10)) == 0, "\(player.standardError())")
            if kind == .pipeWire {
                // WirePlumber writes its memory about a second after the change.
                let store = session.directory.appendingPathComponent("state/wireplumber/restore-stream")
                let written = Polling.until(timeout: .seconds(5), interval: .milliseconds(100)) {
                    ((try? String(contentsOf: store, encoding: .utf8)) ?? "").contains("application.name:paplay:mute=true")
                }
                #expect(written, "\(store.path) never held paplay's mute")
            }

            try session.restartSoundServer()
            let next = try Self.play(tone, in: session)
            let nextInput = try #require(next.input)
            switch kind {
            case .pipeWire:
                #expect(nextInput.muted, "WirePlumber restores paplay's mute: \(nextInput)")
                #expect(next.level <= Self.silence, "paplay's next tone, remembered muted: \(next.level)")
            case .pulseAudio:
                #expect(!nextInput.muted, "no module-stream-restore in the PulseAudio session: \(nextInput)")
                #expect(abs(next.level - Self.toneRMS) < 0.03, "paplay's next tone: \(next.level)")
            }
            print("\(kind): paplay's stream after it was muted and the server restarted: muted \(nextInput.muted), level \(next.level)")
        }

        @Test("a PipeWire part that does not start is named with its stderr, and nothing of the session is left running")
        func failingPartIsNamed() throws {
            // A wireplumber that fails as a broken install would, found first in PATH.
            let bin = FileManager.default.temporaryDirectory.appendingPathComponent("tocsin-failing-wireplumber-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: bin) }
            let script = bin.appendingPathComponent("wireplumber")
            try "#!/bin/sh\necho 'wireplumber: cannot load the session manager' >&2\nexit 3\n".write(to: script, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")

            let before = Set(processesMentioning("tocsin-session-failing"))
            do {
                _ = try HeadlessSession(label: "failing", baseEnvironment: environment, soundServer: .pipeWire)
                Issue.record("the session started although wireplumber exits at once")
            } catch let HeadlessSessionError.componentFailed(component, reason, stderrTail) {
                #expect(component == "wireplumber", "\(component): \(reason)")
                #expect(reason == "exited with status 3", "\(reason)")
                #expect(stderrTail.contains("cannot load the session manager"), "\(stderrTail)")
            }
            let left = Set(processesMentioning("tocsin-session-failing")).subtracting(before)
            #expect(left.isEmpty, "processes of the failed session still running: \(left)")
        }

        // MARK: helpers

        /// What one tone played: the loudest 300 ms at tocsin_null's monitor (and at another
        /// sink's, if asked), and the tone's stream as the server listed it while it played
        /// (once linked to a sink, if it was in time).
        struct Played {
            let recording: SoundRecording
            let level: Double
            let otherLevel: Double?
            let input: SinkInputState?
        }

        static func makeTone(in session: HeadlessSession) throws -> URL {
            let url = session.directory.appendingPathComponent("tone.wav")
            let sox = try session.run(try Tool.path("sox"), ["-n", "-r", "44100", "-c", "2", "-b", "16", url.path,
                                                             "synth", "0.6", "sine", "1000", "vol", "0.5"])
            try #require(sox.succeeded, "sox: \(sox)")
            return url
        }

        /// Plays `tone` with paplay into the default sink, recording tocsin_null (and `other`).
        static func play(_ tone: URL, in session: HeadlessSession, alsoRecording other: String? = nil) throws -> Played {
            let recording = try session.startRecording()
            let otherRecording = try other.map { try session.startRecording(of: $0) }
            let player = try session.launch(try Tool.path("paplay"), ["--latency-msec=10", tone.path])
            var input: SinkInputState?
            // PipeWire lists a stream a moment before WirePlumber links it to a sink.
            _ = try Polling.until(timeout: .seconds(5), interval: .milliseconds(20)) {
                input = try session.sinkInputs().first { $0.processID == player.pid }
                return input?.sinkName != nil || !player.isRunning
            }
            let status = player.waitForExit(timeout: .seconds(10))
            if status == nil {
                // Seen once (a clean-clone run, the unit tests in parallel): a 0.6 s tone's paplay
                // still running 10 s later, saying nothing. What it and the server were doing:
                let kernel = (try? String(contentsOfFile: "/proc/\(player.pid)/wchan", encoding: .utf8)).map { "waiting in \($0)" } ?? "no /proc entry"
                let stream = (try? session.sinkInputs().first { $0.processID == player.pid }).map { "\($0)" } ?? "none listed"
                let sinks = (try? session.run(try Tool.path("pactl"), ["list", "sinks", "short"]).stdout) ?? "pactl failed"
                Issue.record("paplay still running after 10 s (\(kernel)); its stream when it was linked: \(String(describing: input)); now: \(stream); sinks:\n\(sinks)")
            }
            try #require(status == 0, "paplay ended with \(String(describing: status)): \(player.standardError())")
            // Everything rendered before paplay exited is in the recording once it holds audio up
            // to that moment (a little more, for the recorder's own latency).
            let exited = Date()
            for each in [recording] + (otherRecording.map { [$0] } ?? []) {
                let complete = Polling.until(timeout: .seconds(5), interval: .milliseconds(20)) {
                    (each.currentTrace().end ?? .distantPast) > exited.addingTimeInterval(0.2)
                }
                try #require(complete, "the recording \(each.rawAudioURL.lastPathComponent) did not reach the player's exit")
            }
            let trace = recording.stop()
            let otherTrace = otherRecording?.stop()
            return Played(recording: recording, level: trace.loudestRMS(over: 0.3),
                          otherLevel: otherTrace?.loudestRMS(over: 0.3), input: input)
        }

        /// The RMS of each channel over a whole recording (raw s16le stereo).
        static func channelRMS(of recording: SoundRecording) throws -> (left: Double, right: Double) {
            let raw = try Data(contentsOf: recording.rawAudioURL)
            var sums = [0.0, 0.0]
            var frames = 0
            raw.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                var offset = 0
                while offset + 4 <= bytes.count {
                    for channel in 0..<2 {
                        let sample = Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 2 * channel, as: Int16.self))
                        let value = Double(sample) / 32_768
                        sums[channel] += value * value
                    }
                    frames += 1
                    offset += 4
                }
            }
            try #require(frames > 0, "the recording is empty")
            return ((sums[0] / Double(frames)).squareRoot(), (sums[1] / Double(frames)).squareRoot())
        }
    }
}
