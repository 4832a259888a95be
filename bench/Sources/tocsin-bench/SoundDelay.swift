import Foundation
import HeadlessSession

/// Delay from a timer's due time to the first non-silent audio on the session sink's monitor.
///
/// Sequential (sounds would overlap otherwise): one timer at a time rings a loud beep that starts at
/// full level (the default alarm-clock-elapsed begins with ~270 ms of near-silence, which would be
/// measured as delay), and is stopped before the next one.
///
/// Each timer gets its own short recording, from before it is scheduled until 0.3 s after it
/// fired. Why: the recording's timeline is estimated from when audio arrives, and every stream that
/// starts or stops makes the null sink re-render the ~10 ms it had rendered ahead, which reaches the
/// monitor twice and pulls the estimate earlier; over one long recording those shifts add up (a
/// 20-timer recording put onsets up to 16 ms *before* the due time). One recording per timer keeps
/// the error to about one such shift, ±10 ms.
enum SoundDelay {
    static let section = "Fire precision"

    /// Rings `plan.audioSamples` timers one after the other and returns two figures: the delay to
    /// the first audio, and the delay until each timer's `fire` hook (`date +%s.%N > FILE`) ran —
    /// the same thing an `at` job does, for the side-by-side comparison.
    static func measure(in bench: BenchmarkSession, plan: BenchPlan, sound: URL) throws -> (audio: Figure, hook: Figure) {
        let (delays, hookDelays, problems) = try sample(plan.audioSamples, in: bench, sound: sound)
        let hook = Figure.samples(
            hookDelays, section: section,
            label: "due → the timer's `fire` hook runs `date +%s.%N > FILE` (same timers; what an `at` job does)",
            unit: "ms", showsP99: true, emptyReason: "no fire hook wrote its file")
        let audio = Figure.samples(
            delays, section: section,
            label: "due → first non-silent audio on the sink monitor (\(delays.count) timers one at a time, 16-bit WAV beep, ±10 ms)",
            unit: "ms", target: Target(statistic: .p99, limit: 40, unit: "ms"),
            note: problems.isEmpty ? nil : problems.joined(separator: "; "),
            emptyReason: "no sound was recorded: \(problems.joined(separator: "; "))")
        return (audio, hook)
    }


