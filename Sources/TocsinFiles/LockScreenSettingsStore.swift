import FoundationEssentials
import TocsinCore

/// Keeps `LockScreenSettings` in `$XDG_CONFIG_HOME/tocsin/lock-screen.json`, beside the phone's
/// and the output's: `tocsin config lock-screen-titles` writes it, the agent reads it and follows
/// its changes.
public struct LockScreenSettingsStore: Sendable {
    /// The file.
    public let fileURL: URL

    /// A store in `directory` (by default Tocsin's configuration directory).
    public init(directory: URL = PhoneSettingsStore.defaultDirectory()) {
        fileURL = directory.appendingPathComponent("lock-screen.json")
    }

    /// The saved settings; `.standard` (titles shown) when there is no file. Throws, saying why,
    /// when the file exists and cannot be read: the caller decides (the agent hides titles and
    /// says so; the command line refuses to write over it).
    public func load() throws(StoreError) -> LockScreenSettings {
        try JSONFile.load(LockScreenSettings.self, from: fileURL) ?? .standard
    }

    /// Saves `settings` atomically, creating the directory if needed.
    public func save(_ settings: LockScreenSettings) throws(StoreError) {
        try JSONFile.save(settings, to: fileURL, what: "the lock-screen settings")
    }
}
