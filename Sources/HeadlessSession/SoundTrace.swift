import Foundation

/// The loudness of one 10 ms window of a recording.
public struct SoundWindow: Sendable, Equatable {
    /// Wall-clock time of the window's first sample.
    public let time: Date
    /// RMS of the window's samples (all channels), 0 = silence, 1 = full-scale square wave.
    public let rms: Double

    /// Creates a window.
    public init(time: Date, rms: Double) {
        self.time = time
        self.rms = rms
    }
}

/// What the session's speakers played during a recording, as RMS per 10 ms window with wall-clock
/// times, so a test can ask "was it loud after the alarm fired" and "silent after it was stopped".
///
/// A range `from…to` covers the windows whose start time lies in `[from, to)`.
public struct SoundTrace: Sendable {
    /// Length of one window.
    public static let windowDuration: TimeInterval = 0.010

    /// Every window, in time order.
    public let windows: [SoundWindow]

    /// Creates a trace from windows in time order.
    public init(windows: [SoundWindow]) {
        self.windows = windows
    }

    /// Time of the first window, if anything was recorded.
    public var start: Date? { windows.first?.time }

    /// End of the last window, if anything was recorded.
    public var end: Date? { windows.last.map { $0.time.addingTimeInterval(Self.windowDuration) } }

    /// The loudest window's RMS (0 for an empty trace).
    public var peakRMS: Double { windows.map(\.rms).max() ?? 0 }

    /// Start time of the first window at or after `after` whose RMS exceeds `threshold`.
    public func firstLoudWindow(after: Date, threshold: Double = 0.01) -> Date? {
        windows.first { $0.time >= after && $0.rms > threshold }?.time
    }

    /// End time of the last window before `before` whose RMS exceeds `threshold` — when the sound stopped.
    public func lastLoudWindowEnd(before: Date = .distantFuture, threshold: Double = 0.01) -> Date? {
        windows.last { $0.time < before && $0.rms > threshold }
            .map { $0.time.addingTimeInterval(Self.windowDuration) }
    }

    /// Whether every window in `[from, to)` is at or below `threshold`. False when the trace has no
    /// window in that range: an unrecorded stretch is not evidence of silence.
    public func isSilent(from: Date, to: Date, threshold: Double = 0.001) -> Bool {
        let covered = windows(from: from, to: to)
        return !covered.isEmpty && covered.allSatisfy { $0.rms <= threshold }
    }

    /// RMS over `[from, to)` (all windows have the same length, so this is the RMS of all their
    /// samples). NaN when the trace has no window in that range, so neither "loud" nor "silent"
    /// assertions can pass on missing data.
    public func rms(from: Date, to: Date) -> Double {
        let covered = windows(from: from, to: to)
        guard !covered.isEmpty else { return .nan }
        let meanSquare = covered.reduce(0.0) { $0 + $1.rms * $1.rms } / Double(covered.count)
        return meanSquare.squareRoot()
    }

    /// The RMS of the loudest stretch of `duration` (whole windows) anywhere in the trace: the
    /// level of a sound that played somewhere in the recording, without knowing exactly when (a
    /// recording's times can be off; see `SoundRecording`). NaN when the trace is shorter than
    /// `duration`, so no assertion passes on missing data.
    public func loudestRMS(over duration: TimeInterval) -> Double {
        let count = max(1, Int((duration / Self.windowDuration).rounded()))
        guard windows.count >= count else { return .nan }
        let squares = windows.map { $0.rms * $0.rms }
        var sum = squares[0..<count].reduce(0, +)
        var loudest = sum
        for end in count..<squares.count {
            sum += squares[end] - squares[end - count]
            loudest = max(loudest, sum)
        }
        return (max(0, loudest) / Double(count)).squareRoot()
    }

    /// Whether the trace has windows from `from` up to `to` (within one window).
    public func covers(from: Date, to: Date) -> Bool {
        guard let start, let end else { return false }
        return start <= from.addingTimeInterval(Self.windowDuration) && end >= to.addingTimeInterval(-Self.windowDuration)
    }

    private func windows(from: Date, to: Date) -> ArraySlice<SoundWindow> {
        // Windows are in time order, so the range is contiguous.
        guard let first = windows.firstIndex(where: { $0.time >= from }) else { return [] }
        let last = windows[first...].firstIndex { $0.time >= to } ?? windows.endIndex
        return windows[first..<last]
    }
}
