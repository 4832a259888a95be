import CGLib
import Foundation
import HeadlessSession
import Glibc
import GLibSupport
import Testing
import BusTestSupport
import TocsinCore
@testable import TocsinAgent
import TocsinEdge
import TocsinFiles

/// The watcher on a GLib main context of each test's own (pushed as the thread's default, so tests
/// running in parallel never dispatch each other's sources), with temporary files standing in for
/// `/etc/localtime`, a real private mount namespace for the bind-mount case, and a private bus
/// standing in for the system bus.
@Suite struct TimeZoneWatcherTests {
    static let zoneinfo = "/usr/share/zoneinfo"

    /// A temporary "etc" and what the watcher reported, on a main context of its own.
    final class Fixture {
        let root: String
        let context: OpaquePointer
        /// Zones passed to `onChange`, in order.
        var changes: [String] = []
        let log = LogLines()

        var etc: String { root + "/etc" }
        var localtime: String { etc + "/localtime" }

        /// Creates the directory and pushes a new main context as the thread's default; `finish()`
        /// undoes both and must run on the same thread.
        init() throws {
            root = FileManager.default.temporaryDirectory.path + "/tocsin-tzwatch-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: root + "/etc", withIntermediateDirectories: true)
            context = g_main_context_new()
            g_main_context_push_thread_default(context)
        }

        func finish() {
            g_main_context_pop_thread_default(context)
            g_main_context_unref(context)
            try? FileManager.default.removeItem(atPath: root)
        }

        func resolver(localtime: String? = nil, mountInfo: String = "/proc/self/mountinfo") -> LocalTimeZoneResolver {
            LocalTimeZoneResolver(environment: [:], localtimePath: localtime ?? self.localtime, timezoneHintPath: etc + "/timezone",
                                  zoneinfoDirectory: TimeZoneWatcherTests.zoneinfo, mountInfoPath: mountInfo)
        }

        /// A watcher over `resolver` reporting into `changes`; no system bus unless `busAddress` is given.
        func watcher(_ resolver: LocalTimeZoneResolver? = nil, busAddress: String = "unix:path=/nonexistent/bus") -> TimeZoneWatcher {
            TimeZoneWatcher(resolver: resolver ?? self.resolver(), systemBusAddress: busAddress, log: log.log, faults: NeighbourFaults { _ in }) { [unowned self] zone in
                changes.append(zone.identifier)
            }
        }

        /// Makes /etc/localtime → ../var/zone → `zone`, outside the directory the watcher watches,
        /// and returns the `var` directory.
        func linkLocaltimeThroughVariable(to zone: String) throws -> String {
            let variable = root + "/var"
            try FileManager.default.createDirectory(atPath: variable, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: variable + "/zone", withDestinationPath: zone)
            try FileManager.default.createSymbolicLink(atPath: localtime, withDestinationPath: "../var/zone")
            return variable
        }

        /// Points `path` at `target` the way `timedatectl` does: a new symlink renamed over the old one.
        func replaceLink(_ path: String, with target: String) throws {
            let temporary = (path as NSString).deletingLastPathComponent + "/.#localtime\(UUID().uuidString.prefix(8))"
            try FileManager.default.createSymbolicLink(atPath: temporary, withDestinationPath: target)
            guard rename(temporary, path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }

        /// Runs the context until `condition` holds or `seconds` have passed; returns the seconds spent.
        @discardableResult
        func iterate(for seconds: Double, until condition: () -> Bool = { false }) -> Double {
            let start = g_get_monotonic_time()
            let deadline = start + gint64(seconds * 1_000_000)
            // Wakes the blocking iteration at the deadline if nothing else does.
            let wake = g_timeout_source_new(guint(seconds * 1000))!
            g_source_set_callback(wake, { _ in SourceResult.remove }, nil, nil)
            g_source_attach(wake, context)
            defer {
                g_source_destroy(wake)
                g_source_unref(wake)
            }
            while !condition() && g_get_monotonic_time() < deadline {
                g_main_context_iteration(context, 1)
            }
            return Double(g_get_monotonic_time() - start) / 1_000_000
        }
    }

    // MARK: Files

    @Test func renamingANewSymlinkOverTheOldOneCallsBackOnceWithinASecond() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        try FileManager.default.createSymbolicLink(atPath: fixture.localtime, withDestinationPath: Self.zoneinfo + "/Europe/Berlin")
        let watcher = fixture.watcher()
        defer { withExtendedLifetime(watcher) {} }  // watching until the test ends
        #expect(watcher.current.timeZone.identifier == "Europe/Berlin")

