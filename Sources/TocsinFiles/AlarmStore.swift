import FoundationEssentials
import Glibc
import TocsinCore

/// Keeps the alarms on disk in `$XDG_STATE_HOME/tocsin/alarms.json`, so they survive agent restarts.
///
/// Writes are atomic (temporary file, fsync, rename, fsync of the directory): a crash leaves either
/// the old file or the new one, never half of one. A file that cannot be read is moved aside and
/// never overwritten; if it cannot even be moved, the store refuses to save rather than lose it.
public final class AlarmStore: @unchecked Sendable {
    // @unchecked: `unwritableReason` changes only inside `load()`, which the agent calls once at start-up
    // on its main thread before any save.

    /// What `load()` found.
    public enum LoadOutcome: Sendable, Equatable {
        /// No file yet: a first start.
        case empty
        /// The saved alarms.
        case loaded([Alarm])
        /// The saved alarms, read from an older format version; the file is rewritten in the
        /// current format at the next save.
        case migrated([Alarm], fromVersion: Int)
        /// The file could not be read; it was moved to `movedTo` and the agent starts empty.
        case setAside(reason: String, movedTo: URL)
        /// The file could not be read nor moved aside; nothing will be saved until this is fixed.
        case unusable(reason: String)
    }

    /// The directory holding the state file.
    public let directory: URL
    /// The state file.
    public var fileURL: URL { directory.appendingPathComponent("alarms.json") }
    /// False once `load()` met a file it must not overwrite (unreadable and stuck, or newer).
    public var isWritable: Bool { unwritableReason == nil }
    /// Why saving is refused, if it is.
    public private(set) var unwritableReason: String?
    /// The zone the loaded alarms' local times were resolved in, if the file says: when it differs
    /// from the zone now, the zone changed while the agent was not running.
    public private(set) var savedTimeZone: TimeZoneRules?

    /// The version of the file format this build writes and reads.
    public static let formatVersion = StateFileMigration.currentVersion

    /// A store in `directory`.
    public init(directory: URL) {
        self.directory = directory
    }

