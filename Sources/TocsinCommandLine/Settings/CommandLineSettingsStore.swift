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
        try JSONFile.load(CommandLineSettings.self, from: fileURL) ?? .defaults
    }

    /// Saves `settings` atomically, creating the directory if needed.
    func save(_ settings: CommandLineSettings) throws(StoreError) {
        try JSONFile.save(settings, to: fileURL, what: "the settings")
    }
}
