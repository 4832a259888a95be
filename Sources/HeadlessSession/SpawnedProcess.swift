import CSpawn
import Foundation

/// A child process started with `posix_spawn`, and its exit status — what the session, the tests
/// and the demo use instead of Foundation's `Process`.
///
/// Why not `Process`: on Linux its `run()` looks for the highest open descriptor by reading
/// /proc/self/fd, and copies a fixed 256 bytes of each entry's name although glibc's entries are
/// only as long as the name; when the last entry sits at the end of a mapped page the copy reads
/// past it and the whole test process dies with SIGSEGV (swift-corelibs-foundation#5472, fixed
/// only after Swift 6.3). Here it crashed the integration suite in `Process.run()` called from
/// `SessionProcess.launch`, in 1 of 4 runs of `scripts/test` before this type existed; which run
/// it hits depends on how many descriptors are open, not on timing, so no lock around `run()`
/// avoids it.
///
/// The child gets /dev/null as standard input, no descriptor of the parent beyond 0–2 (closed
/// with `posix_spawn_file_actions_addclosefrom_np` instead of a scan of /proc/self/fd), no
/// blocked signals and default signal handlers (a child of a Dispatch worker thread would
/// otherwise ignore SIGTERM for its whole life), and optionally a process group of its own.
/// A thread of its own waits for it with `waitpid` on its pid alone, so its exit is seen at once
/// and no other child's status is ever taken.
///
/// `@unchecked Sendable`: `pid` is immutable and the exit status lives behind `ExitState`'s lock.
public final class SpawnedProcess: @unchecked Sendable {
    /// Where a standard output or error stream goes.
    public enum Output {
        /// Nowhere.
        case null
        /// Into a file, created or emptied first.
        case file(URL)
        /// Into the writing end of a pipe whose reading end the caller keeps.
        case pipe(Pipe)
        /// Into an open file the caller keeps (both streams may share one).
        case fileHandle(FileHandle)
        /// Wherever the parent's goes.
        case inherit
    }

    /// The child's process id (also its process group's, when it has one of its own).
    public let pid: pid_t
    private let exit = ExitState()

    /// Starts `executable` (an absolute path) with `arguments`, in `environment` (this process's
    /// when `nil`), in `currentDirectory` (this process's when `nil`), and returns once it runs.
    /// Its standard input is /dev/null, or the reading end of `standardInput`.
    public init(
        _ executable: URL, _ arguments: [String] = [], environment: [String: String]? = nil,
        currentDirectory: URL? = nil, standardInput: Pipe? = nil,
        standardOutput: Output = .inherit, standardError: Output = .inherit, ownProcessGroup: Bool = true
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let standardInput {
            posix_spawn_file_actions_adddup2(&actions, standardInput.fileHandleForReading.fileDescriptor, 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        for (output, descriptor) in [(standardOutput, Int32(1)), (standardError, Int32(2))] {
            switch output {
            case .null: posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
            case .file(let url): posix_spawn_file_actions_addopen(&actions, descriptor, url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .pipe(let pipe): posix_spawn_file_actions_adddup2(&actions, pipe.fileHandleForWriting.fileDescriptor, descriptor)
            case .fileHandle(let handle): posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, descriptor)
            case .inherit: break
            }
        }
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        if let currentDirectory { posix_spawn_file_actions_addchdir_np(&actions, currentDirectory.path) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var everySignal = sigset_t()
        sigfillset(&everySignal)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        for output in [standardOutput, standardError] {
            // The child holds its own copy of the writing end; the reader must see it close.
            if case .pipe(let pipe) = output { try? pipe.fileHandleForWriting.close() }
        }
        try? standardInput?.fileHandleForReading.close()
        guard result == 0 else {
            throw HeadlessSessionError.componentFailed(
                component: executable.lastPathComponent,
                reason: "could not start \(executable.path): \(String(cString: strerror(result)))", stderrTail: "")
        }
        self.pid = pid
        let exit = exit
        let child = pid
        Thread.detachNewThread {
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            let signal = status & 0x7f
            exit.record(signal == 0 ? (status >> 8) & 0xff : 128 + signal)
        }
    }

    /// The exit status once the child has exited: its exit code, or 128 + the signal number when
    /// a signal ended it (the shell's convention).
    public var terminationStatus: Int32? { exit.status }

    /// Whether the child has not exited yet.
    public var isRunning: Bool { exit.status == nil }

    /// Waits until the child exits or `timeout` passes; returns its status, or `nil` while it runs.
    @discardableResult
    public func waitForExit(timeout: Duration) -> Int32? {
        exit.wait(until: Date().addingTimeInterval(timeout.timeInterval))
    }

    /// Waits until the child exits and returns its status.
    @discardableResult
    public func waitUntilExit() -> Int32 {
        exit.wait()
    }

    /// Runs `executable` to its end and returns its status and standard output (standard error
    /// goes to `standardError`).
    public static func output(
        of executable: URL, _ arguments: [String] = [], environment: [String: String]? = nil, standardError: Output = .null
    ) throws -> (status: Int32, output: String) {
        let pipe = Pipe()
        let child = try SpawnedProcess(executable, arguments, environment: environment, standardOutput: .pipe(pipe), standardError: standardError)
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        return (child.waitUntilExit(), String(decoding: data, as: UTF8.self))
    }
}

/// An exit status, set once from the waiting thread and awaited by callers. `@unchecked
/// Sendable` because every access goes through `condition`.
final class ExitState: @unchecked Sendable {
    private let condition = NSCondition()
    private var storedStatus: Int32?

    var status: Int32? {
        condition.lock()
        defer { condition.unlock() }
        return storedStatus
    }

    func record(_ status: Int32) {
        condition.lock()
        storedStatus = status
        condition.broadcast()
        condition.unlock()
    }

    /// Waits as long as it takes.
    func wait() -> Int32 {
        condition.lock()
        defer { condition.unlock() }
        while storedStatus == nil { condition.wait() }
        return storedStatus!
    }

    func wait(until deadline: Date) -> Int32? {
        condition.lock()
        defer { condition.unlock() }
        while storedStatus == nil {
            if !condition.wait(until: deadline) { break }
        }
        return storedStatus
    }
}
