import Foundation
import Glibc

/// Starts programs with `posix_spawn` directly, for the measurements where Foundation's `Process`
/// would add its own overhead (its monitoring thread, pipes, termination handler hop) to the time
/// being measured: "`tocsin list` end to end" must be exactly fork/exec → exit.
///
/// Children get the session's environment, /dev/null (or a file) as stdin/stdout/stderr, their
/// own process group (so a shell script and the `sleep` it runs can be ended together) and none of
/// this process's other descriptors.
enum ProcessSpawner {
    /// A program that ran to completion and how long it took, from just before `posix_spawn`
    /// until `waitpid` returned.
    struct TimedRun {
        let status: Int32
        let elapsed: Duration
    }

    /// Runs `executable` to completion and times it.
    static func timedRun(_ executable: URL, _ arguments: [String], environment: [String: String],
                         standardOutput: URL? = nil) throws -> TimedRun {
        let clock = ContinuousClock()
        let started = clock.now
        let pid = try spawn(executable, arguments, environment: environment, standardOutput: standardOutput)
        let status = waitForExit(pid)
        return TimedRun(status: status, elapsed: clock.now - started)
    }

    /// Starts `executable` and returns its PID at once; the caller waits for it (`waitForExit`) or
    /// ends it (`terminateGroup`).
    static func spawn(_ executable: URL, _ arguments: [String], environment: [String: String],
                      standardOutput: URL? = nil) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, standardOutput?.path ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Foundation keeps a descriptor per running child to notice its exit; a child of ours that
        // inherited one would delay that notice for the session's servers.
        closeInheritedDescriptors(&actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK))
        posix_spawnattr_setpgroup(&attributes, 0)
        // This process may block signals in some threads; children start with none blocked.
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw BenchError("cannot start \(executable.path): \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// Waits for a child started by `spawn` and returns its exit status (128 + signal when killed).
    @discardableResult
    static func waitForExit(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS are macros Swift cannot import; the layout is fixed on Linux.
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// Ends a child started by `spawn` and every process of its group, then reaps it.
    static func terminateGroup(_ pid: pid_t) {
        _ = kill(-pid, SIGKILL)
        waitForExit(pid)
    }

    /// Adds "close every descriptor from 3 up" to `actions` when the C library offers it
    /// (glibc ≥ 2.34; Swift's Glibc module does not export it, hence the lookup).
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, 3)
    }
}

/// A failure of the benchmark's own set-up (not a figure that missed its target).
struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
