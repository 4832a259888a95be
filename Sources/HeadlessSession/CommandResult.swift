/// The outcome of a program run to completion inside a session.
public struct CommandResult: Sendable, CustomStringConvertible {
    /// Exit code, or 128 + the signal number if a signal ended the program.
    public let status: Int32
    /// Everything the program wrote to standard output.
    public let stdout: String
    /// Everything the program wrote to standard error.
    public let stderr: String

    /// Creates a result (normally made by `HeadlessSession.run`).
    public init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    /// Whether the program exited with status 0.
    public var succeeded: Bool { status == 0 }

    /// The status and both outputs, for test failure messages.
    public var description: String { "status \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
}
