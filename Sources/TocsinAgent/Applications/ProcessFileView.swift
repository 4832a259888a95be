import COpenAt2
import FoundationEssentials
import Glibc
import TocsinCore

/// A process's view of the file system: its root directory, held open, and paths resolved inside
/// it the way the process itself resolves them.
///
/// `/proc/PID/root` leads to the root a process sees — a Flatpak sandbox's, for an app in one. But
/// opening `/proc/PID/root/some/path` by name is not enough: an absolute symbolic link on the way
/// (`~/.var/app/ID/x → /home/user/secret.wav`, made by the app in a directory it may write) or a
/// `..` would be resolved against the agent's root, outside the sandbox. `openat2` with
/// `RESOLVE_IN_ROOT` resolves every such step inside the held root, as a chroot would, and
/// `RESOLVE_NO_MAGICLINKS` refuses `/proc/self/fd/N`-style links that lead anywhere.
///
/// Holding the root open also pins it: the descriptor keeps naming that process's root after the
/// process is gone and its pid is reused, so a file named later is still looked up in the
/// sandbox that named it.
final class ProcessFileView: @unchecked Sendable {
    // @unchecked: the descriptor is immutable once opened; reads through it are thread-safe.

    /// Why a file could not be looked at through a process's view.
    struct Failure: Error {
        /// A sentence for the caller.
        let message: String
    }

    private let rootDescriptor: Int32

    /// The root of process `pid`, from `procRoot` (/proc; tests may point elsewhere).
    init(pid: pid_t, procRoot: String = "/proc") throws(Failure) {
        rootDescriptor = tocsin_open_directory_path("\(procRoot)/\(pid)/root")
        guard rootDescriptor >= 0 else {
            throw Failure(message: "the root directory of process \(pid) cannot be opened (\(String(cString: strerror(errno))))")
        }
    }

    deinit {
        close(rootDescriptor)
    }

    /// True when the process sees the agent's own root directory — it runs outside any sandbox
    /// (or in the same one as the agent). A Flatpak sandbox has a root of its own.
    var isAgentRoot: Bool {
        var mine = stat()
        var theirs = stat()
        guard stat("/", &mine) == 0, fstat(rootDescriptor, &theirs) == 0 else { return false }
        return mine.st_dev == theirs.st_dev && mine.st_ino == theirs.st_ino
    }

    /// What a regular file at `path`, as the process sees it, holds — at most `limit` bytes.
    ///
    /// Opened without blocking (a FIFO would wait for a writer) and refused unless it is a
    /// regular file; `followingLinks: false` also refuses a symbolic link anywhere on the way
    /// (for `/.flatpak-info`, which Flatpak writes itself).
    func readRegularFile(_ path: String, limit: Int, followingLinks: Bool = true) throws(Failure) -> [UInt8] {
        let descriptor = try openRegularFile(path, followingLinks: followingLinks)
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw Failure(message: "“\(path)” cannot be examined (\(String(cString: strerror(errno))))")
        }
        guard Int(status.st_size) <= limit else {
            throw Failure(message: "“\(path)” is larger (\(Self.megabytes(Int(status.st_size)))) than the \(Self.megabytes(limit)) it may be")
        }
        // Read to the end rather than to st_size: a file that grows while read is still bounded.
        var bytes = [UInt8]()
        bytes.reserveCapacity(Int(status.st_size))
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(message: "“\(path)” could not be read (\(String(cString: strerror(errno))))")
            }
            if count == 0 { break }
            guard bytes.count + count <= limit else {
                throw Failure(message: "“\(path)” is larger than the \(Self.megabytes(limit)) it may be")
            }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return bytes
    }

    private func openRegularFile(_ path: String, followingLinks: Bool) throws(Failure) -> Int32 {
        var resolve = UInt64(RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS)
        if !followingLinks { resolve |= UInt64(RESOLVE_NO_SYMLINKS) }
        let descriptor = tocsin_openat2(rootDescriptor, path, UInt64(O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC), resolve)
        guard descriptor >= 0 else {
            let reason = errno
            switch reason {
            case ENOENT, ENOTDIR:
                throw Failure(message: "“\(path)” does not exist where the application sees files")
            case ELOOP, EXDEV:
                throw Failure(message: "“\(path)” leads through a link that leaves the application's view of files")
            case ENOSYS:
                throw Failure(message: "this kernel cannot open files as a sandbox sees them (openat2 needs Linux 5.6)")
            default:
                throw Failure(message: "“\(path)” cannot be opened (\(String(cString: strerror(reason))))")
            }
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw Failure(message: "“\(path)” is not a regular file")
        }
        // O_NONBLOCK was for the open; a regular file reads the same either way.
        return descriptor
    }

    private static func megabytes(_ bytes: Int) -> String {
        bytes < 1024 * 1024 ? "\(bytes / 1024) KiB" : "\(fixedPointText(Double(bytes) / (1024 * 1024), fractionDigits: 1)) MiB"
    }
}
