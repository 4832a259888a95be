import BusTestSupport
import Foundation
import Glibc
import HeadlessSession
import Testing
import TocsinCore
@testable import TocsinAgent

/// A process left running in a Flatpak-like bubblewrap sandbox, and what the test put in its
/// files; the host's pid namespace is kept so it can say its pid as the agent sees it.
final class RunningSandbox {
    let sandbox: FlatpakLikeSandbox
    private let process: SpawnedProcess
    let pid: pid_t
    /// A directory of the test's outside the sandbox (the sandbox has a /tmp of its own).
    let outside: URL

    /// Starts it; `prepare` may write files into the sandbox's directory first and returns
    /// bubblewrap arguments to put before the sandbox's own.
    init(appID: String?, prepare: (FlatpakLikeSandbox) throws -> [String] = { _ in [] }) throws {
        outside = FileManager.default.temporaryDirectory.appendingPathComponent("tocsin-sandbox-\(UUID())")
        sandbox = try FlatpakLikeSandbox(appID: appID, directory: outside.appendingPathComponent("sandbox"))
        let output = Pipe()
        let arguments = try prepare(sandbox) + sandbox.bwrapArguments(running: ["/bin/sh", "-c", "echo $$; exec sleep 60"], sharingProcessIDs: true)
        process = try SpawnedProcess(FlatpakLikeSandbox.bwrap, arguments, standardOutput: .pipe(output))
        var line: [UInt8] = []
        while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") {
            line.append(byte)
        }
        guard let pid = pid_t(String(decoding: line, as: UTF8.self)) else {
            throw SandboxTestError("bwrap started no sandbox (is bubblewrap installed? scripts/install-dependencies installs it)")
        }
        self.pid = pid
    }

    deinit {
        kill(process.pid, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: outside)
    }

    /// Writes `bytes` at `name` among the app's own files; returns the path as the app sees it.
    @discardableResult
    func putAppFile(_ name: String, _ bytes: [UInt8]) throws -> String {
        try Data(bytes).write(to: sandbox.appFiles.appendingPathComponent(name))
        return "\(FlatpakLikeSandbox.appFilesInside)/\(name)"
    }

    /// Writes `bytes` at `name` outside the sandbox; returns its host path.
    func putOutsideFile(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = outside.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }
}

struct SandboxTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A one-sample 16-bit WAV, with `tag` after it so files can be told apart.
func tinyWAV(_ tag: UInt8 = 0) -> [UInt8] {
    SoundCheckTests.wavHeader(bits: 16) + [0, 0, tag, tag]
}

@Suite struct ProcessFileViewTests {
    @Test func theAgentsOwnProcessSeesTheAgentsRoot() throws {
        #expect(try ProcessFileView(pid: getpid()).isAgentRoot)
    }

    @Test func aSandboxHasARootOfItsOwn() throws {
        let running = try RunningSandbox(appID: "org.example.Sandboxed")
        #expect(try ProcessFileView(pid: running.pid).isAgentRoot == false)
    }

    @Test func filesAreReadAsTheSandboxSeesThem() throws {
        let running = try RunningSandbox(appID: "org.example.Sandboxed")
        let view = try ProcessFileView(pid: running.pid)
        let inside = try running.putAppFile("ring.wav", tinyWAV(1))
        #expect(try view.readRegularFile(inside, limit: 1024) == tinyWAV(1))
        // The same file by its host path: the sandbox does not see the host's /tmp.
        let hostPath = running.sandbox.appFiles.appendingPathComponent("ring.wav").path
        #expect(FileManager.default.fileExists(atPath: hostPath))
        #expect(throws: ProcessFileView.Failure.self) { try view.readRegularFile(hostPath, limit: 1024) }
    }

    @Test func linksAndDotDotAreResolvedInsideTheSandbox() throws {
        let running = try RunningSandbox(appID: "org.example.Sandboxed")
        let view = try ProcessFileView(pid: running.pid)
        let secret = try running.putOutsideFile("secret.wav", tinyWAV(9))
        let appFiles = running.sandbox.appFiles.path
        // Made by the app in a directory it may write: an absolute link to the host's file…
        try FileManager.default.createSymbolicLink(atPath: "\(appFiles)/absolute.wav", withDestinationPath: secret)
        // …a relative one climbing past the sandbox's root…
        try FileManager.default.createSymbolicLink(atPath: "\(appFiles)/relative.wav", withDestinationPath: String(repeating: "../", count: 12) + secret.dropFirst())
        // …and one that stays inside, which works.
        try running.putAppFile("ring.wav", tinyWAV(1))
        try FileManager.default.createSymbolicLink(atPath: "\(appFiles)/inside.wav", withDestinationPath: "\(FlatpakLikeSandbox.appFilesInside)/ring.wav")
        for escape in ["/var/data/absolute.wav", "/var/data/relative.wav", "/var/data/../../../../..\(secret)", "/proc/self/root\(secret)"] {
            #expect(throws: ProcessFileView.Failure.self, "\(escape) reached the host's file") { try view.readRegularFile(escape, limit: 1024) }
        }
        #expect(try view.readRegularFile("/var/data/inside.wav", limit: 1024) == tinyWAV(1))
        // Without links at all, as /.flatpak-info is read.
        do {
            _ = try view.readRegularFile("/var/data/inside.wav", limit: 1024, followingLinks: false)
            Issue.record("a symbolic link was followed")
        } catch {
            #expect(error.message.contains("link"), "\(error.message)")
        }
    }

