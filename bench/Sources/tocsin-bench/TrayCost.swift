import Foundation
import HeadlessSession

/// What the tray item costs the agent: its wake-ups while a real panel hosts the item — waybar's
/// tray in headless sway, which is the session's StatusNotifierWatcher and reads the item back
/// (properties, menu layout) each time it changes — beside the same agent run with `--no-tray`,
/// in the same session: with nothing running, and with one countdown on screen. The item changes
/// once a second with the countdown, in the wake-up that updates its notification.
///
/// It needs its own session: the main one has dunst and no panel, and waybar needs sway (whose
/// notification server is mako), so these figures are beside each other, not beside the
/// countdown figures measured with dunst.
enum TrayCost {
    static let section = "Tray item"

    /// Starts the session with waybar's tray, then for `--no-tray` and for the default (the item
    /// shown) an agent of its own: the idle figure, then one countdown's.
    static func figures(tools: BenchTools, plan: BenchPlan) throws -> [Figure] {
        let session = try HeadlessSession(label: "bench-tray", notificationServer: .mako)
        defer { session.stop() }
        let bar = try session.startWaybar(
            configuration: #"{ "layer": "top", "position": "bottom", "height": 32, "modules-left": ["tray"] }"#,
            style: "window#waybar { background: #FFFFFF; }")
        guard waitFor(timeout: .seconds(10), { watcherItems(in: session) != nil }) else {
            throw BenchError("waybar's tray did not become the StatusNotifierWatcher: \(bar.standardError())")
        }
        var figures: [Figure] = []
        for showsItem in [false, true] {
            let how = showsItem ? "item shown in waybar's tray" : "--no-tray"
            let state = session.directory.appendingPathComponent("tray-cost-\(showsItem ? "item" : "none")")
            let agent = try session.launch(tools.tocsind, ["--state-dir", state.path] + (showsItem ? [] : ["--no-tray"]))
            defer { agent.terminate(grace: .seconds(5)) }
            guard waitFor(timeout: .seconds(15), { (try? session.run(tools.tocsin, ["list"]))?.succeeded == true }) else {
                throw BenchError("the agent (\(how)) did not answer: \(agent.standardError())")
            }
            Thread.sleep(forTimeInterval: 1)
            figures.append(wakeups(of: agent, over: plan.idleWindow, perSecond: false,
                                   label: "agent wake-ups per minute, nothing running, \(how) (\(plan.idleWindowText))", target: 0))

            let timer = try session.run(tools.tocsin, ["timer", "1h", "--title", "bench-tray"])
            guard timer.succeeded else { throw BenchError("tocsin timer: \(timer)") }
            let hosted = waitFor(timeout: .seconds(5)) { watcherItems(in: session)?.contains("StatusNotifierItem-") == true }
            guard hosted == showsItem else {
                throw BenchError(showsItem ? "the tray never registered the agent's item" : "an item in the tray with --no-tray")
            }
            // The first notification, the registration and the host's first reads settle first.
            Thread.sleep(forTimeInterval: 1.5)
            figures.append(wakeups(of: agent, over: plan.idleWindow, perSecond: true,
                                   label: "agent wake-ups per second, 1 countdown on screen (mako), \(how) (\(Int(plan.idleWindow.seconds)) s window)",
                                   target: 5))
            _ = try? session.run(tools.tocsin, ["cancel", timer.stdout.trimmingCharacters(in: .whitespacesAndNewlines)])
        }
        return figures
    }

    /// The agent's wake-ups over `window`, per minute or per second.
    private static func wakeups(of agent: SessionProcess, over window: Duration, perSecond: Bool, label: String, target: Double) -> Figure {
        let unit = perSecond ? "wake-ups/s" : "wake-ups/min"
        guard let counted = ProcessActivity.wakeupsPerMinute(of: [agent.pid], over: window) else {
            return .notMeasured("the agent exited during the window", section: section, label: label, unit: unit)
        }
        return Figure(section: section, label: label, unit: unit, outcome: .value(perSecond ? counted.perMinute / 60 : counted.perMinute),
                      target: Target(statistic: .value, limit: target, unit: unit), note: IdleCost.endedThreadsNote(counted))
    }

    /// The watcher's RegisteredStatusNotifierItems as gdbus prints it; `nil` while there is no watcher.
    private static func watcherItems(in session: HeadlessSession) -> String? {
        let got = try? session.run(URL(fileURLWithPath: "/usr/bin/gdbus"), [
            "call", "--session", "-d", "org.kde.StatusNotifierWatcher", "-o", "/StatusNotifierWatcher",
            "-m", "org.freedesktop.DBus.Properties.Get", "--", "org.kde.StatusNotifierWatcher", "RegisteredStatusNotifierItems"])
        return got?.succeeded == true ? got?.stdout : nil
    }

    /// Polls `condition` every 100 ms until it holds or `timeout` passes.
    private static func waitFor(timeout: Duration, _ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return condition()
    }
}
