import BusTestSupport
import CGLib
import CPulse
import Foundation
import GLibSupport
import Testing
import TocsinCore
@testable import TocsinEdge

/// What libpulse hands the agent when the sound server answers wrongly — a NULL info where one is
/// due, an error at the end of a list, a volume of 0 or 200 channels, a channel above the largest,
/// a channel map that does not match, a name of 100 kB or not UTF-8, an error code libpulse does
/// not know — is a named failure, said once per kind, and what it touched is "not known": never
/// a trap. The callbacks are called here as libpulse calls them.
@Suite(.serialized) struct LibPulseTests {
    static func cvolume(_ values: [UInt32], channels: Int? = nil) -> pa_cvolume {
        var volume = pa_cvolume()
        volume.channels = UInt8(channels ?? values.count)
        withUnsafeMutableBytes(of: &volume.values) { raw in
            let slots = raw.bindMemory(to: pa_volume_t.self)
            for (index, value) in values.prefix(slots.count).enumerated() { slots[index] = value }
        }
        return volume
    }

    static func map(channels: Int) -> pa_channel_map {
        var map = pa_channel_map()
        map.channels = UInt8(channels)
        return map
    }

    static let half = OutputLevels.fullVolume / 2

    @Test func levelsInRangeAreReadAsTheyAre() throws {
        let stereo = LibPulseConnection.levels(Self.cvolume([Self.half, OutputLevels.fullVolume]), map: Self.map(channels: 2), muted: 1)
        #expect(try stereo.get() == OutputLevels(channelVolumes: [Self.half, OutputLevels.fullVolume], isMuted: true))
        // Above 100 % is allowed (a boosted output), up to PA_VOLUME_MAX.
        let boosted = LibPulseConnection.levels(Self.cvolume([LibPulseConnection.volumeMax]), map: Self.map(channels: 1), muted: 0)
        #expect(try boosted.get() == OutputLevels(channelVolumes: [LibPulseConnection.volumeMax], isMuted: false))
    }

    static let wrongLevels: [(volume: pa_cvolume, map: pa_channel_map, label: String)] = [
        (cvolume([], channels: 0), map(channels: 0), "a volume of no channels"),
        (cvolume([half, half], channels: 200), map(channels: 200), "200 channels, more than PA_CHANNELS_MAX (32)"),
        (cvolume([half, half], channels: 33), map(channels: 33), "33 channels"),
        (cvolume([half, half]), map(channels: 6), "a channel map of 6 channels for a stereo volume"),
        (cvolume([half, UInt32.max]), map(channels: 2), "a channel at PA_VOLUME_INVALID"),
        (cvolume([LibPulseConnection.volumeMax + 1]), map(channels: 1), "a channel just above PA_VOLUME_MAX"),
    ]

    @Test("A volume or channel map out of range is a wrong value, not levels", arguments: 0..<wrongLevels.count)
    func levelsOutOfRangeAreAWrongValue(_ index: Int) {
        let (volume, map, label) = Self.wrongLevels[index]
        guard case .failure(.wrongValue(let message)) = LibPulseConnection.levels(volume, map: map, muted: 0) else {
            Issue.record("\(label) was read as levels")
            return
        }
        #expect(message.count < 200, "\(label): \(message)")
    }

    @Test func textIsReadWithinItsLimitAndOnlyAsUTF8() throws {
        #expect(try LibPulseConnection.text(nil, limit: 10).get() == nil)
        #expect(try "speakers".withCString { try LibPulseConnection.text($0, limit: 10).get() } == "speakers")
        // 100 kB: refused after reading at most limit + 1 bytes of it.
        let huge = String(repeating: "s", count: 100_000)
        #expect(huge.withCString { (try? LibPulseConnection.text($0, limit: LibPulseConnection.nameLimit).get()) == nil })
        let notUTF8: [CChar] = [0x73, -1, -2, 0x73, 0]
        #expect(notUTF8.withUnsafeBufferPointer { (try? LibPulseConnection.text($0.baseAddress, limit: 10).get()) == nil })
    }

    static func sinkInfo(name: UnsafePointer<CChar>?, volume: pa_cvolume = cvolume([half, half]), channels: Int = 2) -> pa_sink_info {
        var info = pa_sink_info()
        info.name = name
        info.volume = volume
        info.channel_map = map(channels: channels)
        return info
    }

