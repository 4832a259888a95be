import FoundationEssentials

/// Brings state files written by older versions of Tocsin up to the current format, one version
/// at a time, on the JSON itself: each step names exactly what changed in the file.
public enum StateFileMigration {
    /// The format version this build writes.
    public static let currentVersion = 2

    /// `data`, a state file of format `version`, rewritten in the current format.
    public static func migrate(_ data: Data, from version: Int) throws -> Data {
        guard var file = try JSONDecoder().decode(JSONValue.self, from: data).object else {
            throw MigrationError("the top level is not an object")
        }
        var version = version
        while version < currentVersion {
            file = try step(from: version, file)
            version += 1
            file["format"] = .integer(version)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(file)
    }

    /// Turns a file of `version` into the next version.
    private static func step(from version: Int, _ file: [String: JSONValue]) throws -> [String: JSONValue] {
        switch version {
        case 1: try fromVersion1(file)
        default: throw MigrationError("there is no way to read format version \(version)")
        }
    }

    /// Version 2 added alarms on schedules: every alarm gained a late limit, and countdowns say
    /// whether they follow the wall clock (version 1 had only timers, which never do).
    private static func fromVersion1(_ file: [String: JSONValue]) throws -> [String: JSONValue] {
        guard let alarms = file["alarms"]?.array?.compactMap(\.object), alarms.count == file["alarms"]?.array?.count else {
            throw MigrationError("“alarms” is not a list of objects")
        }
        var migrated = file
        migrated["alarms"] = .array(alarms.map { alarm in
            var alarm = alarm
            alarm["lateLimit"] = .number(AlarmRequest.defaultLateLimit)
            if var state = alarm["state"]?.object, var countdown = state["countdown"]?.object,
               var phase = countdown["_0"]?.object {
                phase["followsWallClock"] = .bool(false)
                countdown["_0"] = .object(phase)
                state["countdown"] = .object(countdown)
                alarm["state"] = .object(state)
            }
            return .object(alarm)
        })
        return migrated
    }

    private struct MigrationError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
