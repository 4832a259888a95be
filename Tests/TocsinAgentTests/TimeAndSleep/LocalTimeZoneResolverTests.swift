import Foundation
import Testing
@testable import TocsinAgent
import TocsinCore
import TocsinFiles

/// The resolver against real zone files (`/usr/share/zoneinfo`) placed in a temporary "etc", and
/// against small made-up zoneinfo trees where the choice among aliases is the point.
@Suite struct LocalTimeZoneResolverTests {
    static let zoneinfo = "/usr/share/zoneinfo"

    /// A temporary directory standing in for `/etc` (and, when needed, a zoneinfo tree); each test
    /// removes it with `defer`. Its name has a space so mount-table escapes are exercised.
    struct Scratch {
        let root: String
        var etc: String { root + "/etc" }
        var localtime: String { etc + "/localtime" }
        var timezone: String { etc + "/timezone" }
        var mountInfo: String { root + "/mountinfo" }

        init() throws {
            root = FileManager.default.temporaryDirectory.path + "/tocsin tz-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: root + "/etc", withIntermediateDirectories: true)
        }

        func remove() {
            try? FileManager.default.removeItem(atPath: root)
        }

        /// A resolver reading this directory's files, with `environment` and `zoneinfo`.
        func resolver(environment: [String: String] = [:], zoneinfo: String = LocalTimeZoneResolverTests.zoneinfo) -> LocalTimeZoneResolver {
            LocalTimeZoneResolver(environment: environment, localtimePath: localtime, timezoneHintPath: timezone, zoneinfoDirectory: zoneinfo, mountInfoPath: mountInfo)
        }

        func write(_ text: String, to path: String) throws {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }

        /// Copies a real zone file to `path` (a regular file, not a link).
        func copyZone(_ name: String, to path: String) throws {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: LocalTimeZoneResolverTests.zoneinfo + "/" + name, toPath: path)
        }

