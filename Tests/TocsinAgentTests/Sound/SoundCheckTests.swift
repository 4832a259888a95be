import Foundation
import Testing
import TocsinCore
@testable import TocsinAgent

@Suite struct SoundCheckTests {
    /// A canonical 44-byte WAV header with `bits` bits per sample.
    static func wavHeader(bits: UInt8) -> [UInt8] {
        var header = Array("RIFF".utf8) + [36, 0, 0, 0] + Array("WAVE".utf8) + Array("fmt ".utf8)
        header += [16, 0, 0, 0, 1, 0, 2, 0, 0x44, 0xAC, 0, 0, 0x10, 0xB1, 0x02, 0, 4, 0, bits, 0]
        return header + Array("data".utf8) + [0, 0, 0, 0]
    }

    @Test func sixteenBitWavAndOggAreAccepted() {
        #expect(SoundCheck.problem(withHeader: Self.wavHeader(bits: 16), path: "/a.wav") == nil)
        #expect(SoundCheck.problem(withHeader: Array("OggS".utf8) + [0, 2], path: "/a.oga") == nil)
    }

    @Test func thirtyTwoBitWavIsRefusedWithTheReason() throws {
        let problem = try #require(SoundCheck.problem(withHeader: Self.wavHeader(bits: 32), path: "/a.wav"))
        #expect(problem.contains("32-bit"))
    }

    @Test func otherFilesAreRefused() throws {
        let problem = try #require(SoundCheck.problem(withHeader: Array("ID3\u{3}".utf8), path: "/song.mp3"))
        #expect(problem.contains("/song.mp3"))
        #expect(problem.contains("neither a WAV nor an Ogg"))
    }

    @Test func missingFileIsNamed() throws {
        let problem = try #require(SoundCheck.problem(with: .file("/nonexistent/ring.wav")))
        #expect(problem == "The sound file “/nonexistent/ring.wav” does not exist.")
    }

    // Found by the fuzzer: opening a FIFO to read its header blocked the agent's main loop.
    @Test func aFifoOrADirectoryIsRefusedWithoutOpeningIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tocsin-fifo-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let fifo = directory.appendingPathComponent("ring.wav").path
        try #require(mkfifo(fifo, 0o600) == 0)
        #expect(SoundCheck.problem(with: .file(fifo)) == "“\(fifo)” is not a regular file; a sound must be a WAV or Ogg file.")
        #expect(SoundCheck.problem(with: .file(directory.path)) == "“\(directory.path)” is not a regular file; a sound must be a WAV or Ogg file.")
    }

    @Test func themeEventsAreLookedUpInTheDataDirectories() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("tocsin-sounds-\(UUID())")
        let stereo = data.appendingPathComponent("sounds/mytheme/stereo")
        try FileManager.default.createDirectory(at: stereo, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: data) }
        try Data("OggS".utf8).write(to: stereo.appendingPathComponent("gong.oga"))
        let environment = ["XDG_DATA_DIRS": data.path, "XDG_DATA_HOME": "/nonexistent", "HOME": "/nonexistent"]
        #expect(SoundCheck.problem(with: .themeEvent("gong"), environment: environment) == nil)
        let problem = try #require(SoundCheck.problem(with: .themeEvent("gongg"), environment: environment))
        #expect(problem.contains("“gongg”"))
    }

    @Test func theDefaultSoundNeedsNoCheck() {
        #expect(SoundCheck.problem(with: .standard, environment: [:]) == nil)
    }
}