    @Test func onlyRegularFilesWithinTheLimitAreRead() throws {
        let running = try RunningSandbox(appID: "org.example.Sandboxed")
        let view = try ProcessFileView(pid: running.pid)
        // A FIFO nobody writes: opening it for reading would wait forever without O_NONBLOCK.
        try #require(mkfifo(running.sandbox.appFiles.appendingPathComponent("fifo.wav").path, 0o600) == 0)
        do {
            _ = try view.readRegularFile("/var/data/fifo.wav", limit: 1024)
            Issue.record("a FIFO was read")
        } catch {
            #expect(error.message == "“/var/data/fifo.wav” is not a regular file")
        }
        #expect(throws: ProcessFileView.Failure.self) { try view.readRegularFile("/dev/zero", limit: 1024) }
        #expect(throws: ProcessFileView.Failure.self) { try view.readRegularFile("/var/data", limit: 1024) }
        let big = try running.putAppFile("big.wav", [UInt8](repeating: 1, count: 3 * 1024 * 1024))
        do {
            _ = try view.readRegularFile(big, limit: 2 * 1024 * 1024)
            Issue.record("a file over the limit was read")
        } catch {
            #expect(error.message == "“/var/data/big.wav” is larger (3.0 MiB) than the 2.0 MiB it may be")
        }
    }

    @Test func aProcessThatIsGoneHasNoView() throws {
        let child = try SpawnedProcess(URL(fileURLWithPath: "/bin/true"))
        child.waitUntilExit()
        #expect(throws: ProcessFileView.Failure.self) { try ProcessFileView(pid: child.pid) }
    }
}

@Suite struct CallerIdentifierTests {
    static func identifier(_ credentials: [String: PeerCredentials]) -> CallerIdentifier {
        CallerIdentifier(credentials: { credentials[$0] })
    }

    /// The service error `body` threw; `nil` when it threw none.
    static func refusal(_ body: () throws -> Void) -> TocsinError? {
        do {
            try body()
            return nil
        } catch {
            return error as? TocsinError
        }
    }

    @Test func aProgramOutsideAnySandboxIsKnownByItsExecutableOrWhatItDeclares() throws {
        let callers = Self.identifier([":1.1": PeerCredentials(processID: getpid(), userID: getuid())])
        let executable = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")).lastPathComponent
        let caller = try callers.identify(":1.1")
        #expect(caller.appID == executable)
        #expect(caller.confinement == .unconfined)
        #expect(caller.files == nil)
        try callers.declare("org.example.Cook", for: ":1.1")
        #expect(try callers.identify(":1.1").appID == "org.example.Cook")
        // Only the command line is "tocsin".
        #expect(Self.refusal { try callers.declare("tocsin", for: ":1.1") }?.name == .notAuthorized)
        callers.forget(":1.1")
        #expect(try callers.identify(":1.1").appID == executable)
    }

    @Test func aFlatpakAppIsKnownByItsSandboxWhateverItDeclares() throws {
        let running = try RunningSandbox(appID: "org.example.Sandboxed")
        let callers = Self.identifier([":1.2": PeerCredentials(processID: running.pid, userID: getuid())])
        let caller = try callers.identify(":1.2")
        #expect(caller.appID == "org.example.Sandboxed")
        #expect(caller.confinement == .flatpak)
        #expect(caller.isSandboxed)
        #expect(!caller.isCommandLine)
        #expect(caller.files != nil)
        let spoofed = Self.refusal { try callers.declare("org.example.Other", for: ":1.2") }
        #expect(spoofed?.name == .notAuthorized)
        #expect(spoofed?.message == "This application runs in the sandbox of “org.example.Sandboxed” and cannot speak as “org.example.Other”.")
        #expect(Self.refusal { try callers.declare("tocsin", for: ":1.2") }?.name == .notAuthorized)
        try callers.declare("org.example.Sandboxed", for: ":1.2")
        #expect(try callers.identify(":1.2").appID == "org.example.Sandboxed")
    }

