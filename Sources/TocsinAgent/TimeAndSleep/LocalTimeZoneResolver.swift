import FoundationEssentials
import Glibc
import TocsinCore
import TocsinFiles

/// The time zone the agent schedules local times in ("07:00 on weekdays"), and where it was found.
struct ResolvedLocalTimeZone: Sendable, Equatable, CustomStringConvertible {
    /// The zone.
    let timeZone: TimeZoneRules
    /// Where the zone came from, for the log: `TZ=Europe/Berlin`,
    /// `/etc/localtime → /usr/share/zoneinfo/Asia/Tokyo`, `UTC (no usable source)`…
    let source: String
    /// Why sources tried before `source` were passed over, one sentence each; empty when the first
    /// source present was usable.
    let passedOver: [String]

    /// One line for the log: the zone, its source, and what was passed over.
    var description: String {
        let base = "\(timeZone.identifier) (from \(source))"
        return passedOver.isEmpty ? base : "\(base); \(passedOver.joined(separator: "; "))"
    }
}

/// Works out the local time zone the way the C library does, but from scratch on every call, and
/// reads its rules from the zone files (`TimeZoneRules`) as the C library does.
///
/// Foundation's `TimeZone.current` is read once and cached, so it never notices that the machine
/// moved to another zone; this resolver reads the sources again each time `TimeZoneWatcher` asks.
/// The sources, in order:
///
/// 1. `TZ`, as the agent's environment has it: a zone name (`Europe/Berlin`, `:Europe/Berlin`),
///    a file (`:/etc/localtime`, `/usr/share/zoneinfo/Asia/Kolkata`) or a POSIX rule, with
///    daylight-saving time (`CET-1CEST,M3.5.0,M10.5.0/3`) or without (`JST-9`, `UTC0`).
/// 2. `/etc/localtime`. A symlink into a zoneinfo directory names the zone (what `timedatectl`
///    makes). A regular file — copied there, or bind-mounted over it — is identified by content:
///    the zoneinfo file with the same bytes. A mount over the symlink's *target* (what
///    `mount --bind …/Asia/Tokyo /etc/localtime` does, since mount follows the symlink) makes the
///    name a lie, so the mount table is checked and the content decides then too.
/// 3. `/etc/timezone` (Debian), a zone name used as a hint when `/etc/localtime` gave nothing.
/// 4. UTC, with the reasons the others failed.
///
/// Equal-content files are aliases of one zone (`Europe/Berlin`, `Arctic/Longyearbyen`). The name
/// picked is the one `/etc/timezone` gives if it is among them (the administrator's choice), else a
/// zone that `tzdata.zi` declares with a `Z` line (links are `L` lines), else one listed in
/// `zone1970.tab`, then `zone.tab`, then the shortest name, then the first alphabetically. Debian
/// installs aliases as symlinks, which the content search skips, so there the real file wins anyway;
/// the ranking matters on systems that install aliases as hard links or copies.
///
/// All paths are parameters (the real ones by default) so tests can use a temporary directory.
struct LocalTimeZoneResolver: Sendable {
    /// The environment the agent runs with (only `TZ` is read).
    var environment: [String: String]
    /// The system's zone file, normally a symlink into `zoneinfoDirectory`.
    var localtimePath: String
    /// Debian's zone name file.
    var timezoneHintPath: String
    /// Where the compiled zone files live.
    var zoneinfoDirectory: String
    /// The mount table, read to notice a file mounted over the zone file.
    var mountInfoPath: String

    /// UTC, named as `/etc/localtime → …/Etc/UTC` names it, so falling back to UTC and reading UTC
    /// from the system do not look like a change of zone.
    static let utc = TimeZoneRules(identifier: "Etc/UTC") ?? .utc

    /// The largest zone file read; real ones are a few kilobytes, and garbage must not fill memory.
    private static let largestZoneFile = 1 << 20

    /// A resolver reading the given sources; the defaults are the real ones.
    init(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        localtimePath: String = "/etc/localtime",
        timezoneHintPath: String = "/etc/timezone",
        zoneinfoDirectory: String = "/usr/share/zoneinfo",
        mountInfoPath: String = "/proc/self/mountinfo"
    ) {
        self.environment = environment
        self.localtimePath = localtimePath
        self.timezoneHintPath = timezoneHintPath
        self.zoneinfoDirectory = zoneinfoDirectory
        self.mountInfoPath = mountInfoPath
    }

