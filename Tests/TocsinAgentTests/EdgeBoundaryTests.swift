import Foundation
import Testing

/// Every conversation of the agent with another program goes through Sources/Edge (issue #45):
/// no file of the agent calls GLib, libnotify, libcanberra or libpulse itself. The files that
/// still do are listed here, by name, until each has moved to an adapter there: a new file
/// calling them fails this test, and so does a listed one that no longer does (the list only
/// shrinks).
@Suite struct EdgeBoundaryTests {
    static let agentSources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/TocsinAgent")

    /// The C modules only Sources/Edge may import.
    static let edgeModules: Set<String> = ["CGLib", "CNotify", "CCanberra", "CPulse"]

    /// The agent's files that still call those libraries themselves, still to move.
    static let notYetMoved: Set<String> = [
        "Agent.swift", "Applications/AppIntentDelivery.swift", "Applications/HookRunner.swift", "BusService/AlarmsService.swift",
        "BusService/CallerIdentity.swift", "BusService/MemoryReturner.swift", "BusService/OwnUserGate.swift",
        "BusService/SignalAudience.swift", "LockScreen/DisplayWaker.swift", "LockScreen/LockScreenService.swift",
        "LockScreen/PlasmaLockWatcher.swift", "LockScreen/XScreenSaverKeeper.swift", "MediaPlayer/RingingPlayer.swift",
        "Notifications/NotificationServerMonitor.swift", "Notifications/NotificationTick.swift", "Notifications/NotificationWorker.swift",
        "Notifications/NotifyCallRecorder.swift", "Panel/TrayItem.swift", "SettingsFileWatcher.swift", "TimeAndSleep/DeadlineTimer.swift", "TimeAndSleep/SleepWatcher.swift",
        "TimeAndSleep/TimeZoneWatcher.swift",
    ]

    /// The agent's files, by path below Sources/TocsinAgent, that import an edge module.
    static func filesCallingTheLibraries() throws -> Set<String> {
        let files = try #require(FileManager.default.enumerator(at: agentSources, includingPropertiesForKeys: nil))
        var found: Set<String> = []
        for case let url as URL in files where url.pathExtension == "swift" {
            let text = try String(contentsOf: url, encoding: .utf8)
            let imports = text.split(separator: "\n").compactMap { line -> String? in
                line.hasPrefix("import ") ? String(line.dropFirst("import ".count)).trimmingCharacters(in: .whitespaces) : nil
            }
            if imports.contains(where: edgeModules.contains) {
                found.insert(String(url.path.dropFirst(agentSources.path.count + 1)))
            }
        }
        return found
    }

    @Test func noNewFileOfTheAgentCallsTheLibrariesOnlyTheEdgeMay() throws {
        let calling = try Self.filesCallingTheLibraries()
        let newOnes = calling.subtracting(Self.notYetMoved)
        #expect(newOnes.isEmpty, "these call GLib, libnotify, libcanberra or libpulse outside Sources/Edge: \(newOnes.sorted())")
        let moved = Self.notYetMoved.subtracting(calling)
        #expect(moved.isEmpty, "these no longer call them: take them off notYetMoved: \(moved.sorted())")
    }
}
