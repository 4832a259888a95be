import Foundation
import HeadlessSession

/// Runs every measurement of one benchmark, in one headless session, in an order where each step
/// leaves the agent in the state the next one needs, and gathers the figures.
///
/// A step that fails records "not measured" with the error for its figures and the run goes on:
/// one broken measurement must not hide the others.
final class BenchmarkRun {
    private let plan: BenchPlan
    private let tools: BenchTools
    private let steps: Set<BenchStep>
    private var figures: [Figure] = []
    /// What the side-by-side table needs from the Tocsin steps.
    private var tocsinSide = ToolFigures()
    /// When the run began, for its duration and the elapsed time in progress lines.
    private let began = ContinuousClock.now

    init(plan: BenchPlan, tools: BenchTools, steps: Set<BenchStep> = Set(BenchStep.allCases)) {
        self.plan = plan
        self.tools = tools
        self.steps = steps
    }

    /// Measures everything and returns the results (the session is gone when it returns).
    func execute() throws -> BenchResults {
        let started = Date()
        let loadAtStart = MethodNotes.loadAverage()
        progress("starting the headless session and the agent")
        let bench = try BenchmarkSession(tools: tools)
        defer { bench.session.stop() }
        let beep = try SoundDelay.makeBeep(in: bench.session)

        // at's jobs are queued first: they fire at the next minute boundaries in the background.
        var atPeer: AtPeer?
        var atProblem: String?
        if steps.contains(.peers) {
            do { atPeer = try AtPeer(session: bench.session, count: plan.atJobs) } catch { atProblem = "\(error)" }
        }

        if steps.contains(.empty) { measureWithNothingScheduled(bench) }
        if steps.contains(.fire) { measureFiring(bench, beep: beep) }
        if steps.contains(.countdowns) { measureCountdowns(bench) }
        if steps.contains(.frozen) {
            progress("GetStatus and Stop while an alarm rings beside two frozen media players")
            attempt(FrozenNeighbours.section, "GetStatus and Stop with frozen media players", unit: "ms") {
                try FrozenNeighbours.figures(in: bench, tools: tools, rounds: plan.frozenRounds)
            }
        }
        if steps.contains(.output) {
            progress("due → sound at the output, unmuted and muted, on PulseAudio and on PipeWire (sessions of their own)")
            attempt(OutputDelay.section, "due → first audio at the output", unit: "ms") { try OutputDelay.figures(tools: tools) }
        }
        if steps.contains(.lockScreen) {
            progress("due → lit display and due → title shown on a locked screen (Plasma's locker, xscreensaver; sessions of their own)")
            attempt(LockScreenDelay.section, "due → lit display, due → title on the lock screen", unit: "s") {
                try LockScreenDelay.figures(tools: tools, samples: plan.lockSamples)
            }
        }
        if steps.contains(.many) { measureManyAlarms(bench) }
        var idleThreads: IdleCost.ThreadTable?
        if steps.contains(.idle) {
            progress("idle wake-ups by thread: 0 and \(IdleCost.manyAlarmCount) alarms, then no sound server (sessions of their own)")
            let measured = IdleCost.threadsBySession(tools: tools, plan: plan)
            figures += measured.figures
            idleThreads = measured.table
        }
        if steps.contains(.tray) {
            progress("the tray item in waybar's tray (a session of its own, with sway and mako)")
            attempt(TrayCost.section, "wake-ups with the tray item shown", unit: "wake-ups/s") {
                try TrayCost.figures(tools: tools, plan: plan)
            }
        }
        if steps.contains(.gnomeLockScreen) {
            progress("due → lit display and → title readable on a locked GNOME Shell 43 and 48 (a shell per ring)")
            attempt(GnomeLockScreenDelay.section, "due → lit locked screen", unit: "ms") { try GnomeLockScreenDelay.figures(tools: tools, plan: plan) }
        }

        let script = ScriptPeer(session: bench.session, beep: beep)
        let peers = PeerMeasurements(plan: plan, session: bench.session)
        var peerOutcome = PeerMeasurements.Outcome()
        if steps.contains(.peers) {
            progress("measuring the alternatives")
            peerOutcome = peers.measure(at: atPeer, atProblem: atProblem, script: script)
            atPeer?.removeJobs()
            figures += PeerMeasurements.figures(peerOutcome, scriptName: script.toolName, plan: plan)
        } else {
            peerOutcome.atSkipped = "not run (--only)"
            peerOutcome.scriptProblem = "not run (--only)"
        }

        let loadAtEnd = MethodNotes.loadAverage()
        let comparison = PeerMeasurements.comparison(
            tocsin: tocsinSide, peers: peerOutcome, scriptName: script.toolName, kalarmSkipped: peers.kalarmSkipReason())
        return BenchResults(
            startedAt: started, durationSeconds: (ContinuousClock.now - began).seconds, plan: plan,
            machine: MethodNotes.machineLine(tocsind: tools.tocsind, session: bench.session) + " "
                + MethodNotes.loadLine(start: loadAtStart, end: loadAtEnd),
            loadAverageAtStart: loadAtStart, loadAverageAtEnd: loadAtEnd,
            figures: figures, comparison: comparison, idleThreads: idleThreads,
            howMeasured: MethodNotes.notes(
                plan: plan, script: script.script(seconds: "1.5", title: "bench-script-N").replacingOccurrences(of: beep.path, with: "beep.wav")))
    }

