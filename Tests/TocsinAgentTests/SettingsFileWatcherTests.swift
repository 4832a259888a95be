import CGLib
import Foundation
import GLibSupport
import Testing
import TocsinCore
@testable import TocsinAgent
import TocsinFiles

/// The agent follows output.json as `tocsin config` writes it (through the store, renamed over
/// the old file), on a GLib main context of the test's own; an unreadable file is said in the log,
/// the defaults hold meanwhile, and the file is left as it is.
@Suite struct SettingsFileWatcherTests {
    final class Fixture {
        let directory: URL
        let context: OpaquePointer
        let log = LogLines()
        /// What the watcher reported, in order.
        var reported: [OutputRaiseSettings] = []
        var store: OutputRaiseSettingsStore { OutputRaiseSettingsStore(directory: directory) }

        /// A settings directory not made yet (the watcher makes it), and a main context pushed as
        /// the thread's default; `finish()` undoes both, on the same thread.
        init() {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("tocsin-settings-\(UUID().uuidString)/tocsin")
            context = g_main_context_new()
            g_main_context_push_thread_default(context)
        }

        func finish() {
            g_main_context_pop_thread_default(context)
            g_main_context_unref(context)
            try? FileManager.default.removeItem(at: directory.deletingLastPathComponent())
        }

        func watcher() -> SettingsFileWatcher {
            .outputRaiseSettings(store, log: log.log) { [unowned self] settings in reported.append(settings) }
        }

        /// Runs the context until `count` reports came, or `seconds` passed; true when they came.
        func waitForReports(_ count: Int, seconds: Double = 3) -> Bool {
            let deadline = g_get_monotonic_time() + gint64(seconds * 1_000_000)
            let wake = g_timeout_source_new(50)!
            g_source_set_callback(wake, { _ in SourceResult.keep }, nil, nil)
            g_source_attach(wake, context)
            defer {
                g_source_destroy(wake)
                g_source_unref(wake)
            }
            while reported.count < count && g_get_monotonic_time() < deadline {
                g_main_context_iteration(context, 1)
            }
            return reported.count >= count
        }
    }

    @Test func followsWhatTocsinConfigWritesAndFallsBackToTheDefaultsOnAnUnreadableFile() throws {
        let fixture = Fixture()
        defer { fixture.finish() }
        let watcher = fixture.watcher()
        defer { withExtendedLifetime(watcher) {} }  // watching until the test ends
        watcher.start()
        #expect(fixture.reported == [.standard], "no file: the defaults, at once")
        #expect(FileManager.default.fileExists(atPath: fixture.directory.path), "the directory is made, so that it is watched, not polled")

        let off = OutputRaiseSettings(raises: false, levelPercent: 70)
        try fixture.store.save(off)
        #expect(fixture.waitForReports(2), "the change was not followed: \(fixture.reported)")
        #expect(fixture.reported.last == off)

        let broken = #"{"raise-output": fal"#
        try Data(broken.utf8).write(to: fixture.store.fileURL)
        #expect(fixture.waitForReports(fixture.reported.count + 1))
        _ = fixture.waitForReports(Int.max, seconds: 0.3)  // until every event of the write has come
        #expect(fixture.reported.last == .standard, "the defaults hold while it cannot be read")
        #expect(fixture.log.all.contains {
            $0.contains("\(fixture.store.fileURL.path) could not be read (")
                && $0.contains("until it can be read, ringing alarms raise a muted or quieter output to 70 % as by default.")
        }, "\(fixture.log.all)")
        #expect(try String(contentsOf: fixture.store.fileURL, encoding: .utf8) == broken, "never written over")

        let level = OutputRaiseSettings(raises: true, levelPercent: 40)
        try fixture.store.save(level)
        #expect(fixture.waitForReports(fixture.reported.count + 1))
        #expect(fixture.reported.last == level)

        try FileManager.default.removeItem(at: fixture.store.fileURL)
        #expect(fixture.waitForReports(fixture.reported.count + 1))
        #expect(fixture.reported.last == .standard, "removed: the defaults again")
    }

    @Test func aLevelOutsideTheRangeIsSaidAndTheDefaultsHold() throws {
        let fixture = Fixture()
        defer { fixture.finish() }
        try FileManager.default.createDirectory(at: fixture.directory, withIntermediateDirectories: true)
        try Data(#"{"raise-output": false, "ring-level": 0}"#.utf8).write(to: fixture.store.fileURL)
        let watcher = fixture.watcher()
        defer { withExtendedLifetime(watcher) {} }
        watcher.start()
        #expect(fixture.reported == [.standard])
        #expect(fixture.log.all.contains { $0.contains("(its ring-level, 0, is not a percentage from 1 to 100); until it can be read") },
                "\(fixture.log.all)")
    }
}
