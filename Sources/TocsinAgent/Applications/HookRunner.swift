import CGLib
import FoundationEssentials
import Glibc
import GLibSupport
import TocsinCore

/// Runs an alarm's hook commands with `/bin/sh -c`, without ever blocking the main loop.
///
/// The alarm's details reach the command only through environment variables (`TOCSIN_ID`,
/// `TOCSIN_TITLE`, `TOCSIN_EVENT`, `TOCSIN_APP_ID`, `TOCSIN_METADATA` as JSON, `TOCSIN_FIRE_TIME`
/// as ISO 8601), never spliced into its text, so no title can inject shell syntax. Output goes to the agent's log, line by line and bounded; a command still running
/// after the time limit is killed with its whole process group.
final class HookRunner {
    private let log: AgentLog
    private let timeLimit: Double
    private let outputLimit: Int
    private var running: [pid_t: RunningHook] = [:]

    /// A runner killing hooks after `timeLimit` seconds and logging at most `outputLimit` bytes of each.
    init(log: AgentLog, timeLimit: Double = 60, outputLimit: Int = 16 * 1024) {
        self.log = log
        self.timeLimit = timeLimit
        self.outputLimit = outputLimit
    }

    /// Starts `command` for `event` of `alarm`, which was due at `fireTime`; returns at once.
    func run(_ command: String, event: HookEvent, alarm: Alarm, fireTime: Date?) {
        let label = "\(event.rawValue) hook of “\(alarm.title)”"
        var environment = ProcessInfo.processInfo.environment
        environment["TOCSIN_ID"] = alarm.id.uuidString.lowercased()
        environment["TOCSIN_TITLE"] = alarm.title
        environment["TOCSIN_EVENT"] = event.rawValue
        environment["TOCSIN_APP_ID"] = alarm.owner
        environment["TOCSIN_METADATA"] = alarm.metadata ?? "null"
        environment["TOCSIN_FIRE_TIME"] = fireTime.map { $0.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)) } ?? ""
        do {
            let (pid, output) = try Self.spawn(["/bin/sh", "-c", command], environment: environment)
            let hook = RunningHook(pid: pid, label: label, outputDescriptor: output, outputLimit: outputLimit, log: log)
            running[pid] = hook
            log.info("Running the \(label) (pid \(pid)).")
            watch(hook)
        } catch {
            log.error("Could not run the \(label): \(error.message)")
        }
    }

    private func watch(_ hook: RunningHook) {
        let pid = hook.pid
        hook.outputSource = g_unix_fd_add(hook.outputDescriptor, GIOCondition(G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue), { _, _, userData in
            Unmanaged<RunningHook>.fromOpaque(userData!).takeUnretainedValue().readOutput() ? SourceResult.keep : SourceResult.remove
        }, Unmanaged.passUnretained(hook).toOpaque())
        hook.killTimer = MainLoop.after(seconds: timeLimit) { [log, timeLimit] in
            log.warning("The \(hook.label) ran longer than \(DurationFormat.spoken(timeLimit)) and was killed.")
            kill(-pid, SIGKILL)
        }
        g_child_watch_add_full(G_PRIORITY_DEFAULT, pid, { pid, status, userData in
            let runner = Unmanaged<HookRunner>.fromOpaque(userData!).takeUnretainedValue()
            runner.finished(pid, status: status)
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    private func finished(_ pid: pid_t, status: Int32) {
        guard let hook = running.removeValue(forKey: pid) else { return }
        hook.killTimer?.cancel()
        hook.drain()
        do throws(GLibError) {
            if try GLibError.check({ g_spawn_check_wait_status(status, $0) }) != 0 { log.info("The \(hook.label) finished.") }
        } catch {
            log.warning("The \(hook.label) failed: \(error.message).")
        }
    }

    /// posix_spawn with stdin from /dev/null, stdout and stderr into a pipe, in its own process
    /// group so a time-out can kill everything it started.
    private static func spawn(_ arguments: [String], environment: [String: String]) throws(GLibError) -> (pid_t, Int32) {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            throw GLibError(message: "pipe: \(String(cString: strerror(errno)))")
        }
        // Only the duplicates on 1 and 2 may reach the hook; the agent spawns from one thread.
        _ = fcntl(pipeEnds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(pipeEnds[1], F_SETFD, FD_CLOEXEC)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        close(pipeEnds[1])
        guard result == 0 else {
            close(pipeEnds[0])
            throw GLibError(message: "posix_spawn: \(String(cString: strerror(result)))")
        }
        _ = fcntl(pipeEnds[0], F_SETFL, fcntl(pipeEnds[0], F_GETFL) | O_NONBLOCK)
        return (pid, pipeEnds[0])
    }
}

/// A hook that has been started: its process, its output pipe and what has been logged of it.
private final class RunningHook {
    let pid: pid_t
    let label: String
    let outputDescriptor: Int32
    var outputSource: guint = 0
    var killTimer: TimeoutHandle?
    private let outputLimit: Int
    private let log: AgentLog
    private var loggedBytes = 0
    private var pendingLine = Data()
    private var closed = false

    init(pid: pid_t, label: String, outputDescriptor: Int32, outputLimit: Int, log: AgentLog) {
        self.pid = pid
        self.label = label
        self.outputDescriptor = outputDescriptor
        self.outputLimit = outputLimit
        self.log = log
    }

    deinit {
        closeOutput()
    }

    /// Reads what the hook wrote; returns false once the pipe is closed (the source goes away).
    func readOutput() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(outputDescriptor, &buffer, buffer.count)
            if count > 0 {
                take(buffer[0..<count])
            } else if count < 0 && (errno == EAGAIN || errno == EINTR) {
                return true
            } else {
                flushPendingLine()
                closeOutput()
                return false
            }
        }
    }

    /// Reads whatever is left once the process has exited.
    func drain() {
        guard !closed else { return }
        _ = readOutput()
    }

    private func take(_ bytes: ArraySlice<UInt8>) {
        // Past the limit the output is read and dropped, so a chatty hook cannot grow the agent.
        guard loggedBytes < outputLimit else { return }
        let kept = bytes.prefix(outputLimit - loggedBytes)
        loggedBytes += kept.count
        pendingLine.append(contentsOf: kept)
        while let newline = pendingLine.firstIndex(of: 10) {
            logLine(pendingLine[pendingLine.startIndex..<newline])
            pendingLine.removeSubrange(pendingLine.startIndex...newline)
        }
        if loggedBytes >= outputLimit {
            flushPendingLine()
            log.info("[\(label)] (further output not logged)")
        }
    }

    private func flushPendingLine() {
        if !pendingLine.isEmpty { logLine(pendingLine) }
        pendingLine.removeAll()
    }

    private func logLine(_ line: Data) {
        log.info("[\(label)] \(String(decoding: line, as: UTF8.self))")
    }

    private func closeOutput() {
        guard !closed else { return }
        closed = true
        if outputSource != 0, g_main_context_find_source_by_id(nil, outputSource) != nil {
            g_source_remove(outputSource)
        }
        close(outputDescriptor)
    }
}
