import Dispatch
import FoundationEssentials
import Glibc
import GLibSupport
import TocsinCore
import TocsinFiles

/// The sound files of sandboxed apps' alarms, copied into the agent's own directory
/// (`$XDG_STATE_HOME/tocsin/sounds/`) when the app schedules the alarm.
///
/// A path a sandboxed app names means a file in its sandbox, which the agent sees elsewhere or
/// not at all; opening it in the agent's own view would read, on the app's behalf, a file the
/// sandbox denied it. So the file is read once, through the app's view (`ProcessFileView`), while
/// the request is answered, and the alarm rings the copy: it still plays after the app quit, and
/// the agent never opens a path of the app's choosing in its own view.
///
/// Reading happens on a queue of its own: a file on a FUSE mount inside the sandbox (the
/// document portal's, say) could take long, and the agent's main loop must not wait on it.
final class SandboxedSoundCopies: @unchecked Sendable {
    // @unchecked: `directory` and `queue` are immutable; copies run on the queue.

    /// The largest sound file an app may hand over: a minute of CD-quality WAV is 10 MiB, and an
    /// alarm's sound loops, so a few seconds are what it needs.
    static let fileLimit = 8 * 1024 * 1024
    /// The most all of one app's copies may take together.
    static let applicationBudget = 64 * 1024 * 1024

    /// Where the copies live.
    let directory: URL
    // Concurrent: one app's copy stuck on a hung mount must not hold up another's.
    private let queue = DispatchQueue(label: "io.github.tocsin.sound-copies", attributes: .concurrent)

    /// Copies kept in `directory`.
    init(directory: URL) {
        self.directory = directory
    }

    /// The copies of an agent keeping its state in `stateDirectory`: its `sounds/`.
    convenience init(stateDirectory: URL) {
        self.init(directory: stateDirectory.appendingPathComponent("sounds"))
    }

    /// Whether `path` is one of the copies (and so the agent's to delete with its alarm).
    func isCopy(_ path: String) -> Bool {
        path.hasPrefix(directory.path + "/") && !path.dropFirst(directory.path.count + 1).contains("/")
    }

    /// Reads the sound file at `path` as `files` shows it, checks it is a sound Tocsin plays and
    /// fits in `budget` bytes, and keeps a copy. `completion` gets the copy's sound, or the
    /// sentence saying why not, on the main loop.
    func copy(_ path: String, seenBy files: ProcessFileView, budget: Int, completion: @escaping (Result<AlarmSound, TocsinError>) -> Void) {
        let limit = min(Self.fileLimit, budget)
        let directory = directory
        // The completion runs on the main loop, where it was made; only the box crosses threads.
        let completion = MainThreadOnly(completion)
        queue.async {
            let result: Result<AlarmSound, TocsinError>
            do throws(TocsinError) {
                result = .success(try Self.keepCopy(of: path, seenBy: files, limit: limit, in: directory))
            } catch {
                result = .failure(error)
            }
            MainLoop.post { completion.value(result) }
        }
    }

    /// The work of `copy`, on the calling thread: reads `path` through `files` (at most `limit`
    /// bytes), checks it, and writes the copy into `directory`.
    static func keepCopy(of path: String, seenBy files: ProcessFileView, limit: Int, in directory: URL) throws(TocsinError) -> AlarmSound {
        let bytes: [UInt8]
        do {
            bytes = try files.readRegularFile(path, limit: limit)
        } catch {
            let budgetNote = limit < fileLimit ? " (what is left of the \(applicationBudget / (1024 * 1024)) MiB an application's sound files may take)" : ""
            throw TocsinError(.invalidArgument, "The sound file cannot be used: \(error.message)\(budgetNote). A sandboxed application's sound file is read as the application sees it, inside its sandbox.")
        }
        if let problem = SoundCheck.problem(withHeader: Array(bytes.prefix(64)), path: path) {
            throw TocsinError(.invalidArgument, problem)
        }
        let suffix = bytes.starts(with: Array("OggS".utf8)) ? "ogg" : "wav"
        let copy = directory.appendingPathComponent("\(UUID().uuidString.lowercased()).\(suffix)")
        do {
            try AtomicFile.write(Data(bytes), to: copy)
        } catch {
            throw TocsinError(.storageFailed, "The sound file could not be kept for the alarm: \(error.message).")
        }
        return .file(copy.path)
    }

    /// How many bytes the copies among `sounds` take.
    func bytesUsed(by sounds: some Sequence<AlarmSound>) -> Int {
        sounds.reduce(0) { total, sound in
            guard case .file(let path) = sound, isCopy(path) else { return total }
            var status = stat()
            return stat(path, &status) == 0 ? total + Int(status.st_size) : total
        }
    }

    /// Deletes the copy `sound` is, if it is one (its alarm is gone).
    func discard(_ sound: AlarmSound) {
        guard case .file(let path) = sound, isCopy(path) else { return }
        unlink(path)
    }

    /// Deletes every copy no alarm in `sounds` rings — left over when the agent stopped between
    /// an alarm's end and the deletion of its copy. Returns how many went.
    @discardableResult
    func discardCopies(notAmong sounds: some Sequence<AlarmSound>) -> Int {
        var kept = Set<String>()
        for case .file(let path) in sounds where isCopy(path) { kept.insert(URL(fileURLWithPath: path).lastPathComponent) }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var discarded = 0
        // Leftover temporary files of an interrupted copy go too: no copy runs at start-up.
        for name in names where !kept.contains(name) {
            if unlink(directory.appendingPathComponent(name).path) == 0 { discarded += 1 }
        }
        return discarded
    }
}
