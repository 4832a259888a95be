import Foundation

/// A running recording of everything played into one of the session's sinks (the null sink
/// `tocsin_null` unless another was asked for), from `startRecording()` until `stop()`.
///
/// `parec` writes the sink monitor's raw audio to a pipe; a reader thread appends it to
/// `rawAudioURL` (s16le, 44.1 kHz, stereo — e.g. for `sox -t raw -r 44100 -e signed -b 16 -c 2`)
/// and computes RMS per 10 ms window as data arrives.
///
/// Timing: window times are when the null sink rendered (mixed) the audio — when a sound card
/// would start playing it. The time of sample 0 is estimated as the minimum, over all chunks, of
/// "arrival time of the chunk − duration of the audio before it": a chunk cannot arrive before
/// the sink rendered its first sample, so every chunk gives an upper bound and the smallest is
/// the tightest. The sink renders in ~10 ms blocks and windows are 10 ms, so times are good to
/// about ±10 ms. Measured with a 200 ms tone played by `paplay --latency-msec=10` (8 runs): the
/// first loud window started 3 ms before to 8 ms after `paplay` was launched, the last loud window
/// ended 1–4 ms before `paplay` exited (it exits once the sink has rendered everything), and the
/// loud stretch measured 200–210 ms.
///
/// `@unchecked Sendable`: the reader thread and the caller share the accumulator and the start
/// estimate, all guarded by the lock inside `RecordingState`; the rest is immutable.
public final class SoundRecording: @unchecked Sendable {
    /// The raw audio file (s16le, 44 100 Hz, 2 channels).
    public let rawAudioURL: URL
    /// When the first audio arrived (the call to `startRecording()` returned just after).
    public let firstDataAt: Date

    private let process: SessionProcess
    private let state: RecordingState

    /// Starts `parec` on `sink`'s monitor and returns once audio is flowing, so nothing played
    /// afterwards is missed.
    static func start(launcher: ChildLauncher, environment: [String: String], index: Int,
                      sink: String = SoundServer.sinkName) throws -> SoundRecording {
        let rawAudioURL = launcher.layout.recordings.appendingPathComponent("recording-\(index).raw")
        guard FileManager.default.createFile(atPath: rawAudioURL.path, contents: nil),
              let rawFile = try? FileHandle(forWritingTo: rawAudioURL) else {
            throw HeadlessSessionError.recordingFailed(reason: "cannot create \(rawAudioURL.path)", stderrTail: "")
        }
        let pipe = Pipe()
        let process = try launcher.launch(
            name: "recorder",
            executable: try ExecutableLocator.find("parec", environment: environment),
            arguments: SoundServer.recorderArguments(sink: sink),
            environment: environment,
            standardOutput: .pipe(pipe))

        let state = RecordingState(
            accumulator: RMSWindowAccumulator(
                channels: SoundServer.channels,
                framesPerWindow: Int(Double(SoundServer.sampleRate) * SoundTrace.windowDuration)),
            sampleRate: Double(SoundServer.sampleRate))
        let reader = Thread { [pipe, rawFile, state] in
            let input = pipe.fileHandleForReading
            while true {
                let chunk = input.availableData  // blocks until data; empty at end of file
                let arrival = Date()
                if chunk.isEmpty { break }
                try? rawFile.write(contentsOf: chunk)
                state.append(chunk, arrivedAt: arrival)
            }
            try? rawFile.close()
            state.finish()
        }
        reader.name = "HeadlessSession sound recorder \(index)"
        reader.start()

        let flowing = state.waitForFirstData(timeout: .seconds(5))
        guard let firstDataAt = flowing, process.isRunning else {
            process.terminate(grace: .milliseconds(500))
            throw HeadlessSessionError.recordingFailed(
                reason: process.isRunning || flowing == nil
                    ? "no audio from \(sink).monitor within 5 s"
                    : "parec exited with status \(process.terminationStatus ?? -1)",
                stderrTail: process.standardErrorTail())
        }
        return SoundRecording(rawAudioURL: rawAudioURL, firstDataAt: firstDataAt, process: process, state: state)
    }

    private init(rawAudioURL: URL, firstDataAt: Date, process: SessionProcess, state: RecordingState) {
        self.rawAudioURL = rawAudioURL
        self.firstDataAt = firstDataAt
        self.process = process
        self.state = state
    }

    deinit {
        process.kill(signal: SIGTERM)
    }

    /// Stops recording and returns the trace. Calling it again returns the same trace.
    public func stop() -> SoundTrace {
        process.terminate(grace: .seconds(1))
        state.waitUntilFinished(timeout: .seconds(3))
        return state.trace()
    }

    /// The trace so far, without stopping.
    public func currentTrace() -> SoundTrace { state.trace() }
}

/// What the reader thread has computed so far. `@unchecked Sendable`: written by the reader
/// thread and read by the caller, always under `condition`.
private final class RecordingState: @unchecked Sendable {
    private let condition = NSCondition()
    private var accumulator: RMSWindowAccumulator
    private let sampleRate: Double
    private var estimatedStart: Date?
    private var firstArrival: Date?
    private var finished = false

    init(accumulator: RMSWindowAccumulator, sampleRate: Double) {
        self.accumulator = accumulator
        self.sampleRate = sampleRate
    }

    func append(_ chunk: Data, arrivedAt arrival: Date) {
        condition.lock()
        defer { condition.unlock() }
        // The chunk's first sample was rendered by the sink no later than the chunk arrived.
        let candidate = arrival.addingTimeInterval(-Double(accumulator.totalFrames) / sampleRate)
        accumulator.append(chunk)
        if estimatedStart.map({ candidate < $0 }) ?? true { estimatedStart = candidate }
        if firstArrival == nil {
            firstArrival = arrival
            condition.broadcast()
        }
    }

    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// The arrival time of the first audio, or nil if none came in time (or the stream ended).
    func waitForFirstData(timeout: Duration) -> Date? {
        let deadline = Date().addingTimeInterval(timeout.timeInterval)
        condition.lock()
        defer { condition.unlock() }
        while firstArrival == nil && !finished {
            if !condition.wait(until: deadline) { break }
        }
        return firstArrival
    }

    func waitUntilFinished(timeout: Duration) {
        let deadline = Date().addingTimeInterval(timeout.timeInterval)
        condition.lock()
        defer { condition.unlock() }
        while !finished {
            if !condition.wait(until: deadline) { break }
        }
    }

    func trace() -> SoundTrace {
        condition.lock()
        defer { condition.unlock() }
        guard let start = estimatedStart else { return SoundTrace(windows: []) }
        let windows = accumulator.windowRMS.enumerated().map { index, rms in
            SoundWindow(time: start.addingTimeInterval(Double(index) * SoundTrace.windowDuration), rms: rms)
        }
        return SoundTrace(windows: windows)
    }
}
