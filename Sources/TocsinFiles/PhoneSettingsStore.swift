import FoundationEssentials
import TocsinCore

/// Keeps `PhoneRingSettings` in `$XDG_CONFIG_HOME/tocsin/phone.json`: the command line writes it,
/// the agent reads it (and follows its changes).
public struct PhoneSettingsStore: Sendable {
    /// The file.
    public let fileURL: URL

    /// A store in `directory` (by default Tocsin's configuration directory).
    public init(directory: URL = PhoneSettingsStore.defaultDirectory()) {
        fileURL = directory.appendingPathComponent("phone.json")
    }

    /// `$XDG_CONFIG_HOME/tocsin`, or `~/.config/tocsin`.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        XDGBaseDirectory.configHome(environment: environment).appendingPathComponent("tocsin", isDirectory: true)
    }

    /// The saved settings; `.off` when there is no file. Throws, saying why, when the file exists
    /// and cannot be read: the caller decides (the agent rings no phone and says so; the command
    /// line refuses to write over it).
    public func load() throws(StoreError) -> PhoneRingSettings {
        guard let settings = try JSONFile.load(PhoneRingSettings.self, from: fileURL) else { return .off }
        guard settings.delay >= 0, settings.delay.isFinite else {
            throw StoreError("\(fileURL.path) could not be read (its delay-seconds, \(settings.delay), is not a length of time)")
        }
        return settings
    }

    /// Saves `settings` atomically, creating the directory if needed.
    public func save(_ settings: PhoneRingSettings) throws(StoreError) {
        try JSONFile.save(settings, to: fileURL, what: "the phone settings")
    }
}
