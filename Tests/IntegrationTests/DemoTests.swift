import Foundation
import HeadlessSession
import Testing

/// The README's first command: `scripts/demo` on a machine without a desktop runs tocsin-demo in
/// its own headless session, and installs only what that run uses (tocsin-demo --needs).
@Suite(.serialized) struct DemoTests {
    /// Runs the demo with `arguments` and no desktop session in its environment.
    static func demo(_ arguments: [String], timeout: TimeInterval) throws -> (status: Int32, output: String) {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("tocsin-demo-\(UUID()).log")
        #expect(FileManager.default.createFile(atPath: log.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: log) }
        let output = try FileHandle(forWritingTo: log)
        let process = Process()
        process.executableURL = try AgentSession.binary("tocsin-demo")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = nil
        process.environment = environment
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw IntegrationError("tocsin-demo \(arguments.joined(separator: " ")) ran longer than \(Int(timeout)) s")
        }
        try output.close()
        return (process.terminationStatus, try String(contentsOf: log, encoding: .utf8))
    }

    @Test func withoutADesktopTheDemoNeedsTheHeadlessSessionAndWithAScreenshotItsTools() throws {
        #expect(try Self.demo(["--needs"], timeout: 30) == (0, "headless\n"))
        #expect(try Self.demo(["--needs", "--screenshot", "/tmp/unused.png"], timeout: 30) == (0, "headless screenshot\n"))
        #expect(try Self.demo(["--needs", "--headless"], timeout: 30) == (0, "headless\n"))
    }

    @Test func theHeadlessDemoRingsIsStoppedIntoSilenceAndEndsWithAllIsWell() throws {
        let (status, output) = try Self.demo(["--headless"], timeout: 90)
        #expect(status == 0, "\(output)")
        #expect(output.contains("▶ Clicking Stop on the notification"), "\(output)")
        #expect(output.firstMatch(of: /the alarm rings through PulseAudio: level 0\.\d*[1-9]/) != nil, "no sound heard: \(output)")
        #expect(output.firstMatch(of: /after Stop: level [0-9.]+ — silent/) != nil, "not silent after Stop: \(output)")
        #expect(output.contains("All is well: alarms will be seen and heard here"), "\(output)")
        #expect(!output.contains("PROBLEM"), "\(output)")
    }
}