        try fixture.replaceLink(fixture.localtime, with: Self.zoneinfo + "/Asia/Tokyo")
        let waited = fixture.iterate(for: 1) { !fixture.changes.isEmpty }
        #expect(fixture.changes == ["Asia/Tokyo"])
        #expect(waited < 1)
        // The other events of the same rename must not bring a second call.
        fixture.iterate(for: 0.4)
        #expect(fixture.changes == ["Asia/Tokyo"])
        #expect(watcher.current.timeZone.identifier == "Asia/Tokyo")
        #expect(fixture.log.all.contains { $0.contains("changed from Europe/Berlin to Asia/Tokyo") })
    }

    @Test func aChangeThatResolvesToTheSameZoneCallsNothing() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        try FileManager.default.createSymbolicLink(atPath: fixture.localtime, withDestinationPath: Self.zoneinfo + "/Europe/Berlin")
        let watcher = fixture.watcher()
        defer { withExtendedLifetime(watcher) {} }  // watching until the test ends

        // Another path to the same zone: the watcher must look (the source changes) but not call back.
        try fixture.replaceLink(fixture.localtime, with: Self.zoneinfo + "/posix/Europe/Berlin")
        fixture.iterate(for: 1) { watcher.current.source.contains("posix") }
        #expect(watcher.current.source.contains("posix/Europe/Berlin"))
        fixture.iterate(for: 0.3)
        #expect(fixture.changes.isEmpty)
    }

    @Test func copyingAZoneFileOverARegularFileIsNoticed() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        try FileManager.default.copyItem(atPath: Self.zoneinfo + "/Europe/Berlin", toPath: fixture.localtime)
        let watcher = fixture.watcher()
        defer { withExtendedLifetime(watcher) {} }  // watching until the test ends
        #expect(watcher.current.timeZone.identifier == "Europe/Berlin")

        // Written in place (truncate, write), as `cp` does: one callback, for the finished file.
        try Data(contentsOf: URL(fileURLWithPath: Self.zoneinfo + "/Asia/Kolkata")).write(to: URL(fileURLWithPath: fixture.localtime))
        fixture.iterate(for: 1) { !fixture.changes.isEmpty }
        fixture.iterate(for: 0.3)
        #expect(fixture.changes == ["Asia/Kolkata"])
    }

    @Test func unrelatedFilesInTheDirectoryAreIgnored() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        try FileManager.default.createSymbolicLink(atPath: fixture.localtime, withDestinationPath: Self.zoneinfo + "/Europe/Berlin")
        let watcher = fixture.watcher()
        defer { withExtendedLifetime(watcher) {} }  // watching until the test ends
        // A link elsewhere in the directory that would resolve differently if it were looked at.
        try FileManager.default.createSymbolicLink(atPath: fixture.etc + "/localtime.new", withDestinationPath: Self.zoneinfo + "/Asia/Tokyo")
        fixture.iterate(for: 0.3)
        #expect(fixture.changes.isEmpty)
        #expect(watcher.current.timeZone.identifier == "Europe/Berlin")
    }

    @Test func releasingTheWatcherStopsIt() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        try FileManager.default.createSymbolicLink(atPath: fixture.localtime, withDestinationPath: Self.zoneinfo + "/Europe/Berlin")
        var watcher: TimeZoneWatcher? = fixture.watcher()
        try fixture.replaceLink(fixture.localtime, with: Self.zoneinfo + "/Asia/Tokyo")
        // Released with events queued and, most likely, the quiet-period timer pending.
        fixture.iterate(for: 0.01)
        watcher = nil
        fixture.iterate(for: 0.3)
        #expect(watcher == nil)
        #expect(fixture.changes.isEmpty)
    }

    // MARK: Mount table

    /// `unshare --mount` works here (root, or a user namespace allowed): checked once.
    static let mountNamespacesWork: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
        let probe = try? SpawnedProcess(URL(fileURLWithPath: "/usr/bin/unshare"), ["--mount", "--propagation", "private", "/bin/true"], standardError: .null)
        return probe?.waitUntilExit() == 0
    }()

    @Test(.enabled(if: mountNamespacesWork, "needs `unshare --mount` (root)"))
    func aFileBindMountedOverLocaltimeIsNoticedThroughTheMountTable() throws {
        // A shell in a private mount namespace bind-mounts Tokyo over a copy of Berlin when told to.
        // The watcher reads that namespace through /proc/PID: its mount table (POLLPRI on a mount)
        // and its view of the file. inotify sees nothing of a mount, so only the mount table can wake it.
        let fixture = try Fixture()
        defer { fixture.finish() }
        try FileManager.default.copyItem(atPath: Self.zoneinfo + "/Europe/Berlin", toPath: fixture.localtime)
        let input = Pipe(), output = Pipe()
        let shell = try SpawnedProcess(
            URL(fileURLWithPath: "/usr/bin/unshare"),
            ["--mount", "--propagation", "private", "/bin/sh", "-c",
             "echo ready; read line; mount --bind \"$1\" \"$2\" && echo mounted; read line", "sh",
             Self.zoneinfo + "/Asia/Tokyo", fixture.localtime],
            standardInput: input, standardOutput: .pipe(output))
        defer {
            try? input.fileHandleForWriting.close()
            shell.waitUntilExit()
        }
        #expect(Self.readLine(output) == "ready")
        let namespace = "/proc/\(shell.pid)"
        let watcher = fixture.watcher(fixture.resolver(localtime: namespace + "/root" + fixture.localtime, mountInfo: namespace + "/mountinfo"))
        defer { withExtendedLifetime(watcher) {} }  // watching until the test ends
        #expect(watcher.current.timeZone.identifier == "Europe/Berlin")

        input.fileHandleForWriting.write(Data("go\n".utf8))
        #expect(Self.readLine(output) == "mounted")
        let waited = fixture.iterate(for: 1) { !fixture.changes.isEmpty }
        #expect(fixture.changes == ["Asia/Tokyo"])
        #expect(waited < 1)
        #expect(watcher.current.source.contains("mounted over"))
        // Outside the namespace nothing changed.
        #expect(fixture.resolver().resolve().timeZone.identifier == "Europe/Berlin")
    }

    private static func readLine(_ pipe: Pipe) -> String {
        var line: [UInt8] = []
        while let byte = try? pipe.fileHandleForReading.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") {
            line.append(byte)
        }
        return String(decoding: line, as: UTF8.self)
    }

    // MARK: systemd-timedated

    static let dbusDaemonExists = FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")

    @Test(.enabled(if: dbusDaemonExists, "needs dbus-daemon"))
    func timedatedsPropertiesChangedMakesItLookAgain() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        let bus = try PrivateBus()
        defer { bus.stop() }
        // /etc/localtime → ../var/zone → a zone: the watcher watches etc/, not var/, so changing
        // var/zone reaches it only through the signal.
        let variable = try fixture.linkLocaltimeThroughVariable(to: Self.zoneinfo + "/Europe/Berlin")
        let watcher = fixture.watcher(busAddress: bus.address)
        defer { withExtendedLifetime(watcher) {} }  // watching until the test ends
        #expect(watcher.current.timeZone.identifier == "Europe/Berlin")

        try fixture.replaceLink(variable + "/zone", with: Self.zoneinfo + "/Asia/Tokyo")
        fixture.iterate(for: 0.3)
        #expect(fixture.changes.isEmpty)

        let timedated = try bus.connect()
        defer { g_object_unref(UnsafeMutableRawPointer(timedated)) }
        try PrivateBus.requestName("org.freedesktop.timedate1", on: timedated)
        // The watcher's AddMatch and this signal travel on different connections: send until heard.
        for _ in 0..<10 where fixture.changes.isEmpty {
            try PrivateBus.emitTimezoneChanged(on: timedated, zone: "Asia/Tokyo")
            fixture.iterate(for: 0.1) { !fixture.changes.isEmpty }
        }
        fixture.iterate(for: 0.3)
        #expect(fixture.changes == ["Asia/Tokyo"])
    }

    @Test(.enabled(if: dbusDaemonExists, "needs dbus-daemon"))
    func otherTimedatedPropertiesAreIgnored() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        let bus = try PrivateBus()
        defer { bus.stop() }
        let variable = try fixture.linkLocaltimeThroughVariable(to: Self.zoneinfo + "/Europe/Berlin")
        let watcher = fixture.watcher(busAddress: bus.address)
        defer { withExtendedLifetime(watcher) {} }  // watching until the test ends
        try fixture.replaceLink(variable + "/zone", with: Self.zoneinfo + "/Asia/Tokyo")

        let timedated = try bus.connect()
        defer { g_object_unref(UnsafeMutableRawPointer(timedated)) }
        try PrivateBus.requestName("org.freedesktop.timedate1", on: timedated)
        for _ in 0..<5 {
            try PrivateBus.emitPropertiesChanged(on: timedated, changed: ["NTP": .bool(true)])
            fixture.iterate(for: 0.1)
        }
        #expect(fixture.changes.isEmpty)
        #expect(watcher.current.timeZone.identifier == "Europe/Berlin")
    }

    @Test func withoutASystemBusItSaysSoOnce() throws {
        let fixture = try Fixture()
        defer { fixture.finish() }
        try FileManager.default.createSymbolicLink(atPath: fixture.localtime, withDestinationPath: Self.zoneinfo + "/Europe/Berlin")
        withExtendedLifetime(fixture.watcher()) {
            // The bus is asked without waiting: its absence is known once the loop has run.
            fixture.iterate(for: 2) { fixture.log.all.contains { $0.contains("No system bus") } }
            fixture.iterate(for: 0.3)
            #expect(fixture.log.all.filter { $0.contains("No system bus") }.count == 1)
            #expect(fixture.log.all.filter { $0.contains("tocsind[warning]") || $0.contains("tocsind[error]") }.isEmpty)
        }
    }
}