    @Test func aSinkIsReadOnlyWithANameAndLevelsInRange() throws {
        try "speakers".withCString { name throws in
            #expect(try LibPulseConnection.sink(Self.sinkInfo(name: name)).get()
                    == PulseSink(name: "speakers", levels: OutputLevels(channelVolumes: [Self.half, Self.half], isMuted: false)))
            guard case .failure(.wrongValue(let message)) = LibPulseConnection.sink(Self.sinkInfo(name: name, channels: 3)) else {
                Issue.record("a sink whose channel map does not match its volume was read")
                return
            }
            #expect(message.contains("speakers"))
        }
        #expect(throws: PulseFailure.self) { try LibPulseConnection.sink(Self.sinkInfo(name: nil)).get() }
        #expect(throws: PulseFailure.self) { try "".withCString { try LibPulseConnection.sink(Self.sinkInfo(name: $0)).get() } }
        #expect(throws: PulseFailure.self) {
            try String(repeating: "n", count: 100_000).withCString { try LibPulseConnection.sink(Self.sinkInfo(name: $0)).get() }
        }
    }

    @Test func aServerWithoutNamesIsReadAsUnnamedAndAHugeDefaultSinkIsAWrongValue() throws {
        let bare = LibPulseConnection.serverInfo(pa_server_info())
        #expect(try bare.get() == PulseServerInfo(name: nil, version: nil, defaultSinkName: nil))
        String(repeating: "d", count: 100_000).withCString { huge in
            var info = pa_server_info()
            info.default_sink_name = huge
            #expect(throws: PulseFailure.self) { try LibPulseConnection.serverInfo(info).get() }
        }
    }

    @Test func anUnknownErrorCodeIsSaidAsANumber() {
        // pa_strerror answers NULL for these: reading that as a C string would trap.
        for code: Int32 in [9999, -9999, Int32.max, Int32.min, Int32(PA_ERR_MAX.rawValue)] {
            let error = PulseConnectError(code: code)
            #expect(error.message == "libpulse error \(code)", "\(code): \(error.message)")
        }
        #expect(PulseConnectError(code: Int32(PA_ERR_CONNECTIONREFUSED.rawValue)).message == "Connection refused")
        #expect(PulseConnectError(code: Int32(PA_ERR_CONNECTIONREFUSED.rawValue)).noServerListens)
        #expect(!PulseConnectError(code: Int32(PA_ERR_TIMEOUT.rawValue)).noServerListens)
    }

    @Test func outgoingVolumesOutOfRangeAreNotSent() {
        #expect(LibPulseConnection.cvolume([]) == nil)
        #expect(LibPulseConnection.cvolume(Array(repeating: Self.half, count: 33)) == nil)
        #expect(LibPulseConnection.cvolume([UInt32.max]) == nil)
        #expect(LibPulseConnection.cvolume([Self.half, Self.half])?.channels == 2)
        #expect(LibPulseConnection.softwareVolume(decibels: .nan) == nil)
        #expect(LibPulseConnection.softwareVolume(decibels: 0) == OutputLevels.fullVolume)
        #expect(LibPulseConnection.softwareVolume(decibels: -.infinity) == 0)
    }

    // MARK: The callbacks, called as libpulse calls them

    @Test func aSinkListWithANullInfoAndAnErrorAtItsEndIsNotKnownAndSaidOncePerKind() throws {
        try withOwnMainContext { _ throws in
            let lines = SaidLines()
            let connection = LibPulseConnection(applicationName: "test", faults: NeighbourFaults(say: lines.say))
            var answers: [[PulseSink]?] = []
            let userData = connection.pendingSinkList { answers.append($0) }
            // Two NULL infos before the end: skipped, said once.
            LibPulseConnection.sinkInfoCallback(nil, nil, 0, userData)
            LibPulseConnection.sinkInfoCallback(nil, nil, 0, userData)
            // A sink with 200 channels, twice: skipped, said once.
            var wrong = Self.sinkInfo(name: nil, volume: Self.cvolume([1, 2], channels: 200), channels: 200)
            try "odd".withCString { name in
                wrong.name = name
                LibPulseConnection.sinkInfoCallback(nil, &wrong, 0, userData)
                LibPulseConnection.sinkInfoCallback(nil, &wrong, 0, userData)
                var good = Self.sinkInfo(name: name)
                LibPulseConnection.sinkInfoCallback(nil, &good, 0, userData)
                #expect(answers.isEmpty)
                // The list ends in an error: nothing is known of it.
                LibPulseConnection.sinkInfoCallback(nil, nil, -1, userData)
                try #require(answers.count == 1)
                #expect(answers[0] == nil)
            }
            // Once done, the same userData (a late or repeated call) is not read again.
            LibPulseConnection.sinkInfoCallback(nil, nil, 1, userData)
            #expect(answers.count == 1)
            #expect(connection.pendingCount == 0)
            #expect(lines.all.count == 3, "\(lines.all)")
            #expect(lines.all.allSatisfy { $0.hasPrefix(LibPulseConnection.neighbour) && $0.count < 600 }, "\(lines.all)")
        }
    }

    @Test func aSinkListThatEndsWellGivesTheSinksInRange() throws {
        try withOwnMainContext { _ in
            let connection = LibPulseConnection(applicationName: "test", faults: NeighbourFaults { _ in })
            var answer: [PulseSink]??
            let userData = connection.pendingSinkList { answer = .some($0) }
            "speakers".withCString { name in
                var info = Self.sinkInfo(name: name)
                LibPulseConnection.sinkInfoCallback(nil, &info, 0, userData)
            }
            LibPulseConnection.sinkInfoCallback(nil, nil, 1, userData)
            let sinks = try #require(answer ?? nil)
            #expect(sinks.map(\.name) == ["speakers"])
        }
    }

    @Test func thousandsOfSinksAreReadAsAtMostTheLimit() throws {
        try withOwnMainContext { _ in
            let lines = SaidLines()
            let connection = LibPulseConnection(applicationName: "test", faults: NeighbourFaults(say: lines.say))
            var answer: [PulseSink]?
            let userData = connection.pendingSinkList { answer = $0 }
            for index in 0..<5000 {
                "sink-\(index)".withCString { name in
                    var info = Self.sinkInfo(name: name)
                    LibPulseConnection.sinkInfoCallback(nil, &info, 0, userData)
                }
            }
            LibPulseConnection.sinkInfoCallback(nil, nil, 1, userData)
            #expect(answer?.count == LibPulseConnection.sinkLimit)
            #expect(lines.all.count == 1, "\(lines.all)")
        }
    }

    @Test func aNullServerInfoIsNotKnown() throws {
        try withOwnMainContext { _ in
            let lines = SaidLines()
            let connection = LibPulseConnection(applicationName: "test", faults: NeighbourFaults(say: lines.say))
            var answers: [PulseServerInfo?] = []
            LibPulseConnection.serverInfoCallback(nil, nil, connection.pendingServerInfo { answers.append($0) })
            LibPulseConnection.serverInfoCallback(nil, nil, connection.pendingServerInfo { answers.append($0) })
            #expect(answers == [nil, nil])
            #expect(lines.all.count == 1, "\(lines.all)")
            // No userData at all (never given by the agent): nothing is read, nothing traps.
            LibPulseConnection.serverInfoCallback(nil, nil, nil)
            LibPulseConnection.sinkInfoCallback(nil, nil, 0, nil)
            LibPulseConnection.streamInfoCallback(nil, nil, -1, nil)
            LibPulseConnection.commandDone(nil, 1, nil)
            #expect(answers.count == 2)
        }
    }

    @Test func onlyTheAgentsOwnStreamsAreReadAndTheirPropertiesBounded() throws {
        try withOwnMainContext { _ in
            let lines = SaidLines()
            let connection = LibPulseConnection(applicationName: "test", faults: NeighbourFaults(say: lines.say))
            var answer: [PulseStream]?
            let userData = connection.pendingStreamList(whose: "application.process.id", is: "42", reading: ["tocsin.volume-db"]) { answer = $0 }
            func stream(_ index: UInt32, pid: String?, gain: String?, channels: Int = 2) {
                var info = pa_sink_input_info()
                info.index = index
                info.volume = Self.cvolume([Self.half, Self.half], channels: channels)
                info.channel_map = Self.map(channels: channels)
                let proplist = pa_proplist_new()
                defer { pa_proplist_free(proplist) }
                if let pid { pa_proplist_sets(proplist, "application.process.id", pid) }
                if let gain { pa_proplist_sets(proplist, "tocsin.volume-db", gain) }
                info.proplist = proplist
                LibPulseConnection.streamInfoCallback(nil, &info, 0, userData)
            }
            stream(1, pid: "42", gain: "-3.00")
            stream(2, pid: "7", gain: "0", channels: 200)           // another program's, however odd: not read
            stream(3, pid: "42", gain: String(repeating: "9", count: 100_000))
            stream(4, pid: "42", gain: nil, channels: 0)
            stream(5, pid: nil, gain: nil)
            var noProperties = pa_sink_input_info()
            LibPulseConnection.streamInfoCallback(nil, &noProperties, 0, userData)  // NULL proplist
            LibPulseConnection.streamInfoCallback(nil, nil, 1, userData)
            let streams = try #require(answer)
            #expect(streams.map(\.index) == [1])
            #expect(streams.first?.properties == ["tocsin.volume-db": "-3.00"])
            #expect(lines.all.count == 1, "one kind (a wrong value), said once: \(lines.all)")
        }
    }

    @Test func aCommandThatFailsSaysSoAndOneThatSucceedsDoesNot() throws {
        try withOwnMainContext { _ in
            let connection = LibPulseConnection(applicationName: "test", faults: NeighbourFaults { _ in })
            var outcomes: [PulseFailure?] = []
            LibPulseConnection.commandDone(nil, 1, connection.pendingCommand { outcomes.append($0) })
            LibPulseConnection.commandDone(nil, 0, connection.pendingCommand { outcomes.append($0) })
            LibPulseConnection.commandDone(nil, 7, connection.pendingCommand { outcomes.append($0) })
            #expect(outcomes.count == 3)
            #expect(outcomes[0] == nil)
            #expect(outcomes[1] != nil && outcomes[2] != nil)
            // Asked with no connection: said at once, nothing sent.
            var refused: PulseFailure?
            connection.setSinkMute("speakers", true) { refused = $0 }
            #expect(refused == .noConnection)
            var unsendable: PulseFailure?
            connection.setSinkVolume("speakers", []) { unsendable = $0 }
            if case .wrongValue = unsendable {} else { Issue.record("an empty volume was not refused: \(String(describing: unsendable))") }
        }
    }

    // MARK: Connections that go wrong

    @Test func aSocketNobodyServesIsAFailedConnectionThatSaysNoServerListens() throws {
        try withOwnMainContext { context in
            let connection = LibPulseConnection(applicationName: "test", faults: NeighbourFaults { _ in })
            var states: [PulseConnectionState] = []
            connection.onStateChange = { states.append($0) }
            connection.connect(server: "unix:/nonexistent-\(UUID().uuidString)/native")
            #expect(runMainContext(context, for: 3) { !states.isEmpty })
            guard case .failed(let error) = states.first else {
                Issue.record("\(states)")
                return
            }
            #expect(error.noServerListens, "\(error)")
            #expect(connection.state == states.first)
            // Let go of the failed context on the loop, then again.
            runMainContext(context, for: 0.1)
            connection.connect(server: "unix:/nonexistent-\(UUID().uuidString)/native")
            #expect(runMainContext(context, for: 3) { states.count == 2 })
        }
    }

    @Test func aServerThatAnswersGarbageIsAFailedConnection() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("libpulse-garbage-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("native").path
        let server = try UnixSocketServer(path: path) { client in
            // A frame header claiming 4 GB, then noise.
            let noise: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF] + Array(repeating: 0xA5, count: 4096)
            _ = noise.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
        }
        defer { server.stop() }
        try withOwnMainContext { context in
            let connection = LibPulseConnection(applicationName: "test", faults: NeighbourFaults { _ in })
            var states: [PulseConnectionState] = []
            connection.onStateChange = { states.append($0) }
            connection.connect(server: "unix:\(path)")
            #expect(runMainContext(context, for: 10) { !states.isEmpty })
            guard case .failed(let error) = states.first else {
                Issue.record("\(states)")
                return
            }
            #expect(!error.message.isEmpty)
            #expect(connection.state != .ready)
        }
    }
}

/// A Unix socket that accepts connections on a thread of its own and hands each to `serve`.
final class UnixSocketServer: @unchecked Sendable {
    private let descriptor: Int32
    private let path: String
    private let thread: Thread

    init(path: String, serve: @escaping @Sendable (Int32) -> Void) throws {
        self.path = path
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(descriptor, 4) == 0 else {
            close(descriptor)
            throw POSIXError(.EADDRINUSE)
        }
        let listening = descriptor
        thread = Thread {
            while true {
                let client = accept(listening, nil, nil)
                guard client >= 0 else { return }
                serve(client)
                Thread.sleep(forTimeInterval: 0.2)
                close(client)
            }
        }
        thread.start()
    }

    func stop() {
        closeKeepingFile()
        unlink(path)
    }

    /// Stops listening and leaves the socket's file, as a server that crashed does.
    func closeKeepingFile() {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }
}
