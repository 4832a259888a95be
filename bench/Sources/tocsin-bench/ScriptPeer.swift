import Foundation
import HeadlessSession

/// The common do-it-yourself timer, measured in the same session:
/// `sleep N; notify-send TITLE "Time is up"; canberra-gtk-play -f BEEP` (canberra-gtk-play comes
/// from Debian's gnome-session-canberra; without it the script uses `paplay`, and says so).
struct ScriptPeer {
    /// What the script's samples gave, in milliseconds after the intended instant.
    struct Delays {
        var toNotification: [Double] = []
        var toFirstAudio: [Double] = []
    }

    let session: HeadlessSession
    let beep: URL
    /// The sound player the script uses, and its name for the table.
    let player: (name: String, command: String)

    init(session: HeadlessSession, beep: URL) {
        self.session = session
        self.beep = beep
        if (try? HeadlessSession.executable("canberra-gtk-play")) != nil {
            player = ("canberra-gtk-play", "canberra-gtk-play -f '\(beep.path)'")
        } else {
            player = ("paplay", "paplay '\(beep.path)'")
        }
    }

    /// The column name in the side-by-side table.
    var toolName: String { "`sleep; notify-send; \(player.name)`" }

    /// The script for a timer of `seconds` whose notification is titled `title`.
    func script(seconds: String, title: String) -> String {
        "sleep \(seconds); notify-send '\(title)' 'Time is up'; \(player.command)"
    }

    /// Runs `count` 1.5 s scripts one after the other (their sounds must not overlap), each with its
    /// own recording (see `SoundDelay` for why). The intended instant is 1.5 s after the
    /// `posix_spawn` of `sh -c`, so the shell's own start-up counts against the script, as it would
    /// for a user.
    func measure(count: Int) throws -> Delays {
        let shell = URL(fileURLWithPath: "/bin/sh")
        var delays = Delays()
        for sample in 0..<count {
            let recording = try session.startRecording()
            let title = "bench-script-\(sample)"
            let started = Date()
            let pid = try ProcessSpawner.spawn(shell, ["-c", script(seconds: "1.5", title: title)], environment: session.environment)
            ProcessSpawner.waitForExit(pid)
            let trace = recording.stop()
            let due = started.addingTimeInterval(1.5)
            if let onset = SoundDelay.onsetDelay(in: trace, rawAudio: recording.rawAudioURL, due: due) {
                delays.toFirstAudio.append(onset)
            }
            if let shown = session.notifications().first(where: { $0.summary == title }) {
                delays.toNotification.append(shown.receivedAt.timeIntervalSince(due) * 1000)
            }
            Thread.sleep(forTimeInterval: 0.3)
        }
        return delays
    }

    /// Starts one script that waits an hour, for the idle and memory figures; returns the shell's
    /// PID and the PIDs of the shell plus its `sleep`. End it with `ProcessSpawner.terminateGroup`.
    func startPending() throws -> (shell: pid_t, processes: [Int32]) {
        let shell = try ProcessSpawner.spawn(URL(fileURLWithPath: "/bin/sh"), ["-c", script(seconds: "3600", title: "bench-script-pending")],
                                             environment: session.environment)
        var children: [Int32] = []
        for _ in 0..<100 where children.isEmpty {
            Thread.sleep(forTimeInterval: 0.01)
            children = ProcessActivity.children(of: shell)
        }
        return (shell, [shell] + children)
    }
}
