import FoundationEssentials
import TocsinCore

/// The XDG base directories (`XDG_STATE_HOME`, `XDG_CONFIG_HOME`…), as the XDG Base Directory
/// specification says: the variable when it is an absolute path, else its default under HOME.
public enum XDGBaseDirectory {
    /// `$XDG_STATE_HOME`, or `~/.local/state`.
    public static func stateHome(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        home("XDG_STATE_HOME", defaultUnderHome: ".local/state", environment: environment)
    }

    /// `$XDG_CONFIG_HOME`, or `~/.config`.
    public static func configHome(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        home("XDG_CONFIG_HOME", defaultUnderHome: ".config", environment: environment)
    }

    /// `$XDG_DATA_HOME`, or `~/.local/share`.
    public static func dataHome(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        home("XDG_DATA_HOME", defaultUnderHome: ".local/share", environment: environment)
    }

    /// Where data files are looked for, most important first: `dataHome`, then each absolute
    /// path in `$XDG_DATA_DIRS` (`/usr/local/share` and `/usr/share` when it is unset or empty).
    public static func dataDirectories(environment: [String: String] = ProcessInfo.processInfo.environment) -> [String] {
        let listed = (environment["XDG_DATA_DIRS"] ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return [dataHome(environment: environment).path] + (listed.isEmpty ? ["/usr/local/share", "/usr/share"] : listed)
    }

    /// `variable` when it holds an absolute path (a relative one is invalid and ignored), else
    /// `defaultUnderHome` under `$HOME`.
    private static func home(_ variable: String, defaultUnderHome: String, environment: [String: String]) -> URL {
        if let path = environment[variable], path.hasPrefix("/") {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(defaultUnderHome, isDirectory: true)
    }
}
