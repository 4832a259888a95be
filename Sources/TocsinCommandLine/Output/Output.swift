import Foundation

/// Where a command writes: results on standard output, messages for people on standard error.
protocol CommandOutput {
    /// Results (an id, a table, JSON, help) on standard output, through the standard library's
    /// buffer as `print` writes them: a pipe gets them when the command ends.
    func result(_ text: String)
    /// A line of results on standard output, written at once, so `tocsin watch | …` sees each
    /// change as it happens.
    func line(_ text: String)
    /// A message for the person at the terminal, on standard error.
    func note(_ text: String)
}

/// The process's standard output and standard error.
struct StandardStreams: CommandOutput {
    func result(_ text: String) {
        print(text)
    }

    func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
