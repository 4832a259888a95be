import Foundation

/// What the kernel says about a running process in /proc: how often its threads were scheduled
/// (wake-ups) and how much memory it holds.
enum ProcessActivity {
    /// The context switches of one thread: voluntary ones (it slept and was woken: a wake-up) and
    /// involuntary ones (it was running and another task took the CPU).
    struct ContextSwitches {
        var voluntary = 0
        var involuntary = 0
    }

    /// The context switches of each thread of `pid`, by thread id (/proc/PID/task/*/status); nil
    /// when the process is gone.
    static func contextSwitchesByThread(of pid: Int32) -> [Int32: ContextSwitches]? {
        let taskDirectory = "/proc/\(pid)/task"
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: taskDirectory) else { return nil }
        var counts: [Int32: ContextSwitches] = [:]
        for task in tasks {
            guard let thread = Int32(task),
                  let status = procFile("\(taskDirectory)/\(task)/status") else { continue }
            counts[thread] = ContextSwitches(voluntary: field("voluntary_ctxt_switches", in: status) ?? 0,
                                             involuntary: field("nonvoluntary_ctxt_switches", in: status) ?? 0)
        }
        return counts
    }

    /// Resident set size in kB (VmRSS); nil when the process is gone.
    static func residentKilobytes(of pid: Int32) -> Int? {
        status(of: pid).flatMap { field("VmRSS", in: $0) }
    }

    /// The largest resident set size the process ever had, in kB (VmHWM).
    static func peakResidentKilobytes(of pid: Int32) -> Int? {
        status(of: pid).flatMap { field("VmHWM", in: $0) }
    }

    /// Where the resident memory is, in kB: anonymous (RssAnon), of which the main heap
    /// (`[heap]` in smaps) and anonymous mappings besides it (thread arenas, large allocations,
    /// stacks), and mapped files (RssFile: code and data of the binary and its libraries).
    static func residentBreakdown(of pid: Int32) -> (anonymous: Int, heap: Int, file: Int)? {
        guard let status = status(of: pid), let anonymous = field("RssAnon", in: status),
              let file = field("RssFile", in: status),
              let smaps = procFile("/proc/\(pid)/smaps") else { return nil }
        var heap = 0
        var inHeap = false
        for line in smaps.split(separator: "\n") {
            if let first = line.first, first.isHexDigit, line.contains("-") {
                inHeap = line.hasSuffix("[heap]")
            } else if inHeap, line.hasPrefix("Rss:") {
                heap += Int(line.split(separator: " ")[1]) ?? 0
            }
        }
        return (anonymous, heap, file)
    }

    /// The PIDs of `pid`'s direct children (from /proc/*/stat), e.g. the `sleep` a script runs.
    static func children(of pid: Int32) -> [Int32] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { Int32($0) }.filter { candidate in
            guard let stat = try? String(contentsOfFile: "/proc/\(candidate)/stat", encoding: .utf8),
                  let closing = stat.lastIndex(of: ")") else { return false }
            // After "pid (comm)" come state and the parent PID; comm may contain spaces.
            let fields = stat[stat.index(after: closing)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == pid
        }
    }

    /// Wake-ups counted over a window: per minute, the raw count, and how many threads ended during
    /// the window.
    ///
    /// A thread that ends is not counted: what it did before ending is lost with it, and in practice
    /// these are worker threads retiring a few seconds after the previous step's activity
    /// (libdispatch workers after ~5 s idle, GLib's thread pool after ~15 s) — a one-off, which
    /// scaling to a minute would turn into a false rate. They are reported next to the figure.
    ///
    /// A wake-up is a voluntary context switch: the thread waited (poll, a lock, sleep) and was
    /// woken. Involuntary switches — a running thread preempted, typically by the bus daemon it just
    /// wrote to — cost no wake-up from idle; they are counted apart (`preemptions`) and reported.
    struct WakeupCount {
        let perMinute: Double
        let counted: Int
        /// The window as it was measured, in seconds.
        let elapsedSeconds: Double
        /// Involuntary context switches in the window, not part of `counted`.
        let preemptions: Int
        let endedThreads: Int
        /// The count per thread name (/proc/PID/task/TID/comm: "tocsind", "gdbus", "pool"…), to see which
        /// thread does the waking.
        let byThreadName: [String: Int]

        /// "gdbus 24, tocsind 16" — busiest first, threads with no wake-up left out.
        var breakdown: String {
            byThreadName.filter { $0.value > 0 }.sorted { $0.value > $1.value }
                .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        }
    }

    /// Wake-ups of the processes `pids` (summed) over `window`, scaled to a minute; nil when one of
    /// them ended during the window.
    static func wakeupsPerMinute(of pids: [Int32], over window: Duration) -> WakeupCount? {
        wakeupsPerMinute(ofGroups: [pids], over: window)[0]
    }

    /// The same for several groups of processes counted over one shared window (e.g. `atd`, and a
    /// shell script with its `sleep`), one result per group.
    ///
    /// Threads are compared by id: a thread that appears during the window counts from zero (so
    /// threads started again and again are counted), one that ends is reported apart (summing all
    /// threads instead would go negative when a busy thread ends).
    static func wakeupsPerMinute(ofGroups groups: [[Int32]], over window: Duration) -> [WakeupCount?] {
        let clock = ContinuousClock()
        let before = groups.map { $0.map(contextSwitchesByThread(of:)) }
        let started = clock.now
        Thread.sleep(forTimeInterval: window.seconds)
        let after = groups.map { $0.map(contextSwitchesByThread(of:)) }
        let elapsed = (clock.now - started).seconds
        return zip(groups, zip(before, after)).map { pids, snapshots in
            var counted = 0
            var preempted = 0
            var ended = 0
            var byName: [String: Int] = [:]
            for (pid, (first, last)) in zip(pids, zip(snapshots.0, snapshots.1)) {
                guard let first, let last else { return nil }
                for (thread, count) in last {
                    let woke = count.voluntary - (first[thread]?.voluntary ?? 0)
                    counted += woke
                    preempted += count.involuntary - (first[thread]?.involuntary ?? 0)
                    byName[threadName(pid: pid, thread: thread), default: 0] += woke
                }
                ended += first.keys.filter { last[$0] == nil }.count
            }
            return WakeupCount(perMinute: Double(counted) * 60 / elapsed, counted: counted, elapsedSeconds: elapsed, preemptions: preempted,
                               endedThreads: ended, byThreadName: byName)
        }
    }

    /// A thread's name (its comm), or its id when it has gone; the main thread is "main" with its
    /// comm, since threads started from it inherit its comm (libdispatch's workers show as
    /// "tocsind" too, or as "exe" when the session spawned it through /proc).
    private static func threadName(pid: Int32, thread: Int32) -> String {
        let name = (try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/comm", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if thread == pid { return "main (\(name ?? "gone"))" }
        return name ?? "thread \(thread)"
    }

    private static func status(of pid: Int32) -> String? {
        procFile("/proc/\(pid)/status")
    }

    /// A /proc file's whole text. Such files report a size of 0, and `String(contentsOfFile:)`
    /// stops after its first read (about 4 kB): too little for smaps.
    private static func procFile(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return (try? handle.readToEnd()).flatMap { String(decoding: $0, as: UTF8.self) }
    }

    /// The number after `name:` in a /proc status file ("VmRSS:   18432 kB" → 18432).
    private static func field(_ name: String, in status: String) -> Int? {
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            // The value follows a tab and/or spaces: "VmRSS:\t   18432 kB", "voluntary_ctxt_switches:\t11".
            return Int(line.dropFirst(name.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }
}

extension Duration {
    /// The duration in seconds, as a Double.
    var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// The duration in milliseconds, as a Double.
    var milliseconds: Double { seconds * 1000 }
}
