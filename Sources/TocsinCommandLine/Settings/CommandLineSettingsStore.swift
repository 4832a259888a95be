import Foundation
import TocsinCore
import TocsinFiles

/// Keeps `CommandLineSettings` in `$XDG_CONFIG_HOME/tocsin/config.json`, beside the phone's.
struct CommandLineSettingsStore {
    let fileURL: URL

    init(directory: URL = PhoneSettingsStore.defaultDirectory()) {
        fileURL = directory.appendingPathComponent("config.json")
    }

    /// The saved settings; the defaults when there is no file. Throws, saying why, when the file
    /// exists and cannot be read: `tocsin config` then refuses to write over it, and an alarm is
    /// still set, with the defaults and a note.
    func load() throws(StoreError) -> CommandLineSettings {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return .defaults }
        do {
            return try JSONDecoder().decode(CommandLineSettings.self, from: Data(contentsOf: fileURL))
        } catch {
            throw StoreError("\(fileURL.path) could not be read (\(describeFileError(error)))")
        }
    }

    /// Saves `settings` atomically, creating the directory if needed.
    func save(_ settings: CommandLineSettings) throws(StoreError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        do {
            let data = try encoder.encode(settings)
            try FileManager.default.createDirectory(at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
            try AtomicFile.write(data, to: fileURL)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError("Could not save the settings to \(fileURL.path): \(describeFileError(error))")
        }
    }
}
