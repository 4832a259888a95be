@testable import TocsinCommandLine

/// Keeps what a command wrote: standard output (results and lines alike) and standard error.
final class RecordedOutput: CommandOutput {
    private(set) var stdout = ""
    private(set) var stderr = ""

    func result(_ text: String) { stdout += text + "\n" }
    func line(_ text: String) { stdout += text + "\n" }
    func note(_ text: String) { stderr += text + "\n" }
}
