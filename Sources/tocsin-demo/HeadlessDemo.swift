import Foundation
import HeadlessSession

/// The demo on a built-in headless session: everything a user would see and hear is observed
/// for real (notifications on the bus to dunst, sound on PulseAudio's null sink), and the Stop
/// button is clicked through dunst's own action menu.
struct HeadlessDemo {
    /// Where to save a screenshot of the live countdown, if anywhere.
    let screenshotURL: URL?
    let title = "Pasta"

    func run() throws {
        Narrator.step("Starting a private headless desktop: D-Bus session bus, Xvfb with the dunst notification server, PulseAudio with a null sink")
        let session = try HeadlessSession(label: "demo")
        defer { session.stop() }
        Narrator.observe("session", "ready in \(session.startupDuration) on display \(session.display)")

        Narrator.step("Starting the agent, tocsind")
        let agent = try session.launch(try DemoPrograms.url("tocsind"), ["--state-dir", session.directory.appendingPathComponent("state").path])
        try waitForAgent(in: session)
        Narrator.observe("agent", "serving io.github.tocsin.Agent (pid \(agent.pid))")

        let recording = try session.startRecording()
        Narrator.step("tocsin timer 5s --title \(title) --snooze 1m")
        let schedule = try session.run(try DemoPrograms.url("tocsin"), ["timer", "5s", "--title", title, "--snooze", "1m"])
        guard schedule.status == 0 else { throw DemoError("tocsin timer failed: \(schedule.stderr)") }
        Narrator.observe("tocsin", "id \(schedule.stdout.trimmingCharacters(in: .whitespacesAndNewlines)); \(schedule.stderr.trimmingCharacters(in: .whitespacesAndNewlines))")

        Narrator.step("Watching the live activity: one notification, updated in place every second")
        var seen = 0
        var alert: ObservedNotification?
        let deadline = Date().addingTimeInterval(12)
        while alert == nil && Date() < deadline {
            let notifications = session.notifications().filter { $0.summary == title }
            for notification in notifications.dropFirst(seen) {
                describe(notification)
                if notification.urgency == 2 { alert = notification }
                if seen == 1, let screenshotURL {
                    try session.screenshot(to: screenshotURL)
                    trimBlackBorder(of: screenshotURL)
                    Narrator.observe("screen", "screenshot saved to \(screenshotURL.path)")
                }
            }
            seen = notifications.count
            Thread.sleep(forTimeInterval: 0.05)
        }
        guard let alert else { throw DemoError("the timer did not ring within 12 s; agent log:\n\(agent.standardError())") }

        Thread.sleep(forTimeInterval: 1.5)
        let ringing = recording.currentTrace()
        let ringLevel = ringing.rms(from: alert.receivedAt, to: Date())
        Narrator.observe("sound", String(format: "the alarm rings through PulseAudio: level %.3f (RMS, 0 = silence); first sound %.0f ms after the alert",
                                         ringLevel, ((ringing.firstLoudWindow(after: alert.receivedAt.addingTimeInterval(-0.1)) ?? alert.receivedAt).timeIntervalSince(alert.receivedAt)) * 1000))

        Narrator.step("Clicking Stop on the notification (through dunst's action menu, as a user would)")
        let clicked = Date()
        _ = try session.clickAction(label: "Stop", onNotification: alert.id)
        _ = try session.waitForNotificationClosed(id: alert.id, timeout: .seconds(5))
        Narrator.observe("dunst", "notification \(alert.id) closed")
        Thread.sleep(forTimeInterval: 1.5)
        let trace = recording.stop()
        Narrator.observe("sound", String(format: "after Stop: level %.4f — %@", trace.rms(from: clicked.addingTimeInterval(0.5), to: clicked.addingTimeInterval(1.5)),
                                         trace.isSilent(from: clicked.addingTimeInterval(0.5), to: clicked.addingTimeInterval(1.5)) ? "silent" : "NOT silent"))
        let list = try session.run(try DemoPrograms.url("tocsin"), ["list"])
        Narrator.observe("tocsin", "list: \(list.stderr.isEmpty ? list.stdout : list.stderr)".trimmingCharacters(in: .whitespacesAndNewlines))
        Narrator.step("tocsin doctor: what this session gives alarms")
        let doctor = try session.run(try DemoPrograms.url("tocsin"), ["doctor"])
        Narrator.quote(doctor.stdout + doctor.stderr)
        Narrator.step("Done. The agent's log:")
        Narrator.quote(agent.standardError())
    }

    private func describe(_ notification: ObservedNotification) {
        let urgency = notification.urgency == 2 ? "critical" : "normal"
        let progress = notification.value.map { ", progress \($0)%" } ?? ""
        let buttons = notification.actions.map(\.label).joined(separator: " | ")
        Narrator.observe("dunst", "#\(notification.id) \(urgency): \(notification.summary) — \(notification.body)\(progress)  [\(buttons)]")
    }

    /// Crops the empty black desktop around the notification (ImageMagick's -trim).
    private func trimBlackBorder(of url: URL) {
        let convert = try? SpawnedProcess(URL(fileURLWithPath: "/usr/bin/convert"),
                                          [url.path, "-trim", "+repage", "-bordercolor", "black", "-border", "12", url.path])
        convert?.waitUntilExit()
    }

    private func waitForAgent(in session: HeadlessSession) throws {
        for _ in 0..<200 {
            if try session.run(try DemoPrograms.url("tocsin"), ["list"]).status == 0 { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw DemoError("the agent did not start within 10 s")
    }
}
