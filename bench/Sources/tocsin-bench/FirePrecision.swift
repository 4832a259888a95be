import Foundation
import HeadlessSession

/// Fire precision: how late after its due time a timer starts alerting, as a client sees it.
///
/// Timers of 1–3 s run overlapping, `timersPerBatch` at a time with staggered durations, so the
/// agent fires while other countdowns update their notifications. The due time is each timer's
/// `fire-time` as announced by the `scheduled` signal (known before it fired); the alerting
/// transition is the `fired` signal as `tocsin watch --json` received it. The ringing
/// notification's arrival at the notification server (bus monitor) is reported alongside.
enum FirePrecision {
    static let section = "Fire precision"

    /// Fire delays of a set of timers, in milliseconds.
    struct Delays {
        var toFiredSignal: [Double] = []
        var toRingingNotification: [Double] = []
        var problems: [String] = []
    }

    /// Runs `plan.firePrecisionTimers` timers and returns the figures.
    static func measure(in bench: BenchmarkSession, plan: BenchPlan, sound: URL) throws -> (figures: [Figure], delays: Delays) {
        var delays = Delays()
        let batches = (plan.firePrecisionTimers + plan.timersPerBatch - 1) / plan.timersPerBatch
        for batch in 0..<batches {
            let count = min(plan.timersPerBatch, plan.firePrecisionTimers - batch * plan.timersPerBatch)
            try runBatch(batch, count: count, in: bench, sound: sound, into: &delays)
        }
        let timers = delays.toFiredSignal.count
        let label = "due → `fired` signal received by `tocsin watch --json` (\(timers) timers of 1–3 s, \(plan.timersPerBatch) at a time)"
        let figures = [
            Figure.samples(delays.toFiredSignal, section: section, label: label, unit: "ms",
                           target: Target(statistic: .p99, limit: 10, unit: "ms"),
                           note: delays.problems.isEmpty ? nil : delays.problems.joined(separator: "; "),
                           emptyReason: "no timer fired: \(delays.problems.joined(separator: "; "))"),
            Figure.samples(delays.toRingingNotification, section: section,
                           label: "due → ringing notification reaches the notification server (same timers; bus monitor)",
                           unit: "ms", showsP99: true, emptyReason: "no ringing notification was seen on the bus"),
        ]
        return (figures, delays)
    }

    /// Schedules `count` overlapping timers, waits until all fired, stops them and collects delays.
    private static func runBatch(_ batch: Int, count: Int, in bench: BenchmarkSession, sound: URL, into delays: inout Delays) throws {
        // Durations spread evenly over 1–3 s; a per-batch offset moves the fire instants against
        // the whole seconds of the other countdowns, so every phase of the second is sampled.
        let offset = Double(batch % 10) * 0.0137
        let requests: [[String: Any]] = (0..<count).map { index in
            let spread = count > 1 ? 1.9 * Double(index) / Double(count - 1) : 0
            return ["duration": 1.0 + spread + offset, "title": "bench-fire-\(batch)-\(index)",
                    "sound": sound.path, "ring-limit": 60.0]
        }
        let scheduled = try bench.bulkClient.schedule(requests)
        if !scheduled.errors.isEmpty { delays.problems.append("Schedule refused: \(scheduled.errors[0])") }
        let ids = Set(scheduled.ids)
        if !bench.watch.waitForAll(ids, event: "fired", timeout: .seconds(15)) {
            let missing = scheduled.ids.filter { bench.watch.first("fired", id: $0) == nil }
            let states = (try? bench.tocsin(["list"]).stdout) ?? "?"
            delays.problems.append("batch \(batch): \(missing.count) timer(s) without a `fired` line within 15 s "
                                   + "(\(missing.map { String($0.prefix(8)) }.joined(separator: ", "))); tocsin list: \(states)")
        }
        // Stop what rings; cancel anything that has not fired, so no sound is left over.
        let fired = scheduled.ids.filter { bench.watch.first("fired", id: $0) != nil }
        try bench.bulkClient.call("Stop", ids: fired)
        try bench.bulkClient.call("Cancel", ids: scheduled.ids.filter { !fired.contains($0) })
        _ = bench.watch.waitForAll(Set(fired), event: "stopped", timeout: .seconds(10))

        let notifications = bench.session.notifications()
        for (index, id) in scheduled.ids.enumerated() {
            guard let due = bench.watch.first("scheduled", id: id)?.fireTime,
                  let fired = bench.watch.first("fired", id: id) else { continue }
            delays.toFiredSignal.append(fired.receivedAt.timeIntervalSince(due) * 1000)
            let title = requests[index]["title"] as? String
            if let ringing = notifications.first(where: { $0.summary == title && $0.urgency == 2 }) {
                delays.toRingingNotification.append(ringing.receivedAt.timeIntervalSince(due) * 1000)
            }
        }
    }
}