    // MARK: Steps

    /// Idle cost, memory and `tocsin list` with no alarm at all.
    private func measureWithNothingScheduled(_ bench: BenchmarkSession) {
        progress("idle agent, 0 alarms")
        add(IdleCost.idleFigure(in: bench, plan: plan, what: "0 alarms"))
        let memory = Memory.residentFigure(of: bench.agent.pid, what: "0 alarms")
        tocsinSide.residentMB = memory.singleValue
        add(memory)
        attempt(Latency.section, "`tocsin list` end to end, 0 alarms", unit: "ms") {
            [try Latency.listFigure(in: bench, runs: plan.listRuns, what: "0 alarms")]
        }
    }

    /// Fire precision of many overlapping timers, then sound and hooks one timer at a time.
    private func measureFiring(_ bench: BenchmarkSession, beep: URL) {
        progress("fire precision: \(plan.firePrecisionTimers) timers, \(plan.timersPerBatch) at a time")
        attempt(FirePrecision.section, "due → `fired` signal", unit: "ms") {
            let measured = try FirePrecision.measure(in: bench, plan: plan, sound: beep)
            tocsinSide.notification = measured.delays.toRingingNotification
            return measured.figures
        }
        progress("fire precision: first audio, \(plan.audioSamples) timers one at a time")
        attempt(SoundDelay.section, "due → first audio", unit: "ms") {
            let measured = try SoundDelay.measure(in: bench, plan: plan, sound: beep)
            tocsinSide.firstAudio = measured.audio.summary?.samples ?? []
            tocsinSide.commandRuns = measured.hook.summary?.samples ?? []
            return [measured.audio, measured.hook]
        }
    }

    /// Wake-ups with 1 and 20 live countdowns, and the jitter of their per-second updates.
    private func measureCountdowns(_ bench: BenchmarkSession) {
        progress("live countdowns on screen: 1, then 20")
        var windows: [IdleCost.CountdownWindow] = []
        attempt(IdleCost.section, "wake-ups with countdowns on screen", unit: "wake-ups/s") {
            windows = try IdleCost.countdownWindows(in: bench, plan: plan)
            return windows.map(\.figure)
        }
        let notifications = bench.session.notifications()
        for window in windows { add(Jitter.figure(for: window, notifications: notifications)) }
    }

