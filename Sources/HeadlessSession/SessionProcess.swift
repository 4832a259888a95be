import Foundation

/// A program running inside a headless session, with its output captured to files.
///
/// Every process is started in its own process group (Foundation's `Process` does that on Linux),
/// so signals are sent to the whole group: helper children a program forks die with it.
///
/// Exit detection does not rely on Foundation alone. On Linux, Foundation notices a child's exit
/// through a socket the child inherits and then calls a *blocking* `waitpid` on its single
/// process-manager thread; a program that closes inherited descriptors (pulseaudio does) looks
/// exited at once, and that `waitpid` then stalls exit detection for every `Process` in the test
/// process until the program really exits. So the session wraps such programs (see
/// `ChildLauncher`), and this class also reads the exit from /proc (a zombie's status is in
/// /proc/<pid>/stat) when Foundation's termination handler is late.
///
/// `@unchecked Sendable`: the only mutable state is the exit status, kept in `ExitState` behind a
/// condition lock; `Process` itself is touched only at launch and in its termination handler.
public final class SessionProcess: @unchecked Sendable {
    /// A short name for logs and error messages (the executable's name by default).
    public let name: String
    /// The process ID (also the ID of the process group it leads).
    public let pid: Int32
    /// The command line, for error messages.
    public let commandLine: String
    /// The file that receives the standard output (`/dev/null` when the session consumes it itself).
    public let standardOutputURL: URL
    /// The file that receives the standard error.
    public let standardErrorURL: URL

    /// Kept so Foundation keeps monitoring the child for its termination handler.
    private let process: Process
    private let exitState: ExitState
    /// PID plus start time, to tell our process from a later one that reuses the PID.
    /// Nil if the child exited before it could be read.
    private let identity: ProcessIdentity?

    /// Where a child's standard output goes.
    enum OutputDestination {
        case file(URL)
        /// The session reads the output itself (the audio recorder).
        case pipe(Pipe)
    }

    /// Starts `executable` with exactly `environment` and returns once it is running.
    static func launch(
        name: String,
        executable: URL,
        arguments: [String],
        environment: [String: String],
        standardOutput: OutputDestination,
        standardError: URL
    ) throws -> SessionProcess {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        // Children never read the test's own stdin.
        process.standardInput = FileHandle.nullDevice

        let outputURL: URL
        switch standardOutput {
        case .file(let url):
            process.standardOutput = try Self.createLogFile(url)
            outputURL = url
        case .pipe(let pipe):
            process.standardOutput = pipe
            outputURL = URL(fileURLWithPath: "/dev/null")
        }
        process.standardError = try Self.createLogFile(standardError)

        let commandLine = ([executable.path] + arguments).joined(separator: " ")
        let exitState = ExitState()
        // Set before run() so an instant exit is never missed.
        process.terminationHandler = { finished in
            let status = finished.terminationReason == .uncaughtSignal
                ? 128 + finished.terminationStatus
                : finished.terminationStatus
            exitState.record(status)
        }
        do {
            try SignalMask.withAllSignalsUnblocked { try process.run() }
        } catch {
            throw HeadlessSessionError.componentFailed(
                component: name, reason: "could not launch \(commandLine): \(error)", stderrTail: "")
        }
        let pid = process.processIdentifier
        return SessionProcess(
            name: name, pid: pid,
            identity: ProcStat.read(pid: pid).map { ProcessIdentity(pid: pid, startTicks: $0.startTicks) },
            process: process, exitState: exitState,
            commandLine: commandLine, standardOutputURL: outputURL, standardErrorURL: standardError)
    }

    private init(
        name: String, pid: Int32, identity: ProcessIdentity?, process: Process, exitState: ExitState,
        commandLine: String, standardOutputURL: URL, standardErrorURL: URL
    ) {
        self.name = name
        self.pid = pid
        self.identity = identity
        self.process = process
        self.exitState = exitState
        self.commandLine = commandLine
        self.standardOutputURL = standardOutputURL
        self.standardErrorURL = standardErrorURL
    }

    /// Whether the process has not exited yet.
    public var isRunning: Bool { currentStatus() == nil }

    /// The exit status once the process has exited: its exit code, or 128 + the signal number
    /// when a signal ended it (the shell convention).
    public var terminationStatus: Int32? { currentStatus() }

    /// Sends `signal` to the process and the helpers in its process group (no-op once it has exited).
    public func kill(signal: Int32) {
        guard isRunning else { return }
        // The group first so forked helpers die too; the PID alone if the group is already gone.
        if Foundation.kill(-processGroupID, signal) != 0 {
            _ = Foundation.kill(processGroupID, signal)
        }
    }

    /// Asks the process to exit (SIGTERM) and kills it (SIGKILL) if it is still running after `grace`.
    public func terminate(grace: Duration = .seconds(1)) {
        kill(signal: SIGTERM)
        if waitForExit(timeout: grace) == nil {
            kill(signal: SIGKILL)
            _ = waitForExit(timeout: .seconds(2))
        }
    }

    /// Waits until the process exits or `timeout` passes.
    /// - Returns: the exit status (see `terminationStatus`), or nil if it is still running.
    @discardableResult
    public func waitForExit(timeout: Duration) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout.timeInterval)
        while true {
            if let status = currentStatus() { return status }
            let now = Date()
            if now >= deadline { return nil }
            // Short slices so an exit Foundation is slow to report is still seen from /proc.
            _ = exitState.wait(until: min(deadline, now.addingTimeInterval(0.02)))
        }
    }

    /// The exit status from Foundation's handler, or else from /proc.
    private func currentStatus() -> Int32? {
        if let status = exitState.status { return status }
        guard let identity else { return nil }  // /proc was unreadable at launch; rely on the handler
        guard let stat = ProcStat.read(pid: pid), stat.startTicks == identity.startTicks else {
            // Reaped (by Foundation, whose handler is about to run) or the PID now belongs to
            // another process: ours is gone either way.
            return exitState.wait(until: Date().addingTimeInterval(0.2)) ?? -1
        }
        return stat.shellExitStatus
    }

    /// Everything the process has written to standard output so far.
    public func standardOutput() -> String { Self.read(standardOutputURL) }

    /// Everything the process has written to standard error so far.
    public func standardError() -> String { Self.read(standardErrorURL) }

    /// The last lines of standard error, for error messages.
    func standardErrorTail(lines: Int = 15) -> String { LogTail.of(standardErrorURL, maxLines: lines) }

    private var processGroupID: Int32 { pid }

    private static func read(_ url: URL) -> String {
        guard let data = try? Data(contentsOf: url) else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    private static func createLogFile(_ url: URL) throws -> FileHandle {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw HeadlessSessionError.componentFailed(
                component: "session directory", reason: "cannot create log file \(url.path)", stderrTail: "")
        }
        return try FileHandle(forWritingTo: url)
    }
}

/// The exit status, set once from Foundation's termination handler (another thread) and awaited by
/// callers. `@unchecked Sendable` because every access goes through `condition`.
private final class ExitState: @unchecked Sendable {
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

    func wait(until deadline: Date) -> Int32? {
        condition.lock()
        defer { condition.unlock() }
        while storedStatus == nil {
            if !condition.wait(until: deadline) { break }
        }
        return storedStatus
    }
}
