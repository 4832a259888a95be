import Foundation
import Glibc
import HeadlessSession
import Testing

/// A sound file on a mount that hangs (a network share whose server went away; here a FUSE file
/// system whose files never answer, `Tests/Support/HangingFilesystem`) blocks whoever looks at
/// it. The agent looks at a sound file a caller names off its main loop, so while that look
/// hangs every other call is answered and every other alarm rings on time; once the mount goes,
/// the caller is told the file could not be examined.
@Suite(.serialized) struct HungSoundFileTests {
    static let filesystem = AgentSession.repository.appendingPathComponent("Tests/Support/HangingFilesystem/hanging-filesystem")

    @Test func aSoundFileOnAHungMountHoldsUpNothingElse() throws {
        let fixture = try AgentSession("hung-sound-file")
        let mountpoint = fixture.session.directory.appendingPathComponent("share")
        try FileManager.default.createDirectory(at: mountpoint, withIntermediateDirectories: true)
        let share = try fixture.session.launch(Self.filesystem, [mountpoint.path])
        defer {
            // Ending the server ends the looks it left hanging (they fail), then the mount goes.
            share.kill(signal: SIGKILL)
            _ = try? fixture.session.run(URL(fileURLWithPath: "/bin/fusermount3"), ["-u", "-z", mountpoint.path], timeout: .seconds(10))
        }
        try #require(fixture.eventually(timeout: 10) { share.standardOutput().contains("mounted") },
                     "the hanging file system did not start: \(share.standardError())")
        #expect(fixture.eventually(timeout: 5) { (try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8))?.contains(mountpoint.path) == true },
                "not mounted at \(mountpoint.path)")

        let recording = try fixture.session.startRecording()
        let eggs = try fixture.startTimer("3s", "--title", "Eggs")
        let fireTime = Date(timeIntervalSince1970: try #require(try fixture.alarm(eggs)?.number("fire-time")))
        // The caller waits for its answer; the agent must not.
        // A path in words: Foundation's URL would ask the file whether it is a directory.
        let hung = try fixture.session.launch(try AgentSession.binary("tocsin"),
                                              ["timer", "10s", "--title", "Bell", "--sound", mountpoint.path + "/bell.wav"])
        defer { hung.terminate() }
        // FUSE names the thread that looked: one of the agent's, not the command line's.
        func lookedAtByTheAgent() -> Bool {
            share.standardOutput().split(separator: "\n").contains { line in
                guard line.hasPrefix("looked at /bell.wav by "), let thread = Int32(line.split(separator: " ").last ?? "") else { return false }
                return FileManager.default.fileExists(atPath: "/proc/\(fixture.agent.pid)/task/\(thread)")
            }
        }
        try #require(fixture.eventually(timeout: 5) { lookedAtByTheAgent() },
                     "the agent never looked at the file (\(share.standardOutput())): \(fixture.agentLog.suffix(1000))")

        // While the look hangs, the agent answers at once…
        for _ in 0..<3 {
            let asked = Date()
            let status = try fixture.tocsin("status")
            let took = Date().timeIntervalSince(asked)
            #expect(status.status == 0, "\(status)")
            #expect(took < 1.0, "tocsin status took \(took) s while a sound file's look hung")
        }
        // …and rings the next alarm on time.
        var firstSound: Date?
        _ = fixture.eventually(timeout: 6) {
            firstSound = recording.currentTrace().firstLoudWindow(after: fireTime.addingTimeInterval(-0.05))
            return firstSound != nil
        }
        guard let firstSound else {
            Issue.record("Eggs was never heard while the look hung; the agent said: \(fixture.agentLog.suffix(1500))")
            return
        }
        #expect(firstSound.timeIntervalSince(fireTime) < 0.5, "Eggs rang \(firstSound.timeIntervalSince(fireTime)) s after due")
        #expect(hung.isRunning, "the call naming the hung file was answered while the look still hung: \(hung.standardOutput())")
        _ = recording.stop()

        // The mount goes: the look fails, and the caller is told why; nothing was scheduled.
        share.kill(signal: SIGKILL)
        let exit = hung.waitForExit(timeout: .seconds(10))
        #expect(exit != nil && exit != 0, "the call naming the hung file ended with \(String(describing: exit))")
        #expect(hung.standardError().contains("cannot be examined"), "it said: \(hung.standardError()) \(hung.standardOutput())")
        #expect(try fixture.alarms().allSatisfy { $0["title"] as? String != "Bell" })
    }
}