    /// 100 alarms, then 1,000 scheduled from empty, then 10,000 saved: scheduling cost, idle
    /// cost, memory, start-up and `tocsin list` with many alarms.
    private func measureManyAlarms(_ bench: BenchmarkSession) {
        progress("100 alarms far in the future")
        attempt(Latency.section, "schedule 100 alarms", unit: "s") {
            let requests = ManyAlarms.farFutureRequests(count: 100, titlePrefix: "bench-hundred")
            return [try Latency.bulkScheduleFigure(in: bench, requests: requests, what: "alarms far in the future", target: nil).figure]
        }
        let idle = IdleCost.idleFigure(in: bench, plan: plan, what: "100 alarms far in the future")
        tocsinSide.idleWakeups = idle.singleValue
        add(idle)
        attempt(Latency.section, "`tocsin list` end to end, 100 alarms", unit: "ms") {
            [try Latency.listFigure(in: bench, runs: plan.listRuns, what: "100 alarms")]
        }

        progress("1,000 alarms scheduled over D-Bus from an empty agent")
        attempt(Latency.section, "schedule 1,000 alarms", unit: "s") {
            bench.stopAgent()
            // The snapshot and the journal both, or the 100 alarms above would come back.
            try? FileManager.default.removeItem(at: bench.stateFile)
            try? FileManager.default.removeItem(at: bench.journalFile)
            try bench.startAgent()
            let requests = ManyAlarms.farFutureRequests(count: 1000, titlePrefix: "bench-thousand")
            let measured = try Latency.bulkScheduleFigure(in: bench, requests: requests, what: "alarms far in the future",
                                                          target: Target(statistic: .value, limit: 1, unit: "s"))
            return [measured.figure, Memory.residentFigure(of: bench.agent.pid, what: "1,000 alarms (just scheduled over D-Bus)")]
        }

        let many = 10_000
        progress("10,000 alarms saved: start-up, memory, idle, list")
        attempt(Latency.section, "agent start-up with 10,000 alarms saved", unit: "ms") {
            // A terminated agent folds its journal into alarms.json, so the snapshot holds all 1,000.
            bench.stopAgent()
            let leftOver = (try? Data(contentsOf: bench.journalFile))?.count ?? 0
            guard leftOver == 0 else {
                throw BenchError("the stopped agent left changes in \(bench.journalFile.lastPathComponent) instead of folding them into alarms.json")
            }
            try ManyAlarms.expandStateFile(bench.stateFile, to: many)
            try bench.startAgent()
            let held = try bench.alarmCount()
            guard held == many else { throw BenchError("the agent loaded \(held) alarms instead of \(many)") }
            return [
                // The agent's start-up is until it answers; `tocsin status` asks the least of it.
                // The `list` probe adds the command line's own time to print 10,000 alarms.
                try Latency.startupFigure(in: bench, runs: plan.startupRuns, probe: ["status"], held: many,
                                          target: Target(statistic: .median, limit: 300, unit: "ms")),
                try Latency.startupFigure(in: bench, runs: plan.startupRuns, probe: ["list"], held: many, target: nil),
            ]
        }
        guard (try? bench.alarmCount()) == many else {
            let reason = "the agent did not hold 10,000 alarms (see the start-up row)"
            add(.notMeasured(reason, section: Memory.section, label: "agent RSS, 10,000 alarms", unit: "MB",
                             target: Target(statistic: .value, limit: 25, unit: "MB")))
            add(.notMeasured(reason, section: IdleCost.section, label: "agent wake-ups per minute, 10,000 alarms", unit: "wake-ups/min"))
            add(.notMeasured(reason, section: Latency.section, label: "`tocsin list` end to end, 10,000 alarms", unit: "ms"))
            return
        }
        // Settled: the agent trims what loading left over a second after it.
        Thread.sleep(forTimeInterval: 2)
        add(Memory.residentFigure(of: bench.agent.pid, what: "10,000 alarms (loaded at start-up, 2 s before)",
                                  target: Target(statistic: .value, limit: 25, unit: "MB")))
        add(IdleCost.idleFigure(in: bench, plan: plan, what: "10,000 alarms far in the future"))
        attempt(Latency.section, "`tocsin list` end to end, 10,000 alarms", unit: "ms") {
            [try Latency.listFigure(in: bench, runs: plan.listRunsWithManyAlarms, what: "10,000 alarms (for scale: the target is for everyday use)", target: nil)]
        }
        // The agent gives the memory of a large reply back a second after the last one.
        Thread.sleep(forTimeInterval: 2)
        add(Memory.residentFigure(of: bench.agent.pid, what: "10,000 alarms, 2 s after the `tocsin list` runs",
                                  target: Target(statistic: .value, limit: 25, unit: "MB")))
        attempt(Latency.section, "one Schedule call with 10,000 alarms held", unit: "ms") {
            [try Latency.scheduleCallFigure(in: bench, calls: plan.schedulesAtManyAlarms, held: many)]
        }
    }

    // MARK: Bookkeeping

    private func add(_ figure: Figure) { figures.append(figure) }

    /// Runs a step; if it throws, records one "not measured" figure with the error instead.
    private func attempt(_ section: String, _ label: String, unit: String, _ step: () throws -> [Figure]) {
        do {
            figures += try step()
        } catch {
            add(.notMeasured("\(error)", section: section, label: label, unit: unit))
        }
    }

    /// Tells the person waiting what is being measured, with the time since the start.
    private func progress(_ text: String) {
        let elapsed = Int((ContinuousClock.now - began).seconds)
        FileHandle.standardError.write(Data("tocsin-bench [\(elapsed / 60):\(String(format: "%02d", elapsed % 60))] \(text)…\n".utf8))
    }
}
