import Foundation

extension HeadlessSession {
    /// Starts a program inside the session (the session's `environment` merged with
    /// `extraEnvironment`). Its output goes to `logs/<name>-<n>.stdout|stderr` in `directory`;
    /// it is ended by `stop()` if still running.
    public func launch(
        _ executable: URL,
        _ arguments: [String],
        extraEnvironment: [String: String] = [:]
    ) throws -> SessionProcess {
        try ensureRunning()
        return try launcher.launch(
            name: executable.lastPathComponent, executable: executable, arguments: arguments,
            environment: environment.merging(extraEnvironment) { _, extra in extra })
    }

    /// Runs a program inside the session to completion and returns its status and output.
    /// Throws `commandTimedOut` (after killing it) if it runs longer than `timeout`.
    public func run(
        _ executable: URL,
        _ arguments: [String],
        extraEnvironment: [String: String] = [:],
        timeout: Duration = .seconds(20)
    ) throws -> CommandResult {
        try ensureRunning()
        return try launcher.run(
            name: executable.lastPathComponent, executable: executable, arguments: arguments,
            environment: environment.merging(extraEnvironment) { _, extra in extra },
            timeout: timeout, keepLogs: true)
    }
}
