import FoundationEssentials
import Glibc
import TocsinCore

/// Says what went wrong with a file in words, for messages: "No such file or directory".
///
/// FoundationEssentials, all the agent links, has no `localizedDescription`: its file errors print
/// as `CocoaError(code: …, userInfo: […])`. Their underlying POSIX error is what a person can act on.
package func describeFileError(_ error: any Error) -> String {
    guard let cocoa = error as? CocoaError else { return "\(error)" }
    return (cocoa.underlying as? POSIXError).map { String(cString: strerror($0.code.rawValue)) } ?? "file error \(cocoa.code.rawValue)"
}