    /// The files whose change can change what `resolve()` returns: the zone file, the hint, and
    /// the file `TZ` names, if it names one. (Zones named by `TZ` cannot change: the environment is fixed.)
    var sourceFiles: [String] {
        var files = [localtimePath, timezoneHintPath]
        if let variable = environment["TZ"] {
            let value = variable.hasPrefix(":") ? String(variable.dropFirst()) : variable
            if value.hasPrefix("/") && !files.contains(value) { files.append(value) }
        }
        return files
    }

    /// The mount points that can change what `resolve()` returns: any at or above one of its
    /// files, as named and as their links and `realpath` lead (a bind mount over `/etc/localtime`,
    /// over `/etc`, over a link's target), and any inside the zoneinfo directory. A mount anywhere
    /// else on the machine (a container's, a sandbox's, a USB stick's) is none of them.
    func mountPointsConcerningTheZone() -> Set<String> {
        var paths = Set(sourceFiles + [zoneinfoDirectory])
        for file in sourceFiles + [zoneinfoDirectory] {
            paths.formUnion(symlinkChain(from: file))
            if let real = realPath(of: file) { paths.insert(real) }
        }
        return MountTable(path: mountInfoPath).mountPoints.filter { point in
            let prefix = point.hasSuffix("/") ? point : point + "/"
            return paths.contains { $0 == point || $0.hasPrefix(prefix) } || point.hasPrefix(zoneinfoDirectory + "/")
        }
    }

    /// Reads the sources now and returns the first zone one of them gives, or UTC.
    func resolve() -> ResolvedLocalTimeZone {
        var passedOver: [String] = []
        if let variable = environment["TZ"] {
            switch zone(fromTZ: variable) {
            case .success(let found): return ResolvedLocalTimeZone(timeZone: found.zone, source: found.source, passedOver: [])
            case .failure(let reason): passedOver.append(reason.sentence)
            }
        }
        let hint = hintedZoneName()
        switch zone(fromFile: localtimePath, hint: hint.name) {
        case .success(let found): return ResolvedLocalTimeZone(timeZone: found.zone, source: found.source, passedOver: passedOver)
        case .failure(let reason): passedOver.append(reason.sentence)
        }
        switch hint {
        case (let name?, _):
            if let zone = TimeZoneRules(identifier: name, zoneinfoDirectory: zoneinfoDirectory) {
                return ResolvedLocalTimeZone(timeZone: zone, source: "\(timezoneHintPath) (\(name))", passedOver: passedOver)
            }
            passedOver.append("\(timezoneHintPath) names “\(name)”, which has no zone file under \(zoneinfoDirectory)")
        case (nil, let reason?):
            passedOver.append(reason)
        case (nil, nil):
            break
        }
        return ResolvedLocalTimeZone(timeZone: Self.utc, source: "UTC, the fallback", passedOver: passedOver)
    }

    // MARK: TZ

    /// The zone `TZ` gives. An empty `TZ` means UTC to the C library, so it does here too.
    private func zone(fromTZ variable: String) -> Result<FoundZone, Unusable> {
        let label = "TZ=\(variable)"
        if variable.isEmpty {
            return .success(FoundZone(zone: Self.utc, source: "TZ set but empty, which means UTC"))
        }
        // A leading colon says "a file, not a POSIX rule"; an empty name after it means the default.
        let isFileReference = variable.hasPrefix(":")
        let value = isFileReference ? String(variable.dropFirst()) : variable
        if value.isEmpty {
            return .failure(Unusable("TZ is “:”, which means the system zone"))
        }
        if value.hasPrefix("/") {
            return zone(fromFile: value, hint: nil).map { FoundZone(zone: $0.zone, source: "\(label): \($0.source)") }
        }
        // Like the C library: a name with a file under the zoneinfo directory is that zone…
        let file = zoneinfoDirectory + "/" + value
        if isRegularFile(file) {
            if let zone = TimeZoneRules(identifier: value, zoneinfoDirectory: zoneinfoDirectory) {
                return .success(FoundZone(zone: zone, source: label))
            }
            return zone(fromFile: file, hint: nil).map { FoundZone(zone: $0.zone, source: "\(label): \($0.source)") }
        }
        // …and anything else is a POSIX rule (`GMT+5` is five hours *west*, unlike Foundation's `GMT+5`).
        if !isFileReference, let rule = PosixTimeZoneRule(value) {
            if rule.isFixedOffset {
                return .success(FoundZone(zone: Self.fixedZone(secondsEast: rule.standardOffset), source: "\(label) (a fixed offset)"))
            }
            if let zone = TimeZoneRules(posixRule: value) {
                return .success(FoundZone(zone: zone, source: "\(label) (a POSIX rule with daylight-saving time)"))
            }
        }
        return .failure(Unusable("\(label) names no known time zone"))
    }

