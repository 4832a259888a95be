import Foundation
import HeadlessSession

/// How fast the agent answers while an alarm rings and the media players it pauses are frozen
/// (`kill -STOP`, as a hung browser tab is): GetStatus and Stop, timed from one client, in each of
/// several rings. The agent asks the players without waiting; before it did, each call waited
/// out the players' timeouts (a second each).
enum FrozenNeighbours {
    static let section = "Latency"

    /// `rounds` rings, each: a 1 s timer scheduled, its ring begun (the agent then asks both
    /// frozen players whether they play), GetStatus timed, then Stop.
    static func figures(in bench: BenchmarkSession, tools: BenchTools, rounds: Int) throws -> [Figure] {
        guard let player = tools.mediaPlayer else {
            throw BenchError("fake-media-player is not built beside tocsin-bench (bench/run builds it)")
        }
        let players = try ["benchfrozen1", "benchfrozen2"].map { try bench.session.launch(player, [$0]) }
        defer { players.forEach { $0.kill(signal: SIGCONT); $0.terminate() } }
        let deadline = Date().addingTimeInterval(5)
        while !players.allSatisfy({ $0.standardOutput().contains("Ready") }) {
            guard Date() < deadline else { throw BenchError("the media players did not start: \(players.map { $0.standardError() })") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        players.forEach { $0.kill(signal: SIGSTOP) }

        var status: [Double] = [], stop: [Double] = [], problems: [String] = []
        for _ in 0..<rounds {
            let scheduled = try bench.bulkClient.schedule([["duration": 1, "title": "bench-frozen"]])
            guard let id = scheduled.ids.first else { problems += scheduled.errors; continue }
            // Ringing for a fifth of a second: the questions to the frozen players are out.
            Thread.sleep(forTimeInterval: 1.2)
            let asked = try bench.bulkClient.status(count: 1)
            let stopped = try bench.bulkClient.call("Stop", ids: [id])
            problems += asked.errors + stopped.errors
            status += asked.callSeconds.map { $0 * 1000 }
            stop += stopped.callSeconds.map { $0 * 1000 }
            // The players' unanswered questions time out before the next ring.
            Thread.sleep(forTimeInterval: 1.1)
        }
        let note = problems.isEmpty ? "\(rounds) rings; the players stay frozen throughout"
            : "\(problems.count) call(s) failed and are left out: \(problems[0])"
        let target = Target(statistic: .max, limit: 100, unit: "ms")
        return [
            Figure.samples(status, section: section, label: "GetStatus round trip while an alarm rings and two media players are frozen",
                           unit: "ms", target: target, note: note, emptyReason: "no GetStatus call answered"),
            Figure.samples(stop, section: section, label: "Stop round trip while an alarm rings and two media players are frozen",
                           unit: "ms", target: target, note: note, emptyReason: "no Stop call answered"),
        ]
    }
}
