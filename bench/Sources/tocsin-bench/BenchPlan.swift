import Foundation

/// How much of everything to measure: the full run, or `--quick` (under about 3 minutes).
struct BenchPlan: Encodable, Sendable {
    /// "full" or "quick".
    let mode: String
    /// Timers whose fired signal is timed (the brief asks for at least 200, in both modes).
    let firePrecisionTimers: Int
    /// Timers running at once while measuring fire precision.
    let timersPerBatch: Int
    /// Sequential timers whose first audio is located in the recording.
    let audioSamples: Int
    /// Length of each idle / countdown window over which wake-ups are counted (scaled to a minute);
    /// `--idle-window` sets it.
    var idleWindow: Duration
    /// Runs of `tocsin list` with few alarms, and with 10,000.
    let listRuns: Int
    let listRunsWithManyAlarms: Int
    /// Agent restarts timed with 10,000 alarms saved (per probe command).
    let startupRuns: Int
    /// Schedule calls timed while the agent holds 10,000 alarms.
    let schedulesAtManyAlarms: Int
    /// `at` jobs (one per minute boundary, run in the background while Tocsin is measured).
    let atJobs: Int
    /// Runs of the `sleep N; notify-send; canberra-gtk-play` script.
    let scriptSamples: Int
    /// Rings during which GetStatus and Stop are timed with two media players frozen.
    let frozenRounds: Int
    /// Rings on a freshly locked screen, per locker (each sample locks anew).
    let lockSamples: Int
    /// Locked GNOME sessions per release and kind (with the extension, without) in which one
    /// alarm rings: each needs a shell of its own, since a lit lock screen stays lit.
    let gnomeLockScreenSamples: Int

    static let full = BenchPlan(
        mode: "full", firePrecisionTimers: 400, timersPerBatch: 20, audioSamples: 20, idleWindow: .seconds(60),
        listRuns: 100, listRunsWithManyAlarms: 20, startupRuns: 5, schedulesAtManyAlarms: 10,
        atJobs: 6, scriptSamples: 10, frozenRounds: 20, lockSamples: 8, gnomeLockScreenSamples: 3)

    static let quick = BenchPlan(
        mode: "quick", firePrecisionTimers: 200, timersPerBatch: 20, audioSamples: 5, idleWindow: .seconds(8),
        listRuns: 30, listRunsWithManyAlarms: 5, startupRuns: 2, schedulesAtManyAlarms: 3,
        atJobs: 2, scriptSamples: 5, frozenRounds: 5, lockSamples: 3, gnomeLockScreenSamples: 1)

    private enum CodingKeys: String, CodingKey {
        case mode, firePrecisionTimers, timersPerBatch, audioSamples, idleWindowSeconds, listRuns, listRunsWithManyAlarms
        case startupRuns, schedulesAtManyAlarms, atJobs, scriptSamples, frozenRounds, gnomeLockScreenSamples, lockSamples
    }

    /// Every size, with the idle window in seconds (Duration's own encoding is an opaque pair).
    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mode, forKey: .mode)
        try container.encode(firePrecisionTimers, forKey: .firePrecisionTimers)
        try container.encode(timersPerBatch, forKey: .timersPerBatch)
        try container.encode(audioSamples, forKey: .audioSamples)
        try container.encode(idleWindow.seconds, forKey: .idleWindowSeconds)
        try container.encode(listRuns, forKey: .listRuns)
        try container.encode(listRunsWithManyAlarms, forKey: .listRunsWithManyAlarms)
        try container.encode(startupRuns, forKey: .startupRuns)
        try container.encode(schedulesAtManyAlarms, forKey: .schedulesAtManyAlarms)
        try container.encode(atJobs, forKey: .atJobs)
        try container.encode(scriptSamples, forKey: .scriptSamples)
        try container.encode(frozenRounds, forKey: .frozenRounds)
        try container.encode(gnomeLockScreenSamples, forKey: .gnomeLockScreenSamples)
        try container.encode(lockSamples, forKey: .lockSamples)
    }

    /// "8 s, scaled ×7.5" or "60 s".
    var idleWindowText: String {
        let seconds = idleWindow.seconds
        return seconds == 60 ? "60 s" : "\(Int(seconds)) s, scaled ×\(String(format: "%g", 60 / seconds))"
    }
}
