import FoundationEssentials
import TocsinCore

/// Keeps `OutputRaiseSettings` in `$XDG_CONFIG_HOME/tocsin/output.json`, beside the phone's:
/// `tocsin config raise-output` and `ring-level` write it, the agent reads it and follows its
/// changes. They are the agent's settings, not the command line's: alarms an application sets
/// follow them too.
public struct OutputRaiseSettingsStore: Sendable {
    /// The file.
    public let fileURL: URL

    /// A store in `directory` (by default Tocsin's configuration directory).
    public init(directory: URL = PhoneSettingsStore.defaultDirectory()) {
        fileURL = directory.appendingPathComponent("output.json")
    }

    /// The saved settings; `.standard` (raise, to 70 %) when there is no file. Throws, saying
    /// why, when the file exists and cannot be read or holds a level outside 1–100: the caller
    /// decides (the agent follows the defaults and says so; the command line refuses to write
    /// over it).
    public func load() throws(StoreError) -> OutputRaiseSettings {
        guard let settings = try JSONFile.load(OutputRaiseSettings.self, from: fileURL) else { return .standard }
        guard OutputRaiseSettings.levels.contains(settings.levelPercent) else {
            throw StoreError("\(fileURL.path) could not be read (its ring-level, \(settings.levelPercent), is not a percentage from 1 to 100)")
        }
        return settings
    }

    /// Saves `settings` atomically, creating the directory if needed.
    public func save(_ settings: OutputRaiseSettings) throws(StoreError) {
        try JSONFile.save(settings, to: fileURL, what: "the output settings")
    }
}