    @Test func whatCannotBePlacedIsRefusedNotTakenForTheUser() throws {
        let unidentified = try RunningSandbox(appID: nil)
        let gone = try SpawnedProcess(URL(fileURLWithPath: "/bin/true"))
        gone.waitUntilExit()
        let callers = Self.identifier([
            ":1.3": PeerCredentials(processID: unidentified.pid, userID: getuid()),
            ":1.4": PeerCredentials(processID: getpid(), userID: getuid() &+ 1),
            ":1.5": PeerCredentials(processID: gone.pid, userID: getuid()),
        ])
        let cases: [(String, String)] = [
            (":1.3", "runs in a sandbox that is not a Flatpak sandbox"),
            (":1.4", "comes from another user"),
            (":1.5", "cannot tell whether the calling process runs in a sandbox"),
            (":1.6", "The bus cannot tell which process is calling"),
        ]
        for (sender, reason) in cases {
            let refused = Self.refusal { _ = try callers.identify(sender) }
            #expect(refused?.name == .notAuthorized, "\(sender) was let in")
            #expect(refused?.message.contains(reason) == true, "\(sender): \(refused?.message ?? "no error")")
        }
    }

    @Test func aFlatpakInfoThatIsALinkDoesNotCount() throws {
        // A sandbox whose /.flatpak-info is a symbolic link to a file naming another app.
        let running = try RunningSandbox(appID: nil) { sandbox in
            try Data("[Application]\nname=org.example.Other\n".utf8).write(to: sandbox.appFiles.appendingPathComponent("info"))
            return ["--symlink", "\(FlatpakLikeSandbox.appFilesInside)/info", "/.flatpak-info"]
        }
        // The link is there and leads to the file: only its being a link keeps it from counting.
        let view = try ProcessFileView(pid: running.pid)
        #expect(try view.readRegularFile("/.flatpak-info", limit: 1024).count > 0)
        let pid = running.pid
        let callers = Self.identifier([":1.7": PeerCredentials(processID: pid, userID: getuid())])
        let refused = Self.refusal { _ = try callers.identify(":1.7") }
        #expect(refused?.message.contains("not a Flatpak sandbox") == true, "\(refused?.message ?? "identified")")
    }
}

@Suite struct SandboxedSoundCopiesTests {
    @Test func aSoundIsCopiedAsTheSandboxSeesItAndDiscardedWithItsAlarm() throws {
        let running = try RunningSandbox(appID: "org.example.Sandboxed")
        let view = try ProcessFileView(pid: running.pid)
        let copies = SandboxedSoundCopies(directory: running.outside.appendingPathComponent("sounds"))
        let inside = try running.putAppFile("ring.wav", tinyWAV(7))
        let sound = try SandboxedSoundCopies.keepCopy(of: inside, seenBy: view, limit: 1024, in: copies.directory)
        guard case .file(let copy) = sound else {
            Issue.record("not a file: \(sound)")
            return
        }
        #expect(copies.isCopy(copy))
        #expect(copy.hasSuffix(".wav"))
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: copy))) == tinyWAV(7))
        #expect(copies.bytesUsed(by: [sound, .standard, .file(inside)]) == tinyWAV(7).count)
        copies.discard(sound)
        #expect(!FileManager.default.fileExists(atPath: copy))
        // Paths not among the copies are never deleted.
        let hostPath = try running.putOutsideFile("mine.wav", tinyWAV())
        copies.discard(.file(hostPath))
        #expect(!copies.isCopy(hostPath))
        #expect(FileManager.default.fileExists(atPath: hostPath))
    }

    @Test func whatCannotBeCopiedIsRefusedWithTheReason() throws {
        let running = try RunningSandbox(appID: "org.example.Sandboxed")
        let view = try ProcessFileView(pid: running.pid)
        let directory = running.outside.appendingPathComponent("sounds")
        let hostPath = try running.putOutsideFile("secret.wav", tinyWAV())
        let text = try running.putAppFile("notes.wav", Array("just text, no sound".utf8))
        let big = try running.putAppFile("big.wav", tinyWAV() + [UInt8](repeating: 0, count: 4096))
        let cases: [(String, Int, String)] = [
            (hostPath, 1024, "“\(hostPath)” does not exist where the application sees files"),
            (text, 1024, "neither a WAV nor an Ogg file"),
            (big, 1024, "is larger (4 KiB) than the 1 KiB it may be (what is left of the 64 MiB an application's sound files may take)"),
        ]
        for (path, limit, reason) in cases {
            do {
                _ = try SandboxedSoundCopies.keepCopy(of: path, seenBy: view, limit: limit, in: directory)
                Issue.record("\(path) was copied")
            } catch {
                #expect(error.name == .invalidArgument)
                #expect(error.message.contains(reason), "\(error.message)")
            }
        }
        #expect((try? FileManager.default.contentsOfDirectory(atPath: directory.path))?.isEmpty ?? true, "a refused file left a copy")
    }

    @Test func copiesNoAlarmRingsAreDeletedAtStartUp() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tocsin-copies-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let copies = SandboxedSoundCopies(directory: directory)
        for name in ["kept.wav", "left.wav", ".left.wav.123.tmp"] {
            try Data(tinyWAV()).write(to: directory.appendingPathComponent(name))
        }
        let kept = AlarmSound.file(directory.appendingPathComponent("kept.wav").path)
        #expect(copies.discardCopies(notAmong: [kept, .standard, .file("/elsewhere/left.wav")]) == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["kept.wav"])
    }
}
