import Foundation
import HeadlessSession

/// The text under the table: the machine, and how each kind of figure was measured.
enum MethodNotes {
    /// "Linux 6.1.0-… x86_64, 2 cores (CPU model), tocsind 0.1.0 (release build); headless session: …".
    static func machineLine(tocsind: URL, session: HeadlessSession) -> String {
        var system = utsname()
        uname(&system)
        func text<T>(_ field: T) -> String {
            withUnsafeBytes(of: field) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        }
        let cpuModel = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        let version = (try? session.run(tocsind, ["--version"]))?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) ?? "tocsind"
        return "Machine: \(text(system.sysname)) \(text(system.release)) \(text(system.machine)), "
            + "\(ProcessInfo.processInfo.activeProcessorCount) cores (\(cpuModel)). \(version), release build. "
            + "Everything runs in one private headless session: dbus-daemon, Xvfb + dunst, PulseAudio with a null sink, "
            + "a `busctl monitor` watching the bus."
    }

    /// The 1-minute load average (/proc/loadavg).
    static func loadAverage() -> Double? {
        (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").first.flatMap { Double($0) }
    }

    /// "Load average (1 min): 0.12 at the start, 1.80 at the end."
    static func loadLine(start: Double?, end: Double?) -> String {
        func text(_ value: Double?) -> String { value.map { String(format: "%.2f", $0) } ?? "?" }
        let line = "Load average (1 min): \(text(start)) at the start, \(text(end)) at the end (the run itself loads the machine; "
            + "a start well above 0 means other work competed for the cores and timing figures suffer)."
        // The bench's own session adds about 1 by the end; more than that at the start is someone else's work.
        guard let start, start >= 1.5 else { return line }
        return "**Warning: the machine was busy when the run started; treat the timing figures as a loaded-machine result "
            + "and run again on a quiet machine.** " + line
    }

    static func notes(plan: BenchPlan, script: String) -> [String] {
        [
            "Fire precision: the due time is each timer's `fire-time` from its `scheduled` signal (known before it fired); "
                + "the alerting transition is the `fired` signal as a `tocsin watch --json` in the session received it (its own clock reading). "
                + "\(plan.firePrecisionTimers) timers of 1–3 s, scheduled \(plan.timersPerBatch) at a time with durations spread evenly over the "
                + "1–3 s range and a per-batch offset, each ringing a 0.4 s beep until all of its batch fired and were stopped over D-Bus.",
            "First audio: \(plan.audioSamples) timers one at a time, each ringing a 16-bit WAV beep that starts at full level "
                + "(made with sox; the default alarm-clock-elapsed starts with ~270 ms of near-silence). Each timer has its own recording of "
                + "the null sink's monitor (`parec`; one long recording drifts early each time a stream starts); the onset is the first sample above 2 % of full scale in the first 10 ms window with RMS > 0.01 after due − 100 ms, "
                + "timed when the sink rendered it (HeadlessSession's estimate of the stream's start; good to about ±10 ms). The same timers' `fire` hook runs `date +%s.%N > FILE`, the command-runs delay compared with `at`.",
            "Wake-ups: voluntary context switches (a thread slept and was woken) summed over every thread in /proc/PID/task/*/status, "
                + "the same count for Tocsin and its peers; involuntary switches (a running thread preempted, e.g. by the bus daemon it just "
                + "wrote to) wake nothing from idle and are given in the notes, not counted; "
                + "counted over windows of \(plan.idleWindowText) with no client talking to the agent; threads are matched by id, a thread "
                + "started during the window counts from zero, one that ended (a worker retiring after the previous step) is noted, not counted. "
                + "Countdown windows use "
                + "one-hour timers; 20 countdowns means 20 notifications updated every second, all in the same wake-up.",
            "Memory: VmRSS of the agent from /proc/PID/status (1 MB = 10^6 bytes); the peak VmHWM is in the notes.",
            "10,000 alarms: 1,000 alarms are scheduled over D-Bus first (timed: the 1,000-alarm figure); with the agent stopped, the bench "
                + "clones those agent-written entries in alarms.json (new id and title, everything else as the agent saved it) up to 10,000, "
                + "and the agent loads them at start-up (`tocsin status` must report 10,000). The agent is stopped with SIGTERM, which folds its "
                + "journal into alarms.json; the run checks no journal is left. Start-up is launch → first `tocsin status` that answers (the "
                + "agent answers only once every alarm is loaded); launch → first `tocsin list` adds the command line's own time. RSS with "
                + "10,000 alarms is read 2 s after start-up and 2 s after the lists, once the agent has trimmed its heap.",
            "Scheduling over D-Bus: bench/Helpers/tocsin-dbus.py (Debian's python3-gi, i.e. GDBus like Tocsin's own client) makes every "
                + "call from one process on one connection, one after the other, each waiting for its reply; the time runs from the first call "
                + "to the last reply (interpreter start-up excluded). It identifies itself as the application \(BulkDBusClient.appID), which "
                + "the bench allows once with `tocsin auth grant`; the agent runs with `--app-alarm-limit \(BenchmarkSession.appAlarmLimit)` "
                + "because one application may hold only 100 alarms by default.",
            "`tocsin list`: the release binary spawned with posix_spawn and timed to waitpid, output to /dev/null, back to back.",
            "Live-activity jitter: for every countdown notification update seen by the bus monitor during the countdown windows, "
                + "update time − the whole second it is due at. The agent updates every countdown together on the clock's whole seconds, "
                + "showing the remaining time rounded to the nearest second, so the update showing d s is due at the first whole second "
                + "after fire time − d − ½ s; an update a whole second late counts as 1,000 ms.",
            "`at`: `atd -d` started in the session; \(plan.atJobs) jobs at consecutive minute boundaries (`at -t` has minute granularity), "
                + "queued at the start so they run in the background while Tocsin is measured, each writing `date +%s.%N`; plus one job "
                + "tomorrow so atd has work pending while its idle cost is counted.",
            "Script: `\(script)` started with posix_spawn; the intended instant is 1.5 s after the "
                + "spawn, so the shell's start-up counts against it. Its notification is timed on the bus like Tocsin's, its sound on the sink. "
                + "Idle cost and memory are those of one pending script (`sh` + `sleep 3600`), i.e. per timer, while Tocsin's cover all alarms.",
            "GNOME Clocks: not measured (optional; not attempted).",
            "Targets are printed as PASS/FAIL for information; the run never fails because of them.",
        ]
    }
}
