import Foundation
import Testing
@testable import HeadlessSession

extension RealSessionTests {
    /// Process handling that the session relies on, tested without a desktop.
    @Suite("Child processes")
    struct ChildProcesses {
        /// A program that closes every inherited descriptor, as pulseaudio does at startup.
        static let descriptorCloser = """
            for fd in $(ls /proc/$$/fd); do [ "$fd" -gt 2 ] && eval "exec $fd>&-"; done; sleep 3
            """

        private func makeLauncher() throws -> ChildLauncher {
            let layout = try SessionLayout.create(label: "unit-children")
            return ChildLauncher(layout: layout, registry: ProcessRegistry(layout: layout))
        }

        @Test("an exit is noticed at once, even while another child has closed its inherited descriptors")
        func exitNoticedDespiteDescriptorCloser() throws {
            let launcher = try makeLauncher()
            defer { try? FileManager.default.removeItem(at: launcher.layout.root) }
            let closer = try launcher.launch(name: "closer", executable: URL(fileURLWithPath: "/bin/bash"), arguments: ["-c", Self.descriptorCloser],
                                             environment: ProcessInfo.processInfo.environment)
            Thread.sleep(forTimeInterval: 0.2)  // let it close its descriptors
            let started = ContinuousClock.now
            let quick = try launcher.run(name: "true", executable: URL(fileURLWithPath: "/bin/true"), arguments: [],
                                         environment: [:], timeout: .seconds(2))
            #expect(quick.status == 0)
            #expect(ContinuousClock.now - started < .milliseconds(500))
            #expect(closer.isRunning, "a child that closed its descriptors was taken for exited")
            closer.terminate(grace: .milliseconds(500))
            #expect(!closer.isRunning)
        }

        @Test("terminate ends a process group and reports the signal like a shell")
        func terminateReportsSignal() throws {
            let launcher = try makeLauncher()
            defer { try? FileManager.default.removeItem(at: launcher.layout.root) }
            let process = try launcher.launch(name: "sh", executable: URL(fileURLWithPath: "/bin/sh"),
                                              arguments: ["-c", "sleep 30 & echo $! > \(launcher.layout.root.path)/grandchild; wait"],
                                              environment: [:])
            #expect(Polling.until(timeout: .seconds(2)) {
                FileManager.default.fileExists(atPath: launcher.layout.root.appendingPathComponent("grandchild").path)
            })
            Thread.sleep(forTimeInterval: 0.05)
            let grandchildText = try String(contentsOf: launcher.layout.root.appendingPathComponent("grandchild"), encoding: .utf8)
            let grandchild = try #require(Int32(grandchildText.trimmingCharacters(in: .whitespacesAndNewlines)))
            process.terminate()
            #expect(process.terminationStatus == 128 + SIGTERM)
            #expect(Polling.until(timeout: .seconds(2)) { !processIsAlive(grandchild) })
        }

        @Test("the orphan reaper kills the children of a session whose owner died, and only those")
        func orphanReaper() throws {
            let parent = FileManager.default.temporaryDirectory
                .appendingPathComponent("tocsin-reaper-test-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: parent) }

            func fakeSession(_ name: String, ownerAlive: Bool) throws -> (SessionLayout, SpawnedProcess) {
                let layout = SessionLayout(root: parent.appendingPathComponent(SessionLayout.directoryPrefix + name))
                try FileManager.default.createDirectory(at: layout.root, withIntermediateDirectories: true)
                let me = try #require(ProcessIdentity.current(pid: ProcessInfo.processInfo.processIdentifier))
                // A dead owner: our PID with another start time, i.e. an earlier process that had it.
                let owner = ownerAlive ? me : ProcessIdentity(pid: me.pid, startTicks: me.startTicks + 1)
                try owner.recordLine(name: "owner").write(to: layout.ownerRecord, atomically: true, encoding: .utf8)
                let child = try SpawnedProcess(URL(fileURLWithPath: "/bin/sleep"), ["30"])
                let identity = try #require(ProcessIdentity.current(pid: child.pid))
                try (identity.recordLine(name: "sleep") + "\n").write(to: layout.processRecord, atomically: true, encoding: .utf8)
                return (layout, child)
            }

            let (abandoned, orphan) = try fakeSession("abandoned", ownerAlive: false)
            let (active, activeChild) = try fakeSession("active", ownerAlive: true)
            defer { kill(activeChild.pid, SIGKILL) }

            OrphanReaper.reapAbandonedSessions(in: parent)
            #expect(Polling.until(timeout: .seconds(2)) { !orphan.isRunning })
            #expect(!FileManager.default.fileExists(atPath: abandoned.root.path))
            #expect(activeChild.isRunning)
            #expect(FileManager.default.fileExists(atPath: active.root.path))
        }
    }
}
