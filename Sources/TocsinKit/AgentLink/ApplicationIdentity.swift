import Foundation
import TocsinCore

/// Works out which application this process is, for `AlarmManager.shared`.
enum ApplicationIdentity {
    /// The environment variable that names the application explicitly. The agent sets it for the
    /// hooks it runs, so an app that a hook starts again speaks for the same application.
    static let overrideVariable = "TOCSIN_APP_ID"

    /// `TOCSIN_APP_ID`, else `FLATPAK_ID` (inside a Flatpak sandbox the agent accepts no other
    /// id), else the executable's file name as the agent reads it from `/proc`.
    static func current(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        for variable in [overrideVariable, "FLATPAK_ID"] {
            if let value = environment[variable], !value.isEmpty { return value }
        }
        return usableID(from: executableName())
    }

    /// The executable's file name: `/proc/self/exe` first, as the agent identifies callers by it,
    /// then `argv[0]`.
    private static func executableName() -> String {
        let path = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first ?? ""
        return (path as NSString).lastPathComponent.replacingOccurrences(of: " (deleted)", with: "")
    }

    /// The absolute path of this program, which the agent may start to perform the app's intents
    /// while it is not running; `nil` when it cannot be known or was deleted (an upgrade replaced it).
    static func executablePath() -> String? {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
              path.hasPrefix("/"), !path.hasSuffix(" (deleted)") else { return nil }
        return path
    }

    /// `name` as an application id: characters an id may not hold become `-` (an executable called
    /// "my cook" is "my-cook"), so the manager can always identify itself.
    static func usableID(from name: String) -> String {
        if let valid = try? AppAuthorizations.validatedAppID(name) { return valid }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")
        let replaced = String(name.map { allowed.contains($0) ? $0 : "-" }.prefix(255))
        return replaced.isEmpty ? "unknown" : replaced
    }
}