    // MARK: Zone files

    /// The zone of a compiled zone file: named by a symlink chain into a zoneinfo directory, or
    /// identified by its content.
    private func zone(fromFile path: String, hint: String?) -> Result<FoundZone, Unusable> {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            return .failure(Unusable(errno == ENOENT ? "\(path) does not exist" : "\(path) cannot be read (\(String(cString: strerror(errno))))"))
        }
        let mountPoints = MountTable(path: mountInfoPath).mountPoints
        // The path and every link target on the way may name the zone (`TZ=/usr/share/zoneinfo/Asia/Kolkata`,
        // `/etc/localtime → ../usr/share/zoneinfo/Europe/Berlin`); the first name with a zone file wins.
        let chain = status.st_mode & S_IFMT == S_IFLNK ? symlinkChain(from: path) : []
        let target = chain.last ?? path
        let overmounted = [path, target, realPath(of: path)].compactMap { $0 }.first(where: mountPoints.contains)
        // Something mounted over the file (or the link's target) makes its name say nothing of its content.
        if overmounted == nil {
            for name in ([path] + chain).compactMap(zoneName(inPath:)) {
                if let zone = rules(named: name, readingFirst: target) {
                    let missing = isRegularFile(target) ? "" : " (which is missing, so C programs use UTC)"
                    return .success(FoundZone(zone: zone, source: chain.isEmpty ? path : "\(path) → \(target)\(missing)"))
                }
            }
        }
        let found = zone(fromContentOf: path, hint: hint, excluding: mountPoints)
        guard let overmounted else { return found }
        return found.map { FoundZone(zone: $0.zone, source: "\($0.source), mounted over \(overmounted)") }
    }

    /// The zone whose zoneinfo file has the same bytes as the file at `path`.
    private func zone(fromContentOf path: String, hint: String?, excluding mountPoints: Set<String>) -> Result<FoundZone, Unusable> {
        guard let content = readFile(path) else {
            return .failure(Unusable("\(path) cannot be read"))
        }
        guard content.starts(with: Array("TZif".utf8)) else {
            return .failure(Unusable("\(path) is not a time zone file (it does not start with “TZif”)"))
        }
        let candidates = ZoneinfoIndex(directory: zoneinfoDirectory)
            .names(ofFilesWithContent: content)
            .filter { !mountPoints.contains(zoneinfoDirectory + "/" + $0) }
        let ranking = AliasRanking(zoneinfoDirectory: zoneinfoDirectory, hint: hint)
        for name in ranking.sorted(candidates) {
            if let zone = try? TimeZoneRules(tzif: content, identifier: name) {
                return .success(FoundZone(zone: zone, source: "\(path), the same bytes as \(zoneinfoDirectory)/\(name)"))
            }
        }
        // No file matches (tzdata updated since, or a hand-made file): the rule at the end of a
        // version 2+ zone file still says what the clock does from now on.
        if let rule = PosixTimeZoneRule(footerOf: content) {
            if rule.isFixedOffset {
                return .success(FoundZone(zone: Self.fixedZone(secondsEast: rule.standardOffset), source: "\(path), the fixed offset in its rule"))
            }
            if let text = TZifFile.footerText(of: content), let zone = try? TimeZoneRules(tzif: content, identifier: text) {
                return .success(FoundZone(zone: zone, source: "\(path), a zone file matching none under \(zoneinfoDirectory)"))
            }
        }
        let known = candidates.isEmpty ? "matches no file under \(zoneinfoDirectory)" : "is not a valid zone file (\(candidates.joined(separator: ", ")) have the same bytes)"
        return .failure(Unusable("\(path) \(known)"))
    }

    /// The rules named `name`: read from `path`, the file the C library reads, when it is a zone
    /// file; else from the zoneinfo directory's file of that name.
    private func rules(named name: String, readingFirst path: String) -> TimeZoneRules? {
        if let content = readFile(path), let rules = try? TimeZoneRules(tzif: content, identifier: name) {
            return rules
        }
        return TimeZoneRules(identifier: name, zoneinfoDirectory: zoneinfoDirectory)
    }

    /// The targets a symlink leads through, in order, each as an absolute path built from the
    /// link's text (not from `realpath`, so `/proc/PID/root/…` paths stay inside that process's view).
    private func symlinkChain(from path: String) -> [String] {
        var chain: [String] = []
        var current = path
        // The kernel gives up after 40 links; a loop must not hang the agent.
        for _ in 0..<40 {
            guard let text = readLink(current) else { break }
            current = Self.normalized(text.hasPrefix("/") ? text : Self.directory(of: current) + "/" + text)
            chain.append(current)
        }
        return chain
    }

    /// The zone name in a path into a zoneinfo directory (`…/zoneinfo/posix/Asia/Tokyo` → `Asia/Tokyo`).
    private func zoneName(inPath path: String) -> String? {
        var name: Substring
        if path.hasPrefix(zoneinfoDirectory + "/") {
            name = path.dropFirst(zoneinfoDirectory.count + 1)
        } else if case let parts = path.components(separatedBy: "/zoneinfo/"), parts.count > 1 {
            name = Substring(parts.last!)
        } else {
            return nil
        }
        // posix/ holds the same zones; right/ the same civil times counted with leap seconds.
        for prefix in ["posix/", "right/"] where name.hasPrefix(prefix) {
            name = name.dropFirst(prefix.count)
        }
        return name.isEmpty ? nil : String(name)
    }

    // MARK: /etc/timezone

    /// The name in the hint file, or why there is none (`nil` when the file simply is not there).
    private func hintedZoneName() -> (name: String?, reason: String?) {
        guard let content = readFile(timezoneHintPath) else {
            return (nil, FileManager.default.fileExists(atPath: timezoneHintPath) ? "\(timezoneHintPath) cannot be read" : "\(timezoneHintPath) does not exist")
        }
        let line = String(decoding: content, as: UTF8.self)
            .split(whereSeparator: \.isNewline).first
            .map { $0.trimmingSpaces() } ?? ""
        return line.isEmpty ? (nil, "\(timezoneHintPath) is empty") : (line, nil)
    }

    // MARK: File system

    /// Whether `path` leads (through any links) to a regular file.
    private func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// The first `largestZoneFile` bytes of a file, or `nil` when it cannot be opened or read.
    private func readFile(_ path: String) -> [UInt8]? {
        readFilePrefix(path, limit: Self.largestZoneFile)
    }

    /// The text of a symlink, or `nil` when `path` is not one.
    private func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink(path, &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The canonical path of what `path` leads to, the way the mount table names mount points.
    private func realPath(of path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Everything before the last slash.
    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }

    /// `path` with `.`, `..` and repeated slashes removed by text alone.
    private static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// A zone at a fixed offset; UTC under its usual name when the offset is zero.
    private static func fixedZone(secondsEast: Int) -> TimeZoneRules {
        secondsEast == 0 ? utc : TimeZoneRules(secondsEast: secondsEast)
    }
}

