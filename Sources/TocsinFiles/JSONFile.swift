import FoundationEssentials
import TocsinCore

/// A small JSON file of Tocsin's (settings, answers, a restore record): written whole and
/// atomically, keys sorted so that a person can read and compare it. `package`: the command
/// line keeps its own settings file with it too.
package enum JSONFile {
    /// Writes `value` to `url` atomically, creating its directory if need be; `what` names the
    /// content in the error ("the phone settings").
    package static func save<Value: Encodable>(_ value: Value, to url: URL, what: String) throws(StoreError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data: Data
        do {
            data = try encoder.encode(value)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw StoreError("Could not save \(what) to \(url.path): \(describeFileError(error))")
        }
        do {
            try AtomicFile.write(data, to: url)
        } catch {
            throw StoreError("Could not save \(what) to \(url.path): \(error.message)")
        }
    }

    /// The `Value` in `url`; `nil` when there is no file. Throws, saying why, when the file exists
    /// and cannot be read: the caller decides what to do, and never writes over it unread.
    package static func load<Value: Decodable>(_ type: Value.Type, from url: URL) throws(StoreError) -> Value? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try JSONDecoder().decode(type, from: Data(contentsOf: url))
        } catch {
            throw StoreError("\(url.path) could not be read (\(describeFileError(error)))")
        }
    }
}
