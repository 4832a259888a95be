import Foundation
import HeadlessSession

/// Idle cost: how often the agent's threads are woken while it waits — with alarms far in the
/// future and nothing on screen (target: never), and with live countdowns on screen. Each
/// countdown's update is a libnotify call that waits for its reply, so countdowns cost per
/// countdown: the targets are at most 5 a second with one, and at most 3 a second per countdown
/// with 5 and with 20.
///
/// `threadsBySession` is the idle cost by thread in the three sessions issue #45 names — 0 alarms
/// and 2,000 alarms with dunst and PulseAudio, and no sound server at all — so that a thread that
/// starts waking (a reconnect timer, a file monitor's poll) shows by its name, run after run.
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

    // MARK: Idle wake-ups by thread, three sessions

    /// The sessions of `threadsBySession`, in the order they are measured and shown.
    enum IdleSession: String, Codable, CaseIterable, Sendable {
        case noAlarms = "0 alarms"
        case manyAlarms = "2,000 alarms"
        case noSoundServer = "no sound server"

        /// The column heading: the session as the issue describes it.
        var heading: String {
            switch self {
            case .noAlarms: "0 alarms (dunst, PulseAudio)"
            case .manyAlarms: "2,000 alarms (dunst, PulseAudio)"
            case .noSoundServer: "0 alarms, no sound server (dunst)"
            }
        }
    }

    /// How many far-future alarms the second session holds.
    static let manyAlarmCount = 2000

    /// One session's idle window, thread by thread.
    struct ThreadCounts: Codable, Sendable {
        let session: IdleSession
        /// Wake-ups per minute of the whole agent; `nil` when not measured.
        let perMinute: Double?
        /// Wake-ups per minute by thread name (/proc/PID/task/TID/comm), every thread alive at the
        /// end of the window, those that did not wake included (as 0).
        let byThread: [String: Double]
        let windowSeconds: Double
        /// Involuntary switches in the window (not wake-ups; see `ProcessActivity.WakeupCount`).
        let preemptions: Int
        let endedThreads: Int
        /// Why it was not measured, when it was not.
        let problem: String?
    }

    /// The three sessions' counts of one run, as the JSON keeps them (`idleThreads`) for the
    /// next run to show beside its own.
    struct ThreadTable: Codable, Sendable {
        var sessions: [ThreadCounts] = []
    }

    /// Measures the three sessions: dunst and PulseAudio with 0, then 2,000 alarms (one session,
    /// one agent), then a session of its own whose sound server is stopped before its agent
    /// starts. Returns a figure per session (target 0) and the table by thread.
    static func threadsBySession(tools: BenchTools, plan: BenchPlan) -> (figures: [Figure], table: ThreadTable) {
        var table = ThreadTable()
        func failed(_ session: IdleSession, _ error: Error) {
            table.sessions.append(ThreadCounts(session: session, perMinute: nil, byThread: [:], windowSeconds: plan.idleWindow.seconds,
                                               preemptions: 0, endedThreads: 0, problem: "\(error)"))
        }
        do {
            let bench = try BenchmarkSession(tools: tools, label: "bench-idle")
            defer { bench.session.stop() }
            table.sessions.append(threadCounts(of: bench.agent, session: .noAlarms, plan: plan))
            do {
                let requests = ManyAlarms.farFutureRequests(count: manyAlarmCount, titlePrefix: "bench-idle")
                let scheduled = try bench.bulkClient.schedule(requests)
                guard scheduled.errors.isEmpty else { throw BenchError("Schedule refused: \(scheduled.errors[0])") }
                let held = try bench.alarmCount()
                guard held == manyAlarmCount else { throw BenchError("the agent holds \(held) alarms, not \(manyAlarmCount)") }
                // The journal written and the memory trimmed a second after the last call.
                Thread.sleep(forTimeInterval: 2)
                table.sessions.append(threadCounts(of: bench.agent, session: .manyAlarms, plan: plan))
            } catch {
                failed(.manyAlarms, error)
            }
        } catch {
            failed(.noAlarms, error)
            failed(.manyAlarms, error)
        }
        do {
            let bench = try BenchmarkSession(tools: tools, label: "bench-idle-nosound")
            defer { bench.session.stop() }
            // The agent starts again with the server gone, as on a machine that has none.
            bench.session.stopSoundServer()
            bench.stopAgent()
            try bench.startAgent()
            table.sessions.append(threadCounts(of: bench.agent, session: .noSoundServer, plan: plan))
        } catch {
            failed(.noSoundServer, error)
        }
        let figures = table.sessions.map { counts in
            let label = "agent wake-ups per minute by thread, \(counts.session.heading) (\(plan.idleWindowText))"
            guard let perMinute = counts.perMinute else {
                return Figure.notMeasured(counts.problem ?? "not measured", section: section, label: label, unit: "wake-ups/min")
            }
            let busy = counts.byThread.filter { $0.value > 0 }.sorted { $0.value > $1.value }
                .map { "\($0.key) \(Report.number($0.value))" }.joined(separator: ", ")
            var notes = busy.isEmpty ? [] : ["by thread, per minute: \(busy)"]
            if counts.preemptions > 0 { notes.append("\(counts.preemptions) involuntary context switch(es) besides") }
            if counts.endedThreads > 0 { notes.append("\(counts.endedThreads) thread(s) ended during the window (not counted)") }
            return Figure(section: section, label: label, unit: "wake-ups/min", outcome: .value(perMinute),
                          target: Target(statistic: .value, limit: 0, unit: "wake-ups/min"),
                          note: notes.isEmpty ? nil : notes.joined(separator: "; "))
        }
        return (figures, table)
    }

    /// The agent's wake-ups by thread over one idle window, after a settling second.
    private static func threadCounts(of agent: SessionProcess, session: IdleSession, plan: BenchPlan) -> ThreadCounts {
        // Settles what starting or scheduling set going; libdispatch's workers retire after ~5 s.
        Thread.sleep(forTimeInterval: 6)
        // For whoever watches from outside meanwhile (strace -f -p, perf trace).
        FileHandle.standardError.write(Data("tocsin-bench: idle window, \(session.rawValue), agent PID \(agent.pid)\n".utf8))
        guard let counted = ProcessActivity.wakeupsPerMinute(of: [agent.pid], over: plan.idleWindow) else {
            return ThreadCounts(session: session, perMinute: nil, byThread: [:], windowSeconds: plan.idleWindow.seconds,
                                preemptions: 0, endedThreads: 0, problem: "the agent exited during the window")
        }
        return ThreadCounts(session: session, perMinute: counted.perMinute,
                            byThread: counted.byThreadName.mapValues { Double($0) * 60 / counted.elapsedSeconds },
                            windowSeconds: plan.idleWindow.seconds, preemptions: counted.preemptions,
                            endedThreads: counted.endedThreads, problem: nil)
    }

    /// The table by thread: a row per thread name, a column per session, and beside each the
    /// previous run's figure when `previous` (the last run's JSON) has one.
    static func threadTableMarkdown(_ table: ThreadTable, previous: ThreadTable?) -> [String] {
        let sessions = IdleSession.allCases
        let counts = Dictionary(table.sessions.map { ($0.session, $0) }, uniquingKeysWith: { $1 })
        let before = Dictionary((previous?.sessions ?? []).map { ($0.session, $0) }, uniquingKeysWith: { $1 })
        let threads = Set(table.sessions.flatMap(\.byThread.keys) + (previous?.sessions ?? []).flatMap(\.byThread.keys)).sorted()
        let showsPrevious = previous != nil
        func cell(_ value: Double?, problem: String?) -> String {
            value.map(Report.number) ?? (problem == nil ? "–" : "not measured")
        }
        var lines: [String] = []
        var heading = "| thread |"
        var rule = "|---|"
        for session in sessions {
            heading += " \(session.heading) |"
            rule += "---:|"
            if showsPrevious {
                heading += " previous run |"
                rule += "---:|"
            }
        }
        lines.append(heading)
        lines.append(rule)
        func row(_ name: String, _ value: (ThreadCounts?) -> Double?) {
            var line = "| \(name) |"
            for session in sessions {
                line += " \(cell(value(counts[session]), problem: counts[session]?.problem)) |"
                if showsPrevious { line += " \(cell(value(before[session]), problem: before[session]?.problem)) |" }
            }
            lines.append(line)
        }
        row("**all threads**") { $0?.perMinute }
        for thread in threads {
            // "–": no thread of that name in that session.
            row(thread) { $0?.byThread[thread] }
        }
        return lines
    }
}
