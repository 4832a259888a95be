import Foundation

/// Brings state files written by older versions of Tocsin up to the current format, one version
/// at a time, on the JSON itself: each step names exactly what changed in the file.
public enum StateFileMigration {
    /// The format version this build writes.
    public static let currentVersion = 2

    /// `data`, a state file of format `version`, rewritten in the current format.
    public static func migrate(_ data: Data, from version: Int) throws -> Data {
        guard var file = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw MigrationError("the top level is not an object")
        }
        var version = version
        while version < currentVersion {
            file = try step(from: version, file)
            version += 1
            file["format"] = version
        }
        return try JSONSerialization.data(withJSONObject: file, options: [.sortedKeys])
    }

    /// Turns a file of `version` into the next version.
    private static func step(from version: Int, _ file: [String: Any]) throws -> [String: Any] {
        switch version {
        case 1: try fromVersion1(file)
        default: throw MigrationError("there is no way to read format version \(version)")
        }
    }

    /// Version 2 added alarms on schedules: every alarm gained a late limit, and countdowns say
    /// whether they follow the wall clock (version 1 had only timers, which never do).
    private static func fromVersion1(_ file: [String: Any]) throws -> [String: Any] {
        guard let alarms = file["alarms"] as? [[String: Any]] else {
            throw MigrationError("“alarms” is not a list of objects")
        }
        var migrated = file
        migrated["alarms"] = alarms.map { alarm in
            var alarm = alarm
            alarm["lateLimit"] = AlarmRequest.defaultLateLimit
            if var state = alarm["state"] as? [String: Any], var countdown = state["countdown"] as? [String: Any],
               var phase = countdown["_0"] as? [String: Any] {
                phase["followsWallClock"] = false
                countdown["_0"] = phase
                state["countdown"] = countdown
                alarm["state"] = state
            }
            return alarm
        }
        return migrated
    }

    private struct MigrationError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