        func link(_ path: String, to target: String) throws {
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
        }
    }

    // MARK: TZ

    @Test(arguments: [
        ("Europe/Berlin", "Europe/Berlin"),
        (":Europe/Berlin", "Europe/Berlin"),
        (":/usr/share/zoneinfo/Asia/Kolkata", "Asia/Kolkata"),
        ("/usr/share/zoneinfo/Asia/Kolkata", "Asia/Kolkata"),
        ("/usr/share/zoneinfo/Asia/Calcutta", "Asia/Calcutta"),
        ("America/New_York", "America/New_York"),
    ])
    func tzNamesAZoneOrAZoneFile(tz: String, expected: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.link(scratch.localtime, to: Self.zoneinfo + "/Asia/Tokyo")
        let resolved = scratch.resolver(environment: ["TZ": tz]).resolve()
        #expect(resolved.timeZone.identifier == expected)
        #expect(resolved.source.hasPrefix("TZ=\(tz)"))
        #expect(resolved.passedOver.isEmpty)
    }

    @Test func tzPointingAtTheLocaltimeFileFollowsIt() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.link(scratch.localtime, to: Self.zoneinfo + "/Asia/Tokyo")
        let resolved = scratch.resolver(environment: ["TZ": ":" + scratch.localtime]).resolve()
        #expect(resolved.timeZone.identifier == "Asia/Tokyo")
        #expect(scratch.resolver(environment: ["TZ": ":" + scratch.localtime]).sourceFiles.contains(scratch.localtime))
    }

    @Test(arguments: [
        ("JST-9", 9 * 3600),
        ("<+0530>-5:30", 5 * 3600 + 30 * 60),
        ("GMT+5", -5 * 3600),  // POSIX counts west: five hours behind UTC, unlike Foundation's "GMT+5"
        ("UTC0", 0),
    ])
    func posixFixedOffsetsAreUsed(tz: String, secondsEast: Int) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.link(scratch.localtime, to: Self.zoneinfo + "/Asia/Tokyo")
        let resolved = scratch.resolver(environment: ["TZ": tz]).resolve()
        #expect(resolved.timeZone.secondsFromGMT(for: Date()) == secondsEast)
        #expect(resolved.source.contains("fixed offset"))
    }

    @Test func posixDaylightSavingRulesAreFollowed() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.link(scratch.localtime, to: Self.zoneinfo + "/Asia/Tokyo")
        let resolved = scratch.resolver(environment: ["TZ": "CET-1CEST,M3.5.0,M10.5.0/3"]).resolve()
        #expect(resolved.timeZone.identifier == "CET-1CEST,M3.5.0,M10.5.0/3")
        #expect(resolved.passedOver.isEmpty)
        #expect(resolved.source.contains("daylight-saving"))
        // Summer time from the last Sunday of March, 01:00 UTC, to the last Sunday of October.
        #expect(resolved.timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: 1_774_745_999)) == 3600)  // 2026-03-29 00:59:59Z
        #expect(resolved.timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: 1_774_746_000)) == 7200)  // 2026-03-29 01:00:00Z
        #expect(resolved.timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: 1_792_890_000)) == 3600)  // 2026-10-25 01:00:00Z
    }

    @Test func anUnknownTZNameFallsBack() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.link(scratch.localtime, to: Self.zoneinfo + "/Asia/Tokyo")
        let resolved = scratch.resolver(environment: ["TZ": "Nowhere/Special"]).resolve()
        #expect(resolved.timeZone.identifier == "Asia/Tokyo")
        #expect(resolved.passedOver == ["TZ=Nowhere/Special names no known time zone"])
    }

    @Test func anEmptyTZMeansUTCAsInTheCLibrary() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.link(scratch.localtime, to: Self.zoneinfo + "/Asia/Tokyo")
        #expect(scratch.resolver(environment: ["TZ": ""]).resolve().timeZone == LocalTimeZoneResolver.utc)
    }

    // MARK: /etc/localtime as a symlink

    @Test(arguments: [
        ("/usr/share/zoneinfo/Asia/Tokyo", "Asia/Tokyo"),
        ("../../../../../../../../usr/share/zoneinfo/Europe/Berlin", "Europe/Berlin"),
        ("/usr/share/zoneinfo/posix/Europe/Berlin", "Europe/Berlin"),
        ("/usr/share/zoneinfo/Asia/Calcutta", "Asia/Calcutta"),  // the name the administrator chose
    ])
    func aSymlinkIntoZoneinfoNamesTheZone(target: String, expected: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.link(scratch.localtime, to: target)
        let resolved = scratch.resolver().resolve()
        #expect(resolved.timeZone.identifier == expected)
        #expect(resolved.source.contains("→"))
        #expect(!resolved.source.contains("same bytes"))
    }

    @Test func aChainOfLinksIsFollowed() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.link(scratch.root + "/zone", to: Self.zoneinfo + "/America/Sao_Paulo")
        try scratch.link(scratch.localtime, to: "../zone")
        #expect(scratch.resolver().resolve().timeZone.identifier == "America/Sao_Paulo")
    }

    // MARK: /etc/localtime as a regular file

    @Test(arguments: ["Asia/Kolkata", "Europe/Berlin", "America/New_York", "Etc/UTC"])
    func aCopiedZoneFileIsIdentifiedByContentUnderItsCanonicalName(zone: String) throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.copyZone(zone, to: scratch.localtime)
        let resolved = scratch.resolver().resolve()
        // Not Asia/Calcutta, Arctic/Longyearbyen, US/Eastern, UTC: aliases with the same bytes.
        #expect(resolved.timeZone.identifier == zone)
        #expect(resolved.source == "\(scratch.localtime), the same bytes as \(Self.zoneinfo)/\(zone)")
    }

    @Test func amongHardLinkedAliasesTzdataZiDecides() throws {
        // Where aliases are hard links or copies (not Debian's symlinks), content alone cannot choose.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let zoneinfo = scratch.root + "/zoneinfo"
        for alias in ["Asia/Tokyo", "Japan"] {
            try scratch.copyZone("Asia/Tokyo", to: zoneinfo + "/" + alias)
        }
        try scratch.copyZone("Europe/Berlin", to: zoneinfo + "/Europe/Berlin")
        try scratch.copyZone("Asia/Tokyo", to: scratch.localtime)
        // Without any list, the shortest name wins.
        #expect(scratch.resolver(zoneinfo: zoneinfo).resolve().timeZone.identifier == "Japan")
        // zone1970.tab lists zones, not links.
        try scratch.write("#codes\tcoordinates\tTZ\tcomments\nJP\t+353916+1394441\tAsia/Tokyo\n", to: zoneinfo + "/zone1970.tab")
        #expect(scratch.resolver(zoneinfo: zoneinfo).resolve().timeZone.identifier == "Asia/Tokyo")
        // tzdata.zi declares zones with Z and links with L, and outranks the tables.
        try scratch.write("#comment\nZ Japan 9 - JST\nL Japan Asia/Tokyo\n", to: zoneinfo + "/tzdata.zi")
        #expect(scratch.resolver(zoneinfo: zoneinfo).resolve().timeZone.identifier == "Japan")
        // /etc/timezone, when it names one of the aliases, is the administrator's choice.
        try scratch.write("Asia/Tokyo\n", to: scratch.timezone)
        #expect(scratch.resolver(zoneinfo: zoneinfo).resolve().timeZone.identifier == "Asia/Tokyo")
    }

    @Test func aStaleHintDoesNotOverrideTheContent() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.copyZone("Asia/Kolkata", to: scratch.localtime)
        try scratch.write("Etc/UTC\n", to: scratch.timezone)
        #expect(scratch.resolver().resolve().timeZone.identifier == "Asia/Kolkata")
    }

    @Test func aFileMountedOverTheLinksTargetIsIdentifiedByContent() throws {
        // `mount --bind …/Asia/Tokyo /etc/localtime` follows the symlink and covers …/Etc/UTC: the
        // link still says Etc/UTC, the bytes (there and at /etc/localtime) are Tokyo's.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let zoneinfo = scratch.root + "/zoneinfo"
        try scratch.copyZone("Asia/Tokyo", to: zoneinfo + "/Asia/Tokyo")
        try scratch.copyZone("Asia/Tokyo", to: zoneinfo + "/Etc/UTC")  // what the mount shows
        try scratch.link(scratch.localtime, to: zoneinfo + "/Etc/UTC")
        // Without the mount in the table the link is believed.
        try scratch.write("", to: scratch.mountInfo)
        #expect(scratch.resolver(zoneinfo: zoneinfo).resolve().timeZone.identifier == "Etc/UTC")
        let escaped = (zoneinfo + "/Etc/UTC").replacingOccurrences(of: " ", with: "\\040")
        try scratch.write("""
            22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw
            63 22 254:0 /usr/share/zoneinfo/Asia/Tokyo \(escaped) rw,relatime - ext4 /dev/vda rw

            """, to: scratch.mountInfo)
        let resolved = scratch.resolver(zoneinfo: zoneinfo).resolve()
        #expect(resolved.timeZone.identifier == "Asia/Tokyo")
        #expect(resolved.source.contains("mounted over \(zoneinfo)/Etc/UTC"))
    }

    @Test func onlyMountsAtOrAboveTheZonesFilesOrInsideZoneinfoConcernTheZone() throws {
        // The watcher reads the table again on every mount on the machine; only these ask for a check.
        let scratch = try Scratch()
        defer { scratch.remove() }
        let zoneinfo = scratch.root + "/zoneinfo"
        try scratch.copyZone("Asia/Tokyo", to: zoneinfo + "/Asia/Tokyo")
        try scratch.link(scratch.localtime, to: zoneinfo + "/Asia/Tokyo")
        func escaped(_ path: String) -> String { path.replacingOccurrences(of: " ", with: "\\040") }
        try scratch.write("""
            22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw
            30 22 0:40 / /media/usb rw - vfat /dev/sdb1 rw
            31 22 0:41 / /var/lib/docker/overlay2/abc/merged rw - overlay overlay rw
            32 22 0:42 / \(escaped(scratch.root))/other rw - tmpfs tmpfs rw
            33 22 254:0 / \(escaped(scratch.etc)) rw - ext4 /dev/vda rw
            34 22 254:0 /x \(escaped(scratch.localtime)) rw - ext4 /dev/vda rw
            35 22 254:0 /y \(escaped(zoneinfo))/Asia/Tokyo rw - ext4 /dev/vda rw
            36 22 254:0 /z \(escaped(zoneinfo))/Europe/Berlin rw - ext4 /dev/vda rw

            """, to: scratch.mountInfo)
        #expect(scratch.resolver(zoneinfo: zoneinfo).mountPointsConcerningTheZone()
                == ["/", scratch.etc, scratch.localtime, zoneinfo + "/Asia/Tokyo", zoneinfo + "/Europe/Berlin"])
    }

    @Test func aZoneFileMatchingNoFileStillGivesItsFixedOffset() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("TZif2" + String(repeating: "\0", count: 40) + "\n<+0545>-5:45\n", to: scratch.localtime)
        let resolved = scratch.resolver().resolve()
        #expect(resolved.timeZone.secondsFromGMT(for: Date()) == 5 * 3600 + 45 * 60)
    }

    // MARK: Failures

    @Test func garbageFallsBackToUTCWithTheReason() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("not a zone file\n", to: scratch.localtime)
        let resolved = scratch.resolver().resolve()
        #expect(resolved.timeZone == LocalTimeZoneResolver.utc)
        #expect(resolved.source == "UTC, the fallback")
        #expect(resolved.passedOver.contains("\(scratch.localtime) is not a time zone file (it does not start with “TZif”)"))
        #expect(resolved.passedOver.contains("\(scratch.timezone) does not exist"))
    }

    @Test func aMissingFileFallsBackToTheHint() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("America/Sao_Paulo\n", to: scratch.timezone)
        let resolved = scratch.resolver().resolve()
        #expect(resolved.timeZone.identifier == "America/Sao_Paulo")
        #expect(resolved.source == "\(scratch.timezone) (America/Sao_Paulo)")
        #expect(resolved.passedOver == ["\(scratch.localtime) does not exist"])
    }

    @Test func nothingAtAllIsUTCWithEveryReason() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let resolved = scratch.resolver().resolve()
        #expect(resolved.timeZone == LocalTimeZoneResolver.utc)
        #expect(resolved.passedOver == ["\(scratch.localtime) does not exist", "\(scratch.timezone) does not exist"])
    }

    @Test func anUnknownHintIsNamedInTheReason() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try scratch.write("Atlantis/Capital\n", to: scratch.timezone)
        let resolved = scratch.resolver().resolve()
        #expect(resolved.timeZone == LocalTimeZoneResolver.utc)
        #expect(resolved.passedOver.last?.contains("Atlantis/Capital") == true)
    }

    @Test func theRealSystemResolvesToSomething() {
        // Whatever this machine is set to, the real sources must give a zone with a source.
        let resolved = LocalTimeZoneResolver().resolve()
        #expect(!resolved.source.isEmpty)
        #expect(TimeZoneRules(identifier: resolved.timeZone.identifier) != nil)
    }
}
