import Foundation
import HeadlessSession

/// The demo on the user's own desktop session: the real notification server shows the countdown,
/// the real sound server rings, and the user presses Stop (or the demo stops it after a while).
struct DesktopDemo {
    let title = "Pasta (Tocsin demo)"

    /// Whether this process runs in a desktop session with a notification server.
    static func desktopIsAvailable() -> Bool {
        guard let bus = ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"], !bus.isEmpty else { return false }
        let check = run("/usr/bin/gdbus", ["call", "--session", "--dest", "org.freedesktop.DBus", "--object-path", "/org/freedesktop/DBus",
                                           "--method", "org.freedesktop.DBus.NameHasOwner", "org.freedesktop.Notifications"])
        return check.status == 0 && check.output.contains("true")
    }

    func run() throws {
        Narrator.step("Using your desktop session's notification and sound servers")
        var startedAgent: SpawnedProcess?
        if Self.run(try DemoPrograms.url("tocsin").path, ["list"]).status == 3 {
            let agent = try SpawnedProcess(try DemoPrograms.url("tocsind"))
            startedAgent = agent
            Narrator.observe("agent", "started tocsind (pid \(agent.pid)); it stops when the demo ends")
            Thread.sleep(forTimeInterval: 0.5)
        } else {
            Narrator.observe("agent", "your Tocsin agent is already running")
        }
        defer { if let startedAgent { kill(startedAgent.pid, SIGTERM) } }

        let watch = try SpawnedProcess(try DemoPrograms.url("tocsin"), ["watch"])
        defer { kill(watch.pid, SIGTERM) }

        Narrator.step("tocsin timer 5s --title \"\(title)\" --snooze 1m — watch the notification count down")
        let schedule = Self.run(try DemoPrograms.url("tocsin").path, ["timer", "5s", "--title", title, "--snooze", "1m"])
        guard schedule.status == 0 else { throw DemoError("tocsin timer failed: \(schedule.output)") }
        let id = schedule.output.split(separator: "\n").first.map(String.init) ?? ""

        Narrator.step("When it rings, press Stop on the notification (the demo stops it itself after 20 s)")
        for _ in 0..<250 {
            Thread.sleep(forTimeInterval: 0.1)
            if Self.run(try DemoPrograms.url("tocsin").path, ["show", id]).status != 0 {
                Narrator.observe("tocsin", "the timer is gone: stopped")
                Self.doctor()
                return
            }
        }
        _ = Self.run(try DemoPrograms.url("tocsin").path, ["stop", id])
        Narrator.observe("tocsin", "stopped it with “tocsin stop \(id.prefix(8))”")
        Self.doctor()
    }

    /// What `tocsin doctor` says of this desktop, as the last step.
    private static func doctor() {
        Narrator.step("tocsin doctor: what your desktop gives alarms")
        guard let tocsin = try? DemoPrograms.url("tocsin").path else { return }
        Narrator.quote(run(tocsin, ["doctor"]).output)
    }

    private static func run(_ path: String, _ arguments: [String]) -> (status: Int32, output: String) {
        let pipe = Pipe()
        let process: SpawnedProcess
        do { process = try SpawnedProcess(URL(fileURLWithPath: path), arguments, standardOutput: .pipe(pipe), standardError: .pipe(pipe)) } catch { return (127, "\(error)") }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        return (process.waitUntilExit(), String(decoding: data, as: UTF8.self))
    }
}
