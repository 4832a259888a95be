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
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return .off }
        let settings: PhoneRingSettings
        do {
            settings = try JSONDecoder().decode(PhoneRingSettings.self, from: Data(contentsOf: fileURL))
        } catch {
            throw StoreError("\(fileURL.path) could not be read (\(describeFileError(error)))")
        }
        guard settings.delay >= 0, settings.delay.isFinite else {
            throw StoreError("\(fileURL.path) could not be read (its delay-seconds, \(settings.delay), is not a length of time)")
        }
        return settings
    }

    /// Saves `settings` atomically, creating the directory if needed.
    public func save(_ settings: PhoneRingSettings) throws(StoreError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let data: Data
        do {
            data = try encoder.encode(settings)
            try FileManager.default.createDirectory(at: fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw StoreError("Could not save the phone settings to \(fileURL.path): \(describeFileError(error))")
        }
        do {
            try AtomicFile.write(data, to: fileURL)
        } catch {
            throw StoreError("Could not save the phone settings to \(fileURL.path): \(error.message)")
        }
    }
}
