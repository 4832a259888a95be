import Foundation

/// Latency and throughput of the agent's API: `tocsin list` end to end, scheduling many alarms
/// from one client, one Schedule call with many alarms held, and start-up with many alarms saved.
enum Latency {
    static let section = "Latency"

    /// The issue's target for `tocsin list`: everyday use, which the bench measures with 0 and
    /// with 100 alarms. At 10,000 the figure is shown for scale, without it.
    static let listTarget = Target(statistic: .median, limit: 30, unit: "ms")

    /// `tocsin list` timed from process start to exit, `runs` times back to back.
    static func listFigure(in bench: BenchmarkSession, runs: Int, what: String, target: Target? = listTarget) throws -> Figure {
        var milliseconds: [Double] = []
        var failures = 0
        for _ in 0..<runs {
            let run = try bench.timedTocsin(["list"])
            if run.status == 0 { milliseconds.append(run.elapsed.milliseconds) } else { failures += 1 }
        }
        return Figure.samples(
            milliseconds, section: section,
            label: "`tocsin list` end to end (process start to exit, output discarded), \(what)",
            unit: "ms", target: target,
            note: failures > 0 ? "\(failures) of \(runs) runs of tocsin list failed and are left out" : nil,
            emptyReason: "every run of tocsin list failed")
    }

    /// Schedules `requests` from one client process and reports the time from the first call to the
    /// last reply, with how the per-call time grew.
    static func bulkScheduleFigure(in bench: BenchmarkSession, requests: [[String: Any]], what: String,
                                   target: Target?) throws -> (figure: Figure, ids: [String]) {
        let outcome = try bench.bulkClient.schedule(requests)
        let label = "schedule \(requests.count.formatted()) \(what) over D-Bus from one client (one GDBus connection, calls in sequence)"
        guard outcome.errors.isEmpty else {
            return (.notMeasured("the agent refused: \(outcome.errors[0])", section: section, label: label, unit: "s", target: target), outcome.ids)
        }
        let calls = outcome.callSeconds.map { $0 * 1000 }
        let tenth = max(1, calls.count / 10)
        let first = Summary(Array(calls.prefix(tenth)))?.median ?? 0
        let last = Summary(Array(calls.suffix(tenth)))?.median ?? 0
        let note = "\(what): median Schedule call \(Report.number(first)) ms over the first \(tenth) calls, "
            + "\(Report.number(last)) ms over the last \(tenth)"
        return (Figure(section: section, label: label, unit: "s", outcome: .value(outcome.totalSeconds),
                       target: target, note: note), outcome.ids)
    }

    /// Round trips of single Schedule calls made while the agent holds many alarms.
    static func scheduleCallFigure(in bench: BenchmarkSession, calls: Int, held: Int) throws -> Figure {
        let requests = ManyAlarms.farFutureRequests(count: calls, titlePrefix: "bench-extra")
        let outcome = try bench.bulkClient.schedule(requests)
        let figure = Figure.samples(
            outcome.callSeconds.map { $0 * 1000 }, section: section,
            label: "one Schedule call (round trip) while the agent holds \(held.formatted()) alarms",
            unit: "ms", emptyReason: "no call was made")
        try bench.bulkClient.call("Cancel", ids: outcome.ids)
        return figure
    }

    /// Restarts the agent `runs` times with the saved alarms and times launch → first success of
    /// `tocsin <probe>`.
    static func startupFigure(in bench: BenchmarkSession, runs: Int, probe: [String], held: Int, target: Target?) throws -> Figure {
        var milliseconds: [Double] = []
        for _ in 0..<runs {
            bench.stopAgent()
            milliseconds.append(try bench.startAgent(probe: probe).milliseconds)
        }
        return Figure.samples(
            milliseconds, section: section,
            label: "agent start-up with \(held.formatted()) alarms saved: launch → first `tocsin \(probe.joined(separator: " "))` that succeeds (retried every ~5 ms, its own run time included)",
            unit: "ms", target: target, emptyReason: "the agent never answered")
    }
}