    /// What `count` timers rung one after the other gave: each one's delay from due to its first
    /// audio and to its `fire` hook, and what went wrong. `beforeEach` runs before each timer is
    /// scheduled (to set the output up as the figure needs it).
    static func sample(_ count: Int, in bench: BenchmarkSession, sound: URL, beforeEach: () throws -> Void = {}) throws
        -> (delays: [Double], hookDelays: [Double], problems: [String]) {
        let hookDirectory = bench.session.directory.appendingPathComponent("bench-hooks")
        try FileManager.default.createDirectory(at: hookDirectory, withIntermediateDirectories: true)
        var delays: [Double] = []
        var hookDelays: [Double] = []
        var problems: [String] = []
        for sample in 0..<count {
            try beforeEach()
            let recording = try bench.session.startRecording()
            // Fractional durations so the due times fall at different phases of the sink's 10 ms blocks.
            let hookOutput = hookDirectory.appendingPathComponent("fired-\(sample)")
            let request: [String: Any] = ["duration": 1.2 + Double(sample) * 0.0371, "title": "bench-audio-\(sample)",
                                          "sound": sound.path, "ring-limit": 30.0,
                                          "hooks": ["fire": "date +%s.%N > \(hookOutput.path)"]]
            let scheduled = try bench.bulkClient.schedule([request])
            guard let id = scheduled.ids.first else {
                _ = recording.stop()
                problems.append("Schedule refused: \(scheduled.errors.first ?? "?")")
                continue
            }
            let fired = bench.watch.waitFor(timeout: .seconds(10)) { $0.event == "fired" && $0.alarmID == id }
            Thread.sleep(forTimeInterval: 0.3)
            let trace = recording.stop()
            try bench.bulkClient.call("Stop", ids: [id])
            _ = bench.watch.waitFor(timeout: .seconds(5)) { $0.event == "stopped" && $0.alarmID == id }
            Thread.sleep(forTimeInterval: 0.3)
            guard fired != nil, let due = bench.watch.first("scheduled", id: id)?.fireTime else {
                problems.append("a timer did not fire within 10 s")
                continue
            }
            if let delay = onsetDelay(in: trace, rawAudio: recording.rawAudioURL, due: due) {
                delays.append(delay)
            } else {
                problems.append("no sound within 0.3 s of a ring")
            }
            if let text = try? String(contentsOf: hookOutput, encoding: .utf8),
               let ranAt = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                hookDelays.append((ranAt - due.timeIntervalSince1970) * 1000)
            }
        }
        return (delays, hookDelays, problems)
    }

    /// Milliseconds from `due` to the first non-silent sample, looking from 100 ms before `due` (an
    /// early ring shows as a negative delay) to 2 s after; nil if the stretch before is not silent
    /// (leftover sound) or nothing sounds.
    ///
    /// The 10 ms window that first gets loud is found in the trace; the onset is then located to
    /// the sample inside it from the raw recording, so the window's length does not bias the
    /// figure early by up to 10 ms.
    static func onsetDelay(in trace: SoundTrace, rawAudio: URL, due: Date) -> Double? {
        let searchFrom = due.addingTimeInterval(-0.1)
        guard trace.isSilent(from: due.addingTimeInterval(-0.3), to: searchFrom, threshold: 0.01),
              let window = trace.firstLoudWindow(after: searchFrom, threshold: 0.01),
              window < due.addingTimeInterval(2), let start = trace.start else { return nil }
        let offset = firstLoudFrame(in: rawAudio, windowStartingAt: window.timeIntervalSince(start)) ?? 0
        return (window.timeIntervalSince(due) + Double(offset) / sampleRate) * 1000
    }

    /// The recording's format (HeadlessSession: s16le, 44.1 kHz, stereo).
    private static let sampleRate = 44_100.0
    private static let bytesPerFrame = 4

    /// The first frame of the 10 ms window starting `seconds` into the recording whose left or right
    /// sample exceeds 2 % of full scale, counted from the window's start.
    private static func firstLoudFrame(in rawAudio: URL, windowStartingAt seconds: Double) -> Int? {
        let framesPerWindow = Int(sampleRate * SoundTrace.windowDuration)
        let firstFrame = Int((seconds / SoundTrace.windowDuration).rounded()) * framesPerWindow
        guard let file = try? FileHandle(forReadingFrom: rawAudio) else { return nil }
        defer { try? file.close() }
        guard (try? file.seek(toOffset: UInt64(firstFrame * bytesPerFrame))) != nil,
              let bytes = try? file.read(upToCount: framesPerWindow * bytesPerFrame) else { return nil }
        let threshold = Int(0.02 * 32_768)
        let samples = stride(from: 0, to: bytes.count - 1, by: 2).map { index in
            Int(Int16(bitPattern: UInt16(bytes[bytes.startIndex + index]) | UInt16(bytes[bytes.startIndex + index + 1]) << 8))
        }
        return samples.firstIndex { abs($0) > threshold }.map { $0 / 2 }
    }

    /// Writes a 0.4 s 880 Hz beep at half scale, 16-bit stereo WAV (what libcanberra plays), with sox.
    static func makeBeep(in session: HeadlessSession) throws -> URL {
        let file = session.directory.appendingPathComponent("bench-beep.wav")
        let result = try session.run(try HeadlessSession.executable("sox"),
                                     ["-n", "-r", "44100", "-b", "16", "-c", "2", file.path, "synth", "0.4", "sine", "880", "vol", "0.5"])
        guard result.succeeded else { throw BenchError("sox could not write the beep: \(result)") }
        return file
    }
}
