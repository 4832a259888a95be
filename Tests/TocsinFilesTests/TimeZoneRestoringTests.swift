import Foundation
import Testing
@testable import TocsinCore
import TocsinFiles
import TocsinTestSupport

/// A zone saved in the state file by its identifier comes back as the same rules, whatever kind
/// of zone the agent was using: a zone file, a POSIX rule from `TZ`, or a fixed offset.
@Suite struct TimeZoneRestoringTests {
    static let zones: [TimeZoneRules] = [
        TimeZoneRules(identifier: "Europe/Berlin")!,
        TimeZoneRules(identifier: "Etc/UTC")!,
        TimeZoneRules(posixRule: "CET-1CEST,M3.5.0,M10.5.0/3")!,
        TimeZoneRules(posixRule: "<+0530>-5:30")!,
        TimeZoneRules(secondsEast: 9 * 3600),
        TimeZoneRules(secondsEast: -(3 * 3600 + 30 * 60)),
    ]

    @Test(arguments: zones)
    func everyKindOfZoneIsRestoredFromItsIdentifier(zone: TimeZoneRules) throws {
        let restored = try #require(TimeZoneRules(restoring: zone.identifier))
        #expect(restored == zone)
    }

    @Test func utcIsRestoredWithItsOffset() throws {
        let restored = try #require(TimeZoneRules(restoring: TimeZoneRules.utc.identifier))
        #expect(restored.identifier == "Etc/UTC")
        #expect(restored.secondsFromGMT(for: Date(timeIntervalSince1970: 1_790_000_000)) == 0)
    }

    @Test(arguments: ["", "Nowhere/Special", "GMT+0560", "../etc/passwd", "CET-1CEST,M3.5.0", "Europe/Berlin/"])
    func whatNamesNoZoneIsNotRestored(identifier: String) {
        #expect(TimeZoneRules(restoring: identifier) == nil)
    }

    @Test(arguments: zones)
    func theStateFileKeepsTheZone(zone: TimeZoneRules) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tocsin-zone-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = AlarmStore(directory: directory)
        try store.save([], timeZone: zone)
        let reloaded = AlarmStore(directory: directory)
        _ = reloaded.load(now: t0)
        #expect(reloaded.savedTimeZone == zone)
    }
}
