import BusTestSupport
import CGLib
import Foundation
import Testing
@testable import TocsinEdge

/// Where libpulse looks for a server, read as libpulse reads it, and the watch that says when a
/// socket appears there: it follows directories that do not exist yet down as they appear (GLib
/// would poll a missing directory every 4 s), up again when they go, and says nothing for other
/// files, nor for a socket that was already there when it started.
@Suite(.serialized) struct PulseServerWatchTests {
    @Test func serverListsAreReadAsLibpulseReadsThem() {
        #expect(PulseServerAddress.parse(serverList: "unix:/run/user/1000/pulse/native")
                == PulseServerAddress(sockets: ["/run/user/1000/pulse/native"], hasUnwatchable: false))
        #expect(PulseServerAddress.parse(serverList: "{0123abcd}unix:/a/native  /b/native\ttcp:example.org:4713")
                == PulseServerAddress(sockets: ["/a/native", "/b/native"], hasUnwatchable: true))
        #expect(PulseServerAddress.parse(serverList: "tcp6:[::1]") == PulseServerAddress(sockets: [], hasUnwatchable: true))
        #expect(PulseServerAddress.parse(serverList: "localhost") == PulseServerAddress(sockets: [], hasUnwatchable: true))
        // A list of thousands of entries is read for its first 16.
        #expect(PulseServerAddress.parse(serverList: Array(repeating: "/s", count: 5000).joined(separator: " ")).sockets.count == 16)
    }

    @Test func withoutPulseServerTheSocketsAreTheUsersThenTheSystemOnes() throws {
        let home = try Self.temporaryDirectory("pulse-home")
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["HOME": home.path, "XDG_CONFIG_HOME": home.appendingPathComponent("config").path, "XDG_RUNTIME_DIR": "/run/user/4242"]
        // /etc/pulse/client.conf of this machine may name a default-server; only then is the list another.
        let systemServer = PulseServerAddress.defaultServer(inClientConfFor: ["HOME": home.path])
        if systemServer == nil {
            #expect(PulseServerAddress.current(environment: environment)
                    == PulseServerAddress(sockets: ["/run/user/4242/pulse/native", "/var/run/pulse/native"], hasUnwatchable: false))
        }
        #expect(PulseServerAddress.current(environment: environment.merging(["PULSE_SERVER": "unix:/elsewhere/s"]) { $1 }).sockets == ["/elsewhere/s"])
        #expect(PulseServerAddress.current(environment: environment.merging(["PULSE_RUNTIME_PATH": "/p"]) { $1 }).sockets.first
                == (systemServer == nil ? "/p/native" : PulseServerAddress.parse(serverList: systemServer!).sockets.first))
        // The user's client.conf names the server.
        let conf = home.appendingPathComponent("config/pulse/client.conf")
        try FileManager.default.createDirectory(at: conf.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "; a comment\n# default-server = /not/this\nautospawn = no\n  default-server =  unix:/from/conf  # trailing\n".write(to: conf, atomically: true, encoding: .utf8)
        #expect(PulseServerAddress.current(environment: environment).sockets == ["/from/conf"])
    }

    @Test func aSocketIsSeenWhenItAppearsUnderDirectoriesThatDidNotExist() throws {
        let root = try Self.temporaryDirectory("pulse-watch")
        defer { try? FileManager.default.removeItem(at: root) }
        let runtime = root.appendingPathComponent("run/pulse")
        let socket = runtime.appendingPathComponent("native")
        try withOwnMainContext { context in
            let watch = PulseServerWatch(sockets: [socket.path])
            var appeared = 0
            watch.onAppeared = { appeared += 1 }
            watch.start()
            #expect(watch.watchedDirectories == [root.path])
            try FileManager.default.createDirectory(at: root.appendingPathComponent("run"), withIntermediateDirectories: false)
            #expect(runMainContext(context, for: 3) { watch.watchedDirectories == [root.appendingPathComponent("run").path] }, "\(watch.watchedDirectories)")
            try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: false)
            #expect(runMainContext(context, for: 3) { watch.watchedDirectories == [runtime.path] }, "\(watch.watchedDirectories)")
            // Other files there are no news.
            try "x".write(to: runtime.appendingPathComponent("pid"), atomically: false, encoding: .utf8)
            runMainContext(context, for: 0.3)
            #expect(appeared == 0)
            let server = try UnixSocketServer(path: socket.path) { _ in }
            #expect(runMainContext(context, for: 3) { appeared > 0 })
            // The server goes and its directory with it: the watch moves up, and sees the next one.
            server.stop()
            try FileManager.default.removeItem(at: runtime)
            #expect(runMainContext(context, for: 3) { watch.watchedDirectories == [root.appendingPathComponent("run").path] }, "\(watch.watchedDirectories)")
            let seen = appeared
            try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: false)
            let again = try UnixSocketServer(path: socket.path) { _ in }
            defer { again.stop() }
            #expect(runMainContext(context, for: 3) { appeared > seen })
            watch.stop()
            #expect(watch.watchedDirectories.isEmpty && !watch.isWatching)
        }
    }

    @Test func aSocketAlreadyThereIsNoNewsUntilItIsMadeAgain() throws {
        let root = try Self.temporaryDirectory("pulse-stale")
        defer { try? FileManager.default.removeItem(at: root) }
        let socket = root.appendingPathComponent("native")
        let stale = try UnixSocketServer(path: socket.path) { _ in }
        // A crashed server's socket: the file stays, nobody listens.
        stale.closeKeepingFile()
        try withOwnMainContext { context in
            let watch = PulseServerWatch(sockets: [socket.path])
            var appeared = 0
            watch.onAppeared = { appeared += 1 }
            watch.start()
            runMainContext(context, for: 0.3)
            #expect(appeared == 0)
            #expect(watch.anySocketExists)
            // The next server removes it and makes its own.
            unlink(socket.path)
            let server = try UnixSocketServer(path: socket.path) { _ in }
            defer { server.stop() }
            #expect(runMainContext(context, for: 3) { appeared > 0 })
        }
    }

    static func temporaryDirectory(_ label: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}
