import Foundation
import HeadlessSession

/// Idle cost: how often the agent's threads are woken while it waits — with alarms far in the
/// future and nothing on screen (target: never), and with live countdowns on screen. Each
/// countdown's update is a libnotify call that waits for its reply, so countdowns cost per
/// countdown: the targets are at most 5 a second with one, and at most 3 a second per countdown
/// with 5 and with 20.
enum IdleCost {
    static let section = "Idle cost"

    /// Counts the agent's wake-ups over one window with nothing else going on.
    static func idleFigure(in bench: BenchmarkSession, plan: BenchPlan, what: String) -> Figure {
        let label = "agent wake-ups per minute, \(what), nothing on screen (\(plan.idleWindowText))"
        // Whatever the last step set going (replies, notifications closing) settles first.
        Thread.sleep(forTimeInterval: 1)
        guard let counted = ProcessActivity.wakeupsPerMinute(of: [bench.agent.pid], over: plan.idleWindow) else {
            return .notMeasured("the agent exited during the window", section: section, label: label, unit: "wake-ups/min")
        }
        return Figure(section: section, label: label, unit: "wake-ups/min", outcome: .value(counted.perMinute),
                      target: Target(statistic: .value, limit: 0, unit: "wake-ups/min"), note: endedThreadsNote(counted))
    }

    /// A window with live countdowns on screen: when it ran, which timers were showing, and the
    /// agent's wake-ups.
    struct CountdownWindow {
        let countdowns: Int
        let start: Date
        let end: Date
        /// Title → fire time of every countdown on screen.
        let fireTimes: [String: Date]
        let figure: Figure
    }

    /// Measures with 1, 5 and then 20 one-hour timers counting down on screen, and cancels them.
    static func countdownWindows(in bench: BenchmarkSession, plan: BenchPlan) throws -> [CountdownWindow] {
        var ids: [String] = []
        var fireTimes: [String: Date] = [:]
        var windows: [CountdownWindow] = []
        for total in [1, 5, 20] {
            let requests: [[String: Any]] = (ids.count..<total).map { ["duration": 3600.0, "title": "bench-countdown-\($0)"] }
            let scheduled = try bench.bulkClient.schedule(requests)
            guard scheduled.errors.isEmpty else { throw BenchError("Schedule refused: \(scheduled.errors[0])") }
            ids += scheduled.ids
            guard bench.watch.waitForAll(Set(scheduled.ids), event: "scheduled", timeout: .seconds(10)) else {
                throw BenchError("the countdown timers were not announced")
            }
            for id in scheduled.ids {
                if let event = bench.watch.first("scheduled", id: id), let title = event.title, let due = event.fireTime {
                    fireTimes[title] = due
                }
            }
            // The first notifications and their replies settle before counting.
            Thread.sleep(forTimeInterval: 1.5)
            let label = "agent wake-ups per second, \(total) countdown\(total == 1 ? "" : "s") on screen (\(Int(plan.idleWindow.seconds)) s window)"
            let start = Date()
            let counted = ProcessActivity.wakeupsPerMinute(of: [bench.agent.pid], over: plan.idleWindow)
            let end = Date()
            let figure = counted.map {
                Figure(section: section, label: label, unit: "wake-ups/s", outcome: .value($0.perMinute / 60),
                       target: Target(statistic: .value, limit: total == 1 ? 5 : 3 * Double(total), unit: "wake-ups/s"), note: endedThreadsNote($0))
            } ?? .notMeasured("the agent exited during the window", section: section, label: label, unit: "wake-ups/s")
            windows.append(CountdownWindow(countdowns: total, start: start, end: end, fireTimes: fireTimes, figure: figure))
        }
        try bench.bulkClient.call("Cancel", ids: ids)
        _ = bench.watch.waitForAll(Set(ids), event: "cancelled", timeout: .seconds(10))
        return windows
    }

    /// Says when threads ended during a window (not counted; see `ProcessActivity.WakeupCount`).
    /// Which threads woke (when any did), and threads that ended (not counted; see
    /// `ProcessActivity.WakeupCount`).
    static func endedThreadsNote(_ count: ProcessActivity.WakeupCount) -> String? {
        var parts: [String] = []
        if count.counted > 0 { parts.append("wake-ups in the window by thread: \(count.breakdown)") }
        if count.preemptions > 0 { parts.append("\(count.preemptions) involuntary context switch(es) besides (preempted while running; not wake-ups)") }
        if count.endedThreads > 0 {
            parts.append("\(count.endedThreads) worker thread(s) ended during the window (retiring after the previous step's activity; not counted)")
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }
}