/// A zone found, with where it came from.
private struct FoundZone {
    let zone: TimeZoneRules
    let source: String
}

/// Why a source gave no zone: one sentence for the log.
private struct Unusable: Error {
    let sentence: String

    init(_ sentence: String) {
        self.sentence = sentence
    }
}

// MARK: - Content search

/// The zone files under a zoneinfo directory, found by content: only files of the same size are
/// read, so a search reads a handful of files rather than the whole directory.
private struct ZoneinfoIndex {
    let directory: String

    /// Top-level entries that are not zones: duplicate trees, the POSIX default rule, a local copy.
    private static let skipped: Set<String> = ["posix", "right", "posixrules", "localtime"]

    /// Names (relative paths) of regular files with exactly `content`; symlinks are aliases of a
    /// file that is itself listed, so they are skipped.
    func names(ofFilesWithContent content: [UInt8]) -> [String] {
        var names: [String] = []
        collect(in: "", skipping: Self.skipped, content: content, into: &names)
        return names
    }

    /// Adds the files with `content` under `relativeDirectory` (the top level when empty) to `names`.
    private func collect(in relativeDirectory: String, skipping skipped: Set<String>, content: [UInt8], into names: inout [String]) {
        let absolute = relativeDirectory.isEmpty ? directory : directory + "/" + relativeDirectory
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: absolute) else { return }
        for entry in entries.sorted() where !skipped.contains(entry) {
            let name = relativeDirectory.isEmpty ? entry : relativeDirectory + "/" + entry
            var status = stat()
            guard lstat(directory + "/" + name, &status) == 0 else { continue }
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                collect(in: name, skipping: [], content: content, into: &names)
            case S_IFREG where Int(status.st_size) == content.count:
                if readFilePrefix(directory + "/" + name, limit: content.count + 1) == content { names.append(name) }
            default:
                continue
            }
        }
    }
}

