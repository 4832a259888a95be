import Foundation

/// Every child a session starts, so `stop()` can end them all by their saved PIDs, and a record on
/// disk so a later session can clean up after a test process that crashed (see `OrphanReaper`).
///
/// `@unchecked Sendable`: children are registered from whatever thread calls `launch`, so the list
/// and the sequence counter are guarded by `lock`.
final class ProcessRegistry: @unchecked Sendable {
    private let layout: SessionLayout
    private let lock = NSLock()
    private var processes: [SessionProcess] = []
    private var launchCount = 0
    /// Set by `terminateAll`; no child may start afterwards.
    private var closed = false
    /// What `terminateAll` undoes after the children are gone (what they ran in: network namespaces).
    private var cleanups: [() -> Void] = []

    init(layout: SessionLayout) {
        self.layout = layout
    }

    /// A number that makes each child's log file names unique.
    func nextSequence() -> Int {
        lock.lock()
        defer { lock.unlock() }
        launchCount += 1
        return launchCount
    }

    /// Remembers `process` and appends it to the on-disk record. A process started while the
    /// session was being stopped is ended at once, so it cannot outlive the session.
    func register(_ process: SessionProcess) throws {
        lock.lock()
        let isClosed = closed
        processes.append(process)
        lock.unlock()
        if isClosed {
            process.terminate(grace: .milliseconds(200))
            throw HeadlessSessionError.sessionStopped
        }
        guard let identity = ProcessIdentity.current(pid: process.pid) else { return }  // already gone
        appendRecord(identity.recordLine(name: process.name) + "\n")
    }

    /// Children that have not exited yet.
    var running: [SessionProcess] {
        lock.lock()
        defer { lock.unlock() }
        return processes.filter(\.isRunning)
    }

    /// Every child ever started, including finished ones.
    var all: [SessionProcess] {
        lock.lock()
        defer { lock.unlock() }
        return processes
    }

    /// SIGTERM to every running child at once, SIGKILL to those still running after `grace`.
    func terminateAll(grace: Duration = .seconds(2)) {
        lock.lock()
        closed = true
        lock.unlock()
        let targets = running
        for process in targets { process.kill(signal: SIGTERM) }
        let deadline = ContinuousClock.now.advanced(by: grace)
        for process in targets {
            let remaining = deadline - ContinuousClock.now
            if remaining <= .zero || process.waitForExit(timeout: remaining) == nil {
                process.kill(signal: SIGKILL)
            }
        }
        for process in targets where process.isRunning {
            process.waitForExit(timeout: .seconds(2))
        }
        lock.lock()
        let undo = cleanups
        cleanups = []
        lock.unlock()
        for cleanup in undo.reversed() { cleanup() }
    }

    /// Runs `cleanup` once every child has ended, when the session stops; it may start no child.
    func addCleanup(_ cleanup: @escaping () -> Void) {
        lock.lock()
        cleanups.append(cleanup)
        lock.unlock()
    }

    private func appendRecord(_ line: String) {
        lock.lock()
        defer { lock.unlock() }
        let url = layout.processRecord
        if !FileManager.default.fileExists(atPath: url.path) {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        }
        guard let handle = try? FileHandle(forWritingTo: url) else { return }
        defer { try? handle.close() }
        _ = try? handle.seekToEnd()
        try? handle.write(contentsOf: Data(line.utf8))
    }
}