    /// `$XDG_STATE_HOME/tocsin`, or `~/.local/state/tocsin` when it is unset, as the XDG spec says.
    public static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        XDGBaseDirectory.stateHome(environment: environment).appendingPathComponent("tocsin", isDirectory: true)
    }

    /// Reads the saved alarms. Call once, before the first `save`; `now` dates a file that has to
    /// be set aside.
    public func load(now: Date) -> LoadOutcome {
        let data: Data
        switch Self.read(fileURL) {
        case .missing: return .empty
        case .contents(let contents): data = contents
        case .unreadable(let reason): return setAside(reason: reason, now: now)
        }
        // The fast path: a file in the shape this build writes. Anything else (an older or newer
        // format, a hand edit, damage) goes through JSONDecoder below, which says what is wrong.
        if let file = AlarmJSONReader.snapshot(data), file.format == Self.formatVersion {
            savedTimeZone = file.timeZone.flatMap({ TimeZoneRules(restoring: $0) })
            return .loaded(file.alarms)
        }
        do {
            // The version first, so a file from a newer Tocsin is reported as such, not as corrupt.
            let header = try Self.decoder.decode(StateFileHeader.self, from: data)
            if header.format > Self.formatVersion {
                // Written by a newer Tocsin: leave it exactly where it is for that version, and
                // write nothing over it.
                unwritableReason = "it was written by a newer Tocsin and is left as it is"
                return .unusable(reason: "it was written by a newer Tocsin (format version \(header.format); this one reads up to \(Self.formatVersion)); it is left untouched")
            }
            if header.format < Self.formatVersion {
                let current = try StateFileMigration.migrate(data, from: header.format)
                let file = try Self.decoder.decode(StateFile.self, from: current)
                savedTimeZone = file.timeZone.flatMap({ TimeZoneRules(restoring: $0) })
                return .migrated(file.alarms, fromVersion: header.format)
            }
            let file = try Self.decoder.decode(StateFile.self, from: data)
            savedTimeZone = file.timeZone.flatMap({ TimeZoneRules(restoring: $0) })
            return .loaded(file.alarms)
        } catch {
            return setAside(reason: "it is not a valid Tocsin state file (\(Self.describe(error)))", now: now)
        }
    }

    /// Saves `alarms`, replacing the previous file atomically. On failure the previous file is intact.
    public func save(_ alarms: [Alarm], timeZone: TimeZoneRules? = nil) throws(StoreError) {
        if let unwritableReason {
            throw StoreError("Not saving to \(fileURL.path): \(unwritableReason).")
        }
        // Room for the usual alarm (about 360 bytes of JSON) so the buffer is not copied as it grows.
        var writer = AlarmJSONWriter(capacity: 512 * alarms.count + 64)
        do {
            try writer.writeSnapshot(format: Self.formatVersion, timeZone: timeZone?.identifier, alarms: alarms)
        } catch {
            throw StoreError("Could not encode the alarms: \(error.message).")
        }
        let data = Data(writer.bytes)
        do {
            try AtomicFile.write(data, to: fileURL)
        } catch {
            throw StoreError("Could not save the alarms to \(fileURL.path): \(error.message)")
        }
    }

    /// The file's contents, `nil` when there is none, or why it cannot be read.
    private static func read(_ url: URL) -> FileContents {
        var status = stat()
        guard stat(url.path, &status) == 0 else {
            return errno == ENOENT ? .missing : .unreadable("it could not be examined (\(String(cString: strerror(errno))))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else { return .unreadable("it is not a regular file") }
        do {
            return .contents(try Data(contentsOf: url))
        } catch {
            return .unreadable("it could not be read (\(describeFileError(error)))")
        }
    }

    /// Moves an unreadable file aside under a dated name so it is kept for the user to inspect.
    /// Hard-linking then unlinking, unlike rename, never replaces an earlier set-aside file.
    private func setAside(reason: String, now: Date) -> LoadOutcome {
        let stamp = setAsideStamp(now)
        var failure = "no free name"
        for attempt in 1...100 {
            let suffix = attempt == 1 ? "" : "-\(attempt)"
            let destination = directory.appendingPathComponent("alarms.json.unreadable-\(stamp)\(suffix)")
            if link(fileURL.path, destination.path) == 0 {
                unlink(fileURL.path)
                return .setAside(reason: reason, movedTo: destination)
            }
            if errno == EEXIST { continue }
            failure = String(cString: strerror(errno))
            // Some file systems have no hard links: rename, but only to a name that is free.
            if !FileManager.default.fileExists(atPath: destination.path), rename(fileURL.path, destination.path) == 0 {
                return .setAside(reason: reason, movedTo: destination)
            }
            failure = String(cString: strerror(errno))
            break
        }
        unwritableReason = "the existing file could not be read or moved aside, and it is not overwritten"
        return .unusable(reason: "\(reason), and moving it aside failed: \(failure)")
    }

    /// A coding path as people read it: `alarms[0].state`.
    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.reduce("") { text, key in
            key.intValue.map { "\(text)[\($0)]" } ?? (text.isEmpty ? key.stringValue : "\(text).\(key.stringValue)")
        }
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): context.debugDescription
        case DecodingError.keyNotFound(let key, _): "missing “\(key.stringValue)”"
        case DecodingError.typeMismatch(_, let context): "wrong type at \(path(context.codingPath))"
        case DecodingError.valueNotFound(_, let context): "missing value at \(path(context.codingPath))"
        default: "\(error)"
        }
    }

    private enum FileContents {
        case missing
        case contents(Data)
        case unreadable(String)
    }

    private struct StateFileHeader: Decodable {
        var format: Int
    }

    /// The file's shape as `JSONDecoder` reads it; `AlarmJSONWriter.writeSnapshot` writes it.
    private struct StateFile: Decodable {
        var format: Int
        /// The zone local schedules were resolved in when saved (absent in older files).
        var timeZone: String?
        var alarms: [Alarm]
    }

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .deferredToDate
        return decoder
    }()
}
