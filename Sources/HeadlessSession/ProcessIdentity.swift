import Foundation

/// A process identified by its PID *and* its kernel start time, so a PID that was recycled by an
/// unrelated process after ours died is never mistaken for ours (and never killed).
struct ProcessIdentity: Hashable, Sendable {
    let pid: Int32
    /// Field 22 of /proc/<pid>/stat: clock ticks since boot when the process started.
    let startTicks: UInt64

    /// The identity of the live process `pid`, or nil when it does not exist (or is a zombie).
    static func current(pid: Int32) -> ProcessIdentity? {
        guard let stat = ProcStat.read(pid: pid), stat.state != "Z", stat.state != "X" else { return nil }
        return ProcessIdentity(pid: pid, startTicks: stat.startTicks)
    }

    /// Whether this exact process (same PID, same start time) is still alive.
    var isAlive: Bool { ProcessIdentity.current(pid: pid) == self }

    /// One line of the session's process record, `pid startTicks name`.
    func recordLine(name: String) -> String { "\(pid) \(startTicks) \(name)" }

    /// Parses a line written by `recordLine(name:)`.
    init?(recordLine line: Substring) {
        let fields = line.split(separator: " ", maxSplits: 2)
        guard fields.count >= 2, let pid = Int32(fields[0]), let ticks = UInt64(fields[1]) else { return nil }
        self.init(pid: pid, startTicks: ticks)
    }

    init(pid: Int32, startTicks: UInt64) {
        self.pid = pid
        self.startTicks = startTicks
    }
}

/// The fields of /proc/<pid>/stat the session needs.
struct ProcStat {
    let state: Character
    let startTicks: UInt64
    /// Field 52: the exit status in waitpid(2) form, meaningful once the process is a zombie.
    let exitCode: Int32?
    /// Fields 14 and 15: the processor time it has used, user and system, in clock ticks.
    let cpuTicks: UInt64

    /// Whether the process has exited but was not reaped yet.
    var isZombie: Bool { state == "Z" || state == "X" }

    /// The exit status in the shell convention (code, or 128 + signal), for a zombie.
    var shellExitStatus: Int32? {
        guard isZombie, let exitCode else { return nil }
        let signal = exitCode & 0x7f
        return signal == 0 ? (exitCode >> 8) & 0xff : 128 + signal
    }

    static func read(pid: Int32) -> ProcStat? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return nil }
        // The command name (field 2) is in parentheses and may itself contain spaces or ')',
        // so the remaining fields are counted from the *last* ')'.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let rest = text[text.index(after: close)...].split(separator: " ")
        // rest[0] is field 3 (state); field 22 (starttime) is rest[19].
        guard rest.count > 19, let state = rest[0].first, let ticks = UInt64(rest[19]) else { return nil }
        let exitCode = rest.count > 49 ? Int32(rest[49].trimmingCharacters(in: .whitespacesAndNewlines)) : nil
        // utime and stime are fields 14 and 15: rest[11] and rest[12].
        let cpuTicks = (UInt64(rest[11]) ?? 0) + (UInt64(rest[12]) ?? 0)
        return ProcStat(state: state, startTicks: ticks, exitCode: exitCode, cpuTicks: cpuTicks)
    }
}
