import Foundation
import GLibSupport
import TocsinCore
import TocsinKit

/// `tocsin watch --format waybar|i3blocks|polybar`: a status bar's module. Prints what a panel
/// shows (`PanelSummary`) as one line of the bar's format, each time it changes: at each change
/// the agent announces, and at each whole second of the clock while something counts down — the
/// seconds at which the agent updates the live notification, so both show the same time left.
/// With nothing counting down it sets no timer, and so wakes up for nothing.
final class PanelWatch {
    private let format: PanelFormat
    private let client: any AgentClient
    private let output: any CommandOutput
    private var alarms: [UUID: Alarm] = [:]
    private var agentRunning = false
    /// What the last line showed, its progress left out: like the notification, a line is
    /// printed when the time left or the state changes, not for progress alone.
    private var lastShown: PanelSummary?
    private var tick: TimeoutHandle?

    /// A watch printing lines of `format` on `output`, fed by `client` (on the main loop).
    init(format: PanelFormat, client: any AgentClient, output: any CommandOutput) {
        self.format = format
        self.client = client
        self.output = output
    }

    /// Subscribes to the agent's changes and its comings and goings; the first report of the
    /// agent's presence prints the first line.
    func start() {
        client.watch { [unowned self] change in
            if change.isRemoval { alarms[change.alarm.id] = nil } else { alarms[change.alarm.id] = change.alarm }
            show()
        }
        client.watchAgentPresence { [unowned self] present in
            agentRunning = present
            // Read again when it (re)appears: it may have changed while nobody listened.
            alarms = present ? Dictionary(((try? client.alarms()) ?? []).map { ($0.id, $0) }) { first, _ in first } : [:]
            show()
        }
    }

    /// Prints the line for now if it differs from the last one, and arms the next second's
    /// update while something counts down. The update of a second shows the time left at that
    /// whole second (`onTick`), as the agent's notification update of the same second does.
    private func show(onTick: Bool = false) {
        tick?.cancel()
        tick = nil
        let now = Date()
        var summary = PanelSummary(alarms: Array(alarms.values), now: onTick ? CountdownClock.wholeSecond(atOrBefore: now) : now)
        if !agentRunning && summary.status == .idle {
            summary.lines = ["The Tocsin agent is not running"]
        }
        var shown = summary
        shown.percentage = 0
        if shown != lastShown {
            output.line(summary.line(as: format))
            lastShown = shown
        }
        if summary.changesWithTime {
            tick = MainLoop.after(seconds: CountdownClock.nextTick(after: now).timeIntervalSince(now)) { [unowned self] in show(onTick: true) }
        }
    }
}
