import Foundation

/// Cleans up after sessions whose owning test process died without stopping them (a crash, a
/// `kill -9`, a debugger stop). Such children would otherwise keep an X display, a bus and a sound
/// server running forever, since each child leads its own process group and no signal reaches it.
enum OrphanReaper {
    /// Writes the owner record of a new session.
    static func claim(_ layout: SessionLayout) {
        let pid = ProcessInfo.processInfo.processIdentifier
        guard let owner = ProcessIdentity.current(pid: pid) else { return }
        try? Data(owner.recordLine(name: "owner").utf8).write(to: layout.ownerRecord)
    }

    /// Kills the recorded children of every session directory whose owner is gone, and removes
    /// the directory unless it is marked to be kept.
    static func reapAbandonedSessions(in parent: URL = FileManager.default.temporaryDirectory) {
        let manager = FileManager.default
        guard let entries = try? manager.contentsOfDirectory(at: parent, includingPropertiesForKeys: nil) else { return }
        for directory in entries where directory.lastPathComponent.hasPrefix(SessionLayout.directoryPrefix) {
            let layout = SessionLayout(root: directory)
            guard let ownerText = try? String(contentsOf: layout.ownerRecord, encoding: .utf8),
                  let owner = ProcessIdentity(recordLine: Substring(ownerText)),
                  !owner.isAlive
            else { continue }  // still in use, or not fully created yet
            killRecordedChildren(of: layout)
            if !manager.fileExists(atPath: layout.keepMarker.path) {
                try? manager.removeItem(at: directory)
            }
        }
    }

    private static func killRecordedChildren(of layout: SessionLayout) {
        guard let record = try? String(contentsOf: layout.processRecord, encoding: .utf8) else { return }
        for line in record.split(separator: "\n") {
            // Only a process with the recorded start time is ours; a recycled PID is left alone.
            guard let child = ProcessIdentity(recordLine: line), child.isAlive else { continue }
            _ = kill(-child.pid, SIGKILL)
            _ = kill(child.pid, SIGKILL)
        }
    }
}
