import FoundationEssentials
import Glibc
import TocsinCore

// The zones read from the system's zone files: TocsinCore parses TZif bytes, this reads them.
extension TimeZoneRules {
    /// The zone named `identifier` from `zoneinfoDirectory` ("/usr/share/zoneinfo" by default); nil
    /// when the name is not a safe relative path (no "..", no leading "/", not empty) or the file is
    /// missing or not a valid TZif file.
    public init?(identifier: String, zoneinfoDirectory: String = "/usr/share/zoneinfo") {
        guard Self.isSafeRelativeName(identifier) else { return nil }
        let directory = zoneinfoDirectory.hasSuffix("/") ? zoneinfoDirectory : zoneinfoDirectory + "/"
        guard let bytes = Self.contentsOfSmallRegularFile(atPath: directory + identifier),
              let rules = try? TimeZoneRules(tzif: bytes, identifier: identifier) else { return nil }
        self = rules
    }

    /// The zone an identifier this type gave names again, as a state file keeps it: a zone file's
    /// name ("Europe/Berlin"), a POSIX rule ("CET-1CEST,M3.5.0,M10.5.0/3") or a fixed offset
    /// ("GMT+0530"); nil when it is none of these.
    public init?(restoring identifier: String, zoneinfoDirectory: String = "/usr/share/zoneinfo") {
        if let rules = TimeZoneRules(identifier: identifier, zoneinfoDirectory: zoneinfoDirectory) {
            self = rules
        } else if let secondsEast = Self.secondsEast(ofFixedName: identifier) {
            self.init(secondsEast: secondsEast, identifier: identifier)
        } else if let rules = TimeZoneRules(posixRule: identifier) {
            self = rules
        } else {
            return nil
        }
    }

    /// The bytes of the file at `path` when it is (or links to) a regular file of at most 1 MiB;
    /// real zone files are a few kilobytes, and this keeps a FIFO or a device from being read.
    private static func contentsOfSmallRegularFile(atPath path: String) -> [UInt8]? {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size <= 1 << 20 else { return nil }
        // One byte more than the stat said: a file that grew since is refused, not cut short.
        let size = Int(status.st_size)
        guard let bytes = readFilePrefix(path, limit: size + 1), bytes.count == size else { return nil }
        return bytes
    }
}
