import FoundationEssentials
import TocsinCore

/// Keeps the `OutputRecord` — what the agent raised on an output for a ringing alarm, and how it
/// was before — in the state directory, `output-record.json`, from before the output is touched
/// until it is put back: an agent killed mid-ring finds it on its next start and puts the output back.
public struct OutputRecordStore: Sendable {
    /// The file.
    public let fileURL: URL

    /// A store in the agent's state `directory`.
    public init(directory: URL) {
        fileURL = directory.appendingPathComponent("output-record.json")
    }

    /// The record left by an earlier run; `nil` when there is none. Throws, saying why, when the
    /// file cannot be read (the agent then leaves the output as it is, and the file where it is).
    public func load() throws(StoreError) -> OutputRecord? {
        try JSONFile.load(OutputRecord.self, from: fileURL)
    }

    /// Moves an unreadable record aside, to `output-record.json.unreadable-STAMP` beside it, so
    /// that the next raise does not write over what could not be read; returns the new path.
    public func setAside(now: Date) throws(StoreError) -> String {
        let aside = fileURL.deletingLastPathComponent().appendingPathComponent("output-record.json.unreadable-\(setAsideStamp(now))")
        do {
            try FileManager.default.moveItem(at: fileURL, to: aside)
        } catch {
            throw StoreError("Could not move \(fileURL.path) aside: \(describeFileError(error))")
        }
        return aside.path
    }

    /// Saves `record` atomically; `nil` removes the file.
    public func save(_ record: OutputRecord?) throws(StoreError) {
        guard let record else {
            do {
                if FileManager.default.fileExists(atPath: fileURL.path) { try FileManager.default.removeItem(at: fileURL) }
            } catch {
                throw StoreError("Could not remove \(fileURL.path): \(describeFileError(error))")
            }
            return
        }
        try JSONFile.save(record, to: fileURL, what: "what the output was before the alarm raised it")
    }
}
