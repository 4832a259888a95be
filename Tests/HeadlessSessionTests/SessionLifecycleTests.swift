import Foundation
import Testing
@testable import HeadlessSession

extension RealSessionTests {
    @Suite("Session lifecycle")
    struct Lifecycle {
        @Test("starts every component, isolates the environment, and leaves no process behind")
        func startsAndStopsCleanly() throws {
            let session = try HeadlessSession(label: "lifecycle")
            let environment = session.environment

            #expect(environment["DISPLAY"] == session.display)
            #expect(environment["DBUS_SESSION_BUS_ADDRESS"] == session.busAddress)
            #expect(environment["PULSE_SERVER"] == session.soundServerAddress)
            #expect(environment["WAYLAND_DISPLAY"] == nil)
            for key in ["HOME", "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_STATE_HOME"] {
                let value = try #require(environment[key], "\(key) missing")
                #expect(value.hasPrefix(session.directory.path), "\(key)=\(value) is outside the session")
            }
            let runtimeMode = try FileManager.default
                .attributesOfItem(atPath: try #require(environment["XDG_RUNTIME_DIR"]))[.posixPermissions] as? Int
            #expect(runtimeMode == 0o700)

            let names = Set(session.runningChildProcesses.map(\.name))
            #expect(names.isSuperset(of: ["dbus-daemon", "bus-monitor", "Xvfb", "pulseaudio", "dunst",
                                          "silence-stream"]), "running: \(names)")

            // The desktop really answers inside the session.
            let xdpyinfo = try session.run(try Tool.path("xdpyinfo"), [])
            #expect(xdpyinfo.succeeded, "\(xdpyinfo)")
            let pactl = try session.run(try Tool.path("pactl"), ["get-default-sink"])
            #expect(pactl.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "tocsin_null")

            // A program launched into the session that would otherwise outlive the test.
            let sleeper = try session.launch(URL(fileURLWithPath: "/bin/sleep"), ["60"])
            let pids = session.childProcesses.map(\.pid)
            #expect(pids.contains(sleeper.pid))
            #expect(processesUsing(session.directory).count >= names.count, "the scan must see the session's processes")
            #expect(processIsAlive(sleeper.pid))

            let stopStarted = ContinuousClock.now
            session.stop()
            #expect(ContinuousClock.now - stopStarted < .seconds(3))
            #expect(session.runningChildProcesses.isEmpty)
            let survivors = pids.filter(processIsAlive)
            #expect(survivors.isEmpty, "still alive after stop(): \(survivors)")
            #expect(processesUsing(session.directory).isEmpty, "processes still using the session")

            session.stop()  // idempotent
            #expect(throws: HeadlessSessionError.self) { _ = try session.launch(URL(fileURLWithPath: "/bin/true"), []) }
        }

        @Test("deinit stops the session and removes its directory")
        func deinitCleansUp() throws {
            var session: HeadlessSession? = try HeadlessSession(label: "deinit")
            let pids = try #require(session).childProcesses.map(\.pid)
            let directory = try #require(session).directory
            session = nil
            #expect(pids.filter(processIsAlive).isEmpty)
            #expect(processesUsing(directory).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: directory.path))
        }

        @Test("run captures output and status, and kills a program that overruns its timeout")
        func runCapturesAndTimesOut() throws {
            let session = try HeadlessSession(label: "run")
            defer { session.stop() }
            let shell = URL(fileURLWithPath: "/bin/sh")
            let result = try session.run(shell, ["-c", "echo out; echo err >&2; echo $HOME; exit 3"],
                                         extraEnvironment: ["EXTRA": "1"])
            #expect(result.status == 3)
            #expect(result.stdout == "out\n\(session.environment["HOME"] ?? "?")\n")
            #expect(result.stderr == "err\n")

            let started = ContinuousClock.now
            #expect(throws: HeadlessSessionError.self) {
                _ = try session.run(shell, ["-c", "sleep 30"], timeout: .milliseconds(300))
            }
            #expect(ContinuousClock.now - started < .seconds(3))
            #expect(session.childProcesses.filter { $0.name == "sh" }.allSatisfy { !$0.isRunning })
        }

        @Test("a component that fails to start is named with its stderr, and nothing is left running")
        func failingComponent() throws {
            // A dunst that fails the way a real one does without a display.
            let fakes = FileManager.default.temporaryDirectory.appendingPathComponent("tocsin-fake-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: fakes, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: fakes) }
            let fakeDunst = fakes.appendingPathComponent("dunst")
            try "#!/bin/sh\necho 'CRITICAL: Cannot open X11 display.' >&2\nexit 1\n"
                .write(to: fakeDunst, atomically: true, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fakeDunst.path)
            var environment = ProcessInfo.processInfo.environment
            environment["PATH"] = fakes.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")

            do {
                _ = try HeadlessSession(label: "failing", baseEnvironment: environment)
                Issue.record("the session should not start with a failing dunst")
            } catch let error as HeadlessSessionError {
                guard case let .componentFailed(component, reason, stderrTail) = error else {
                    Issue.record("unexpected error \(error)")
                    return
                }
                #expect(component == "dunst")
                #expect(reason.contains("exited with status 1"))
                #expect(stderrTail.contains("Cannot open X11 display"))
                #expect(error.description.contains("Cannot open X11 display"))
            }
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
                .filter { $0.hasPrefix(SessionLayout.directoryPrefix + "failing-") }
            #expect(leftovers.isEmpty, "the failed session's directory should be removed")
            #expect(processesMentioning(SessionLayout.directoryPrefix + "failing-").isEmpty, "processes left running")
        }

        @Test("a screenshot of the X screen is written")
        func screenshot() throws {
            let session = try HeadlessSession(label: "screenshot")
            defer { session.stop() }
            let file = session.directory.appendingPathComponent("screen.png")
            try session.screenshot(to: file)
            let data = try Data(contentsOf: file)
            #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]), "not a PNG")
        }
    }
}
