import Foundation
import Testing
@testable import HeadlessSession

extension RealSessionTests {
    @Suite("Recording what is played")
    struct Sound {
        @Test("paplay of bell.oga is recorded as loud while playing and silent after it ends",
              arguments: SoundServerKind.allCases)
        func bellIsLoudThenSilent(kind: SoundServerKind) throws {
            let session = try HeadlessSession(label: "sound", soundServer: kind)
            defer { session.stop() }
            let recording = try session.startRecording()
            Thread.sleep(forTimeInterval: 0.1)  // some silence to compare with
            let launched = Date()
            let played = try session.run(try Tool.path("paplay"), [Tool.bell.path])
            let exited = Date()
            Thread.sleep(forTimeInterval: 0.3)
            let trace = recording.stop()

            #expect(played.succeeded, "\(played)")
            #expect(trace.covers(from: launched.addingTimeInterval(-0.08), to: exited.addingTimeInterval(0.25)))
            #expect(trace.isSilent(from: launched.addingTimeInterval(-0.08), to: launched.addingTimeInterval(-0.02)))
            let onset = try #require(trace.firstLoudWindow(after: launched.addingTimeInterval(-0.02)))
            #expect(onset < exited)
            #expect(trace.rms(from: onset, to: onset.addingTimeInterval(0.05)) > 0.01)
            #expect(trace.peakRMS > 0.05)
            #expect(trace.isSilent(from: exited.addingTimeInterval(0.03), to: exited.addingTimeInterval(0.25)))

            let raw = try Data(contentsOf: recording.rawAudioURL)
            #expect(abs(raw.count / 4 - trace.windows.count * 441) < 441, "raw file and windows disagree")
        }

        @Test("a recording started while nothing plays is silent, not empty", arguments: SoundServerKind.allCases)
        func silenceIsRecorded(kind: SoundServerKind) throws {
            let session = try HeadlessSession(label: "silence", soundServer: kind)
            defer { session.stop() }
            let recording = try session.startRecording()
            // A quarter of a second of windows, however long the recorder took to start (0.3 s
            // gave 0.22 s of sound on PipeWire, on a loaded machine).
            let deadline = Date().addingTimeInterval(10)
            while recording.currentTrace().windows.count < 25, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            let trace = recording.stop()
            #expect(trace.windows.count >= 25)
            let first = try #require(trace.windows.first?.time)
            #expect(trace.isSilent(from: first, to: first.addingTimeInterval(0.25)))
        }
    }
}
