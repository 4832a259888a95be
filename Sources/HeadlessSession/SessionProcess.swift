import Foundation

/// A program running inside a headless session, with its output captured to files.
///
/// Every process is started in its own process group, so signals are sent to the whole group:
/// helper children a program forks die with it. It is a `SpawnedProcess`, not a Foundation
/// `Process` (see there why), so its exit is seen the moment `waitpid` returns it.
///
/// `@unchecked Sendable`: everything is immutable; the exit status lives in `SpawnedProcess`.
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

    private let process: SpawnedProcess

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
        let outputURL: URL
        let output: SpawnedProcess.Output
        switch standardOutput {
        case .file(let url):
            output = .file(url)
            outputURL = url
        case .pipe(let pipe):
            output = .pipe(pipe)
            outputURL = URL(fileURLWithPath: "/dev/null")
        }
        let commandLine = ([executable.path] + arguments).joined(separator: " ")
        let process: SpawnedProcess
        do {
            process = try SpawnedProcess(executable, arguments, environment: environment, standardOutput: output, standardError: .file(standardError))
        } catch {
            throw HeadlessSessionError.componentFailed(
                component: name, reason: "could not launch \(commandLine): \(error)", stderrTail: "")
        }
        return SessionProcess(
            name: name, process: process, commandLine: commandLine, standardOutputURL: outputURL, standardErrorURL: standardError)
    }

    private init(name: String, process: SpawnedProcess, commandLine: String, standardOutputURL: URL, standardErrorURL: URL) {
        self.name = name
        self.pid = process.pid
        self.process = process
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
        process.waitForExit(timeout: timeout)
    }

    private func currentStatus() -> Int32? { process.terminationStatus }

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
}
