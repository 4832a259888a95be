import Dispatch
import FoundationEssentials
import Glibc
import GLibSupport
import TocsinCore
import TocsinFiles

/// Checks at schedule time that an alarm's sound can be played, so a typo is an error the user
/// sees now rather than a silent alarm later.
enum SoundCheck {
    /// Where sound files are looked at: off the main loop, since a file on a network mount that
    /// hangs (or a FUSE file system that never answers) blocks whoever stats it, and the main
    /// loop rings every other alarm. Concurrent, so one hung file does not hold up the next.
    private static let queue = DispatchQueue(label: "io.github.tocsin.sound-check", attributes: .concurrent)

    /// Hands `examined` the problem with `sound` (as `problem(with:)`) on the calling thread's
    /// main context: a sound file is looked at on a queue of its own and its answer comes back
    /// later; a theme's or the standard sound is answered at once.
    static func examine(_ sound: AlarmSound, then examined: @escaping (String?) -> Void) {
        guard case .file = sound else { return examined(problem(with: sound)) }
        let examined = MainThreadOnly(examined)
        let back = ReturnContext()
        queue.async {
            let problem = problem(with: sound)
            back.post { examined.value(problem) }
        }
    }

    /// Why `sound` cannot be played, or `nil` when it can (as far as can be told without playing it).
    /// Theme sounds are looked for in the XDG data directories of `environment` (by default the
    /// process's, read only then: building it costs more than the rest of a Schedule call).
    static func problem(with sound: AlarmSound, environment: [String: String]? = nil) -> String? {
        switch sound {
        case .standard:
            return nil
        case .file(let path):
            // Look before opening: opening a FIFO would block the agent until a writer came.
            let shownPath = AlarmInputError.quotable(path)
            var status = stat()
            guard stat(path, &status) == 0 else {
                // Read errno at once: asking FileManager whether the file exists would stat again.
                let reason = errno
                return reason == ENOENT || reason == ENOTDIR
                    ? "The sound file “\(shownPath)” does not exist."
                    : "The sound file “\(shownPath)” cannot be examined (\(String(cString: strerror(reason))))."
            }
            guard status.st_mode & S_IFMT == S_IFREG else {
                return "“\(shownPath)” is not a regular file; a sound must be a WAV or Ogg file."
            }
            // It exists and is a regular file, so failing to open it is a matter of permissions.
            guard let header = readFilePrefix(path, limit: 64) else {
                return "The sound file “\(shownPath)” cannot be read (check its permissions)."
            }
            return problem(withHeader: header, path: path)
        case .themeEvent(let id):
            return themeFile(for: id, environment: environment ?? ProcessInfo.processInfo.environment) == nil
                ? "No installed sound theme has the sound “\(id)” (theme sounds live in /usr/share/sounds/<theme>/stereo/)."
                : nil
        }
    }

    /// Whether a file starting with `header` is a sound libcanberra plays: 8- or 16-bit PCM WAV, or Ogg.
    static func problem(withHeader header: [UInt8], path: String) -> String? {
        if header.starts(with: Array("OggS".utf8)) {
            return nil
        }
        guard header.count >= 12, header.starts(with: Array("RIFF".utf8)), Array(header[8..<12]) == Array("WAVE".utf8) else {
            return "The sound file “\(path)” is neither a WAV nor an Ogg file."
        }
        // The "fmt " chunk normally follows at byte 12; bits per sample sit 22 bytes into it.
        guard header.count >= 36, Array(header[12..<16]) == Array("fmt ".utf8) else { return nil }
        let bitsPerSample = Int(header[34]) | Int(header[35]) << 8
        guard bitsPerSample == 8 || bitsPerSample == 16 else {
            return "The sound file “\(path)” is a \(bitsPerSample)-bit WAV file; Tocsin plays 8- or 16-bit WAV and Ogg files."
        }
        return nil
    }

    /// The file a sound theme has for event `id`, searched in the XDG data directories.
    private static func themeFile(for id: String, environment: [String: String]) -> URL? {
        let home = environment["HOME"] ?? FileManager.default.homeDirectoryForCurrentUser.path
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "\(home)/.local/share"
        let dataDirectories = (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
            .split(separator: ":").map(String.init)
        let fileManager = FileManager.default
        for directory in [dataHome] + dataDirectories {
            let soundsDirectory = URL(fileURLWithPath: directory).appendingPathComponent("sounds")
            let themes = (try? fileManager.contentsOfDirectory(atPath: soundsDirectory.path)) ?? []
            for theme in themes {
                for suffix in ["oga", "ogg", "wav"] {
                    let candidate = soundsDirectory.appendingPathComponent("\(theme)/stereo/\(id).\(suffix)")
                    if fileManager.isReadableFile(atPath: candidate.path) { return candidate }
                }
            }
        }
        return nil
    }
}
