import Foundation

/// Where `tocsin` writes: results on standard output, messages for people on standard error.
enum Output {
    /// A line of results, flushed at once so `tocsin watch | …` sees each change as it happens.
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    /// A message for the person at the terminal.
    static func note(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