/// Orders aliases of one zone so the canonical name comes first (see `LocalTimeZoneResolver`).
private struct AliasRanking {
    let zoneinfoDirectory: String
    let hint: String?

    /// `names`, most canonical first.
    func sorted(_ names: [String]) -> [String] {
        guard names.count > 1 else { return names }
        let zones = declaredZones()
        let zone1970 = tabulatedZones("zone1970.tab")
        let zoneTab = tabulatedZones("zone.tab")
        func rank(_ name: String) -> [Int] {
            [name == hint ? 0 : 1, zones.contains(name) ? 0 : 1, zone1970.contains(name) ? 0 : 1, zoneTab.contains(name) ? 0 : 1, name.count]
        }
        return names.sorted { left, right in
            let (leftRank, rightRank) = (rank(left), rank(right))
            return leftRank == rightRank ? left < right : leftRank.lexicographicallyPrecedes(rightRank)
        }
    }

    /// Names `tzdata.zi` declares as zones (`Z Europe/Berlin 0:53:28 - LMT 1893 Ap`).
    private func declaredZones() -> Set<String> {
        Set(lines(of: "tzdata.zi").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 2)
            return fields.count >= 2 && fields[0] == "Z" ? String(fields[1]) : nil
        })
    }

    /// The zone column (the third) of a `.tab` file.
    private func tabulatedZones(_ file: String) -> Set<String> {
        Set(lines(of: file).compactMap { line in
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: "\t")
            return fields.count >= 3 ? String(fields[2]) : nil
        })
    }

    /// The lines of a file in the zoneinfo directory (none if it is missing).
    private func lines(of file: String) -> [Substring] {
        guard let data = FileManager.default.contents(atPath: zoneinfoDirectory + "/" + file) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
    }
}

// MARK: - Mount table

/// The mount points in a `/proc/…/mountinfo` file (the fifth field, with the kernel's octal
/// escapes for space, tab, newline and backslash undone).
private struct MountTable {
    let mountPoints: Set<String>

    /// Reads the table at `path`; an unreadable table has no mount points.
    init(path: String) {
        guard let data = FileManager.default.contents(atPath: path) else {
            mountPoints = []
            return
        }
        mountPoints = Set(String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", maxSplits: 5)
            return fields.count >= 5 ? Self.unescaped(fields[4]) : nil
        })
    }

    /// `field` with `\ooo` octal escapes turned back into bytes.
    private static func unescaped(_ field: Substring) -> String {
        guard field.contains("\\") else { return String(field) }
        var bytes: [UInt8] = []
        var rest = Array(field.utf8)[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "\\"), rest.count >= 3,
               let value = UInt8(String(decoding: rest.prefix(3), as: UTF8.self), radix: 8) {
                bytes.append(value)
                rest = rest.dropFirst(3)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
