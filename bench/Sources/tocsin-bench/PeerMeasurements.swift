import Foundation
import HeadlessSession

/// Measures the alternatives to Tocsin in the same session and builds the side-by-side table.
struct PeerMeasurements {
    let plan: BenchPlan
    let session: HeadlessSession

    /// What the peers gave; `atSkipped` says why `at` has no figures, if it has none.
    struct Outcome {
        var at = ToolFigures()
        var atSkipped: String?
        /// Which atd was measured.
        var atdOrigin: String?
        var script = ToolFigures()
        var scriptProblem: String?
    }

    /// Runs the script's samples, then counts the idle wake-ups of `atd` (one job pending) and of a
    /// pending script (its shell and `sleep`) over one shared window, reads their memory, and
    /// collects the `at` jobs' delays.
    func measure(at atPeer: AtPeer?, atProblem: String?, script: ScriptPeer) -> Outcome {
        var outcome = Outcome()
        outcome.atSkipped = atPeer == nil ? (atProblem ?? "atd could not be started") : nil
        outcome.atdOrigin = atPeer?.atdOrigin
        do {
            let delays = try script.measure(count: plan.scriptSamples)
            outcome.script.notification = delays.toNotification
            outcome.script.firstAudio = delays.toFirstAudio
        } catch {
            outcome.scriptProblem = "it failed: \(error)"
        }

        var pending: (shell: pid_t, processes: [Int32])?
        do { pending = try script.startPending() } catch { outcome.scriptProblem = outcome.scriptProblem ?? "it failed: \(error)" }
        var groups: [[Int32]] = []
        if let atPeer { groups.append([atPeer.atdPID]) }
        if let pending { groups.append(pending.processes) }
        if !groups.isEmpty {
            let counted = ProcessActivity.wakeupsPerMinute(ofGroups: groups, over: plan.idleWindow)
            if let atPeer {
                outcome.at.idleWakeups = counted[0]?.perMinute
                outcome.at.residentMB = atPeer.residentKilobytes.map { Memory.megabytes(kibibytes: $0) }
            }
            if let pending {
                outcome.script.idleWakeups = counted[atPeer == nil ? 0 : 1]?.perMinute
                let kilobytes = pending.processes.compactMap(ProcessActivity.residentKilobytes(of:))
                outcome.script.residentMB = kilobytes.count == pending.processes.count
                    ? Memory.megabytes(kibibytes: kilobytes.reduce(0, +)) : nil
            }
        }
        if let pending { ProcessSpawner.terminateGroup(pending.shell) }
        if let atPeer { outcome.at.commandRuns = atPeer.collectDelays() }
        return outcome
    }

    static let section = "Alternatives (same session)"

    /// The peers' own figures for the main table, with their distributions.
    static func figures(_ outcome: Outcome, scriptName: String, plan: BenchPlan) -> [Figure] {
        func value(_ value: Double?, _ label: String, unit: String, missing: String) -> Figure {
            value.map { Figure(section: section, label: label, unit: unit, outcome: .value($0)) }
                ?? .notMeasured(missing, section: section, label: label, unit: unit)
        }
        var figures: [Figure] = []
        if let skipped = outcome.atSkipped {
            figures.append(.notMeasured(skipped, section: section, label: "`at`", unit: ""))
        } else {
            figures += [
                .samples(outcome.at.commandRuns, section: section, label: "`at`: minute boundary → the job's `date +%s.%N` runs",
                         unit: "ms", note: outcome.atdOrigin.map { "measured with \($0)" }, emptyReason: "no at job wrote its file"),
                value(outcome.at.idleWakeups, "`at`: atd wake-ups per minute, one job pending (\(plan.idleWindowText))",
                      unit: "wake-ups/min", missing: "atd exited"),
                value(outcome.at.residentMB, "`at`: atd RSS", unit: "MB", missing: "atd exited"),
            ]
        }
        if let problem = outcome.scriptProblem {
            figures.append(.notMeasured(problem, section: section, label: scriptName, unit: ""))
        } else {
            figures += [
                .samples(outcome.script.notification, section: section,
                         label: "\(scriptName): intended instant → notification reaches the notification server",
                         unit: "ms", emptyReason: "no notification was seen"),
                .samples(outcome.script.firstAudio, section: section,
                         label: "\(scriptName): intended instant → first non-silent audio on the sink (±10 ms)",
                         unit: "ms", emptyReason: "no sound was recorded"),
                value(outcome.script.idleWakeups, "\(scriptName): wake-ups per minute of one pending script (sh + sleep; \(plan.idleWindowText))",
                      unit: "wake-ups/min", missing: "the script exited"),
                value(outcome.script.residentMB, "\(scriptName): RSS of one pending script (sh + sleep)", unit: "MB",
                      missing: "the script exited"),
            ]
        }
        return figures
    }

    /// Why KAlarm has no column of figures in this run.
    func kalarmSkipReason() -> String {
        let why = "KAlarm 22.12 needs 236 Debian packages (~300 MB) and, before its command line accepts an alarm, a running "
            + "Akonadi with MariaDB (which refuses to run as root without a hand-written config) and hand-written calendar "
            + "resources; tocsin-bench does not automate that set-up (the team's peer-tools notes have figures measured by hand)"
        return plan.mode == "quick" ? "not tried with --quick; besides, " + why : "not measured: " + why
    }

    /// The side-by-side table: Tocsin, `at`, the script, KAlarm.
    static func comparison(tocsin: ToolFigures, peers: Outcome, scriptName: String, kalarmSkipped: String) -> PeerComparison {
        typealias Cell = PeerComparison.Cell
        var table = PeerComparison()
        table.columns = [
            .init(tool: "Tocsin", skippedBecause: nil),
            .init(tool: "`at` (atd -d)", skippedBecause: peers.atSkipped),
            .init(tool: scriptName, skippedBecause: peers.scriptProblem),
            .init(tool: "KAlarm", skippedBecause: kalarmSkipped),
        ]
        let kalarm = Cell.notApplicable("skipped")
        let scriptHasNoHook = Cell.notApplicable("n/a (its first command is notify-send)")
        table.rows = [
            .init(metric: "due → a command runs (`date +%s.%N`: Tocsin `fire` hook, `at` job), median", unit: "ms",
                  cells: [.median(tocsin.commandRuns), .median(peers.at.commandRuns), scriptHasNoHook, kalarm]),
            .init(metric: "due → notification reaches the notification server, median", unit: "ms",
                  cells: [.median(tocsin.notification), .notApplicable("n/a (no notification)"), .median(peers.script.notification), kalarm]),
            .init(metric: "due → first audio on the sink, median", unit: "ms",
                  cells: [.median(tocsin.firstAudio), .notApplicable("n/a (no sound)"), .median(peers.script.firstAudio), kalarm]),
            .init(metric: "idle wake-ups per minute while waiting (Tocsin: 100 alarms; `at`: 1 job; script: 1 timer)", unit: "/min",
                  cells: [.measured(tocsin.idleWakeups), .measured(peers.at.idleWakeups), .measured(peers.script.idleWakeups), kalarm]),
            .init(metric: "RSS while waiting (Tocsin agent, 0 alarms; atd; script: sh + sleep, per pending timer)", unit: "MB",
                  cells: [.measured(tocsin.residentMB), .measured(peers.at.residentMB), .measured(peers.script.residentMB), kalarm]),
        ]
        return table
    }
}
