import FoundationEssentials
import Glibc
import TocsinCore

/// Replaces a file so that a crash or a full disk leaves either the old file or the new one,
/// never half of one: a temporary file in the same directory, fsync, rename over the old one,
/// fsync of the directory. Files are private to the user (0600, directory 0700).
public enum AtomicFile {
    /// Writes `data` to `url`, creating its directory if needed.
    public static func write(_ data: Data, to url: URL) throws(StoreError) {
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError("could not create the directory \(directory.path): \(describeFileError(error))")
        }
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        do {
            try writeDurably(data, to: temporary)
            try posix("rename \(temporary.lastPathComponent) to \(url.lastPathComponent)") { rename(temporary.path, url.path) }
            try syncDirectory(directory)
        } catch {
            unlink(temporary.path)
            throw error
        }
    }

    private static func writeDurably(_ data: Data, to url: URL) throws(StoreError) {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw StoreError(posixMessage("create \(url.lastPathComponent)")) }
        defer { close(descriptor) }
        var written = 0
        while written < data.count {
            let result = data.withUnsafeBytes { bytes in
                Glibc.write(descriptor, bytes.baseAddress! + written, data.count - written)
            }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { throw StoreError(posixMessage("write \(url.lastPathComponent)")) }
            written += result
        }
        try posix("flush \(url.lastPathComponent) to disk") { fsync(descriptor) }
    }

    private static func syncDirectory(_ directory: URL) throws(StoreError) {
        let descriptor = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw StoreError(posixMessage("open the directory")) }
        defer { close(descriptor) }
        try posix("flush the directory to disk") { fsync(descriptor) }
    }

    private static func posix(_ what: String, _ call: () -> Int32) throws(StoreError) {
        guard call() == 0 else { throw StoreError(posixMessage(what)) }
    }

    private static func posixMessage(_ what: String) -> String {
        "could not \(what): \(String(cString: strerror(errno)))"
    }
}
