import Foundation

/// Starts the session's children: logs go to the session's directory and every child is
/// registered so the session can end it. Also runs the short helper commands the session itself
/// needs (xdpyinfo, pactl, dunstctl…), whose scratch output is deleted once read.
struct ChildLauncher: Sendable {
    let layout: SessionLayout
    let registry: ProcessRegistry

    /// Starts a long-running child whose stdout/stderr go to `logs/<name>-<n>.stdout|stderr`
    /// (stdout to a pipe when `standardOutput` says so).
    func launch(
        name: String,
        executable: URL,
        arguments: [String],
        environment: [String: String],
        standardOutput: StandardOutputChoice = .logFile
    ) throws -> SessionProcess {
        let files = layout.logFiles(for: name, sequence: registry.nextSequence())
        let destination: SessionProcess.OutputDestination
        switch standardOutput {
        case .logFile: destination = .file(files.stdout)
        case .pipe(let pipe): destination = .pipe(pipe)
        }
        let process = try SessionProcess.launch(
            name: name, executable: executable, arguments: arguments, environment: environment,
            standardOutput: destination, standardError: files.stderr)
        try registry.register(process)
        return process
    }

    /// Runs `cleanup` when the session stops, after its children have ended.
    func registerCleanup(_ cleanup: @escaping () -> Void) {
        registry.addCleanup(cleanup)
    }

    /// Runs `executable` to completion and returns its status and output.
    /// - Parameter keepLogs: keep the output files in `logs/` (programs the test asked to run)
    ///   instead of deleting them (helper commands polled by the session).
    func run(
        name: String,
        executable: URL,
        arguments: [String],
        environment: [String: String],
        timeout: Duration,
        keepLogs: Bool = false
    ) throws -> CommandResult {
        let sequence = registry.nextSequence()
        let files: (stdout: URL, stderr: URL) = keepLogs
            ? layout.logFiles(for: name, sequence: sequence)
            : (layout.tools.appendingPathComponent("\(name)-\(sequence).stdout"),
               layout.tools.appendingPathComponent("\(name)-\(sequence).stderr"))
        let process = try SessionProcess.launch(
            name: name, executable: executable, arguments: arguments, environment: environment,
            standardOutput: .file(files.stdout), standardError: files.stderr)
        try registry.register(process)
        defer {
            if !keepLogs {
                try? FileManager.default.removeItem(at: files.stdout)
                try? FileManager.default.removeItem(at: files.stderr)
            }
        }
        guard let status = process.waitForExit(timeout: timeout) else {
            process.terminate(grace: .milliseconds(500))
            throw HeadlessSessionError.commandTimedOut(
                command: process.commandLine, timeout: timeout, stderrTail: process.standardErrorTail())
        }
        return CommandResult(status: status, stdout: process.standardOutput(), stderr: process.standardError())
    }

    /// Runs a helper command and throws with its stderr when it fails.
    @discardableResult
    func runChecked(
        _ tool: String,
        _ arguments: [String],
        environment: [String: String],
        timeout: Duration = .seconds(10)
    ) throws -> String {
        let executable = try ExecutableLocator.find(tool, environment: environment)
        let result = try run(name: tool, executable: executable, arguments: arguments,
                             environment: environment, timeout: timeout)
        guard result.succeeded else {
            throw HeadlessSessionError.commandFailed(
                command: ([tool] + arguments).joined(separator: " "), status: result.status,
                stderrTail: LogTail.of(result.stderr))
        }
        return result.stdout
    }

    /// Where a launched child's standard output goes.
    enum StandardOutputChoice {
        case logFile
        /// The session reads the output itself (the audio recorder).
        case pipe(Pipe)
    }
}
