import FoundationEssentials
import Glibc
import TocsinCore

/// The changes made since the last snapshot of `alarms.json`, one JSON line each, appended and
/// flushed to disk before a change takes effect.
///
/// Rewriting the whole snapshot for every change costs time in proportion to the number of
/// alarms (tens of milliseconds at 10,000); appending one line costs the same however many there
/// are. `AlarmPersistence` folds the journal back into a new snapshot from time to time.
///
/// A crash can only tear the last line (lines are appended one after another): a last line
/// without its newline is dropped when the journal is read. Any other unreadable line means the
/// file is not what Tocsin wrote; it is moved aside, never overwritten.
public final class AlarmJournal: @unchecked Sendable {
    // @unchecked: used from the agent's main thread only, like AlarmStore.

    /// One change (a line).
    public typealias Change = JournalChange

    /// What reading the journal found.
    public enum ReadOutcome: Sendable, Equatable {
        /// Every line (none, if there is no journal).
        case read([Change])
        /// The lines up to a torn last line, which was dropped.
        case readDroppingTornTail([Change])
        /// The journal could not be read; it was moved to `movedTo`, its changes are not applied.
        case setAside(reason: String, movedTo: URL)
    }

    /// The journal file.
    public let fileURL: URL
    /// How many changes the journal holds.
    public private(set) var count = 0
    /// The journal's length after this process last left it ending on a whole line; `nil` until
    /// then. While the file still has that length, no crash tore its tail since, and the tail
    /// need not be read again before appending.
    private var lengthLeftWhole: off_t?

    /// The journal in `directory`.
    public init(directory: URL) {
        fileURL = directory.appendingPathComponent("alarms.journal")
    }

    /// The changes in the journal, in the order they were made; `now` dates a journal that has to
    /// be set aside.
    public func read(now: Date) -> ReadOutcome {
        lengthLeftWhole = nil
        guard let data = FileManager.default.contents(atPath: fileURL.path) else {
            count = 0
            return .read([])
        }
        var changes: [Change] = []
        let lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let decoder = Self.decoder
        for (index, line) in lines.enumerated() where !line.isEmpty {
            // Every change ends with its newline; text after the last newline is a change a
            // crash cut short (even if it happens to parse), and only there can one be cut.
            if index == lines.count - 1 {
                count = changes.count
                return .readDroppingTornTail(changes)
            }
            // Lines are read by AlarmJSONReader when they are in the shape Tocsin writes, and by
            // JSONDecoder otherwise (a line written by an older version, say).
            guard let change = AlarmJSONReader.change(line) ?? (try? decoder.decode(Change.self, from: Data(line))) else {
                return moveAside(reason: "line \(index + 1) is not a change Tocsin wrote", now: now)
            }
            changes.append(change)
        }
        count = changes.count
        return .read(changes)
    }

    /// Appends `changes` and flushes them to disk.
    public func append(_ changes: [Change]) throws(StoreError) {
        guard !changes.isEmpty else { return }
        var writer = AlarmJSONWriter()
        for change in changes {
            do {
                try writer.write(change)
            } catch {
                throw StoreError("Could not encode a change: \(error.message).")
            }
            writer.writeNewline()
        }
        let data = writer.bytes
        var descriptor = open(fileURL.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        if descriptor < 0 && errno == ENOENT {
            // The directory is made only when missing: looking for it on every change costs.
            let directory = fileURL.deletingLastPathComponent()
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw StoreError("Could not save the alarms to \(fileURL.path): could not create the directory \(directory.path): \(describeFileError(error))")
            }
            descriptor = open(fileURL.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        }
        guard descriptor >= 0 else { throw Self.failure("open", fileURL) }
        defer { close(descriptor) }
        let length = data.count
        // A torn tail left by a crash must not glue onto the first new line: cut it off first.
        let end = lseek(descriptor, 0, SEEK_END)
        let start = end == lengthLeftWhole ? end : Self.endOfLastWholeLine(of: fileURL)
        lengthLeftWhole = nil
        if start != end {
            guard ftruncate(descriptor, start) == 0 else { throw Self.failure("truncate", fileURL) }
        }
        var written = 0
        while written < length {
            let result = data.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, length - written) }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else {
                // Take back the part that made it, so the journal ends on a whole line.
                _ = ftruncate(descriptor, off_t(start))
                throw Self.failure("write to", fileURL)
            }
            written += result
        }
        guard fsync(descriptor) == 0 else {
            _ = ftruncate(descriptor, off_t(start))
            throw Self.failure("flush", fileURL)
        }
        lengthLeftWhole = start + off_t(length)
        count += changes.count
    }

    /// Empties the journal, once its changes are in a snapshot.
    public func clear() {
        unlink(fileURL.path)
        lengthLeftWhole = 0
        count = 0
    }

    /// The offset just past the file's last newline (0 when it has none).
    private static func endOfLastWholeLine(of url: URL) -> off_t {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return 0 }
        defer { close(descriptor) }
        var end = lseek(descriptor, 0, SEEK_END)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while end > 0 {
            let chunk = min(off_t(buffer.count), end)
            let read = pread(descriptor, &buffer, Int(chunk), end - chunk)
            guard read == Int(chunk) else { return 0 }
            if let newline = buffer[0..<Int(chunk)].lastIndex(of: UInt8(ascii: "\n")) {
                return end - chunk + off_t(newline) + 1
            }
            end -= chunk
        }
        return 0
    }

    /// Moves the journal aside, if there is one, and returns where it went.
    public func setAside(reason: String, now: Date) -> URL? {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return nil }
        if case .setAside(_, let movedTo) = moveAside(reason: reason, now: now) { return movedTo }
        return nil
    }

    private func moveAside(reason: String, now: Date) -> ReadOutcome {
        let stamp = setAsideStamp(now)
        let destination = fileURL.deletingLastPathComponent().appendingPathComponent("alarms.journal.unreadable-\(stamp)-\(getpid())")
        if link(fileURL.path, destination.path) == 0 {
            unlink(fileURL.path)
        } else {
            rename(fileURL.path, destination.path)
        }
        count = 0
        return .setAside(reason: reason, movedTo: destination)
    }

    private static func failure(_ what: String, _ url: URL) -> StoreError {
        StoreError("Could not save the alarms to \(url.path): could not \(what) it: \(String(cString: strerror(errno)))")
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .deferredToDate
        return decoder
    }
}
