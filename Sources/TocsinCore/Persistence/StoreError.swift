/// Saving or reading a file of Tocsin's failed (the alarms, the settings, the answers); the
/// message says why and where. A plain value: the files are read and written in TocsinFiles.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// One sentence for the log or the caller.
    public let message: String

    /// Creates an error with `message`.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
