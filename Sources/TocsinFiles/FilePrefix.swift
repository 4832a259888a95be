import Glibc
import TocsinCore

/// The first `limit` bytes of the file at `path` (all of it when shorter); `nil` when it cannot
/// be opened or read. `errno` says why after a `nil`.
///
/// For small files read whole or by their header (zone files, sound headers, /proc entries), with a
/// bound so a huge or endless file (a FIFO, /dev/zero) cannot fill memory. The buffer grows as the
/// file turns out longer, so a generous `limit` costs nothing for a small file.
package func readFilePrefix(_ path: String, limit: Int) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes = [UInt8](repeating: 0, count: min(limit, 4096))
    var filled = 0
    while filled < limit {
        if filled == bytes.count {
            bytes.append(contentsOf: repeatElement(0, count: min(limit, bytes.count * 2) - bytes.count))
        }
        let count = bytes.withUnsafeMutableBytes { buffer in
            read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
        }
        if count < 0 && errno == EINTR { continue }
        guard count >= 0 else { return nil }
        if count == 0 { break }
        filled += count
    }
    bytes.removeSubrange(filled...)
    return bytes
}
