import BusTestSupport
import CGLib
import Foundation
import GLibSupport
import Testing
@testable import TocsinAgent
import TocsinEdge

/// The agent hears logind's PrepareForSleep on the system bus — here a private bus standing in for
/// it — and says once when there is no system bus at all.
@Suite(.serialized) struct SleepWatcherTests {
    @Test func resumeAndSuspendFromLogindAreReported() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        try withOwnMainContext { context in
            var events: [String] = []
            let logind = try bus.connect()
            defer { g_object_unref(UnsafeMutableRawPointer(logind)) }
            try PrivateBus.requestName("org.freedesktop.login1", on: logind)
            let watcher = SleepWatcher(systemBusAddress: bus.address, log: AgentLog { _ in }, faults: NeighbourFaults { _ in },
                                       onSuspend: { events.append("suspend") }, onResume: { events.append("resume") })
            runMainContext(context, for: 0.3)  // let the subscription reach the bus

            try PrivateBus.emitPrepareForSleep(on: logind, start: true)
            runMainContext(context, for: 2) { events.count == 1 }
            try PrivateBus.emitPrepareForSleep(on: logind, start: false)
            runMainContext(context, for: 2) { events.count == 2 }
            #expect(events == ["suspend", "resume"])
            withExtendedLifetime(watcher) {}
        }
    }

    @Test func signalsFromAnImpostorAreIgnored() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        try withOwnMainContext { context in
            var resumed = 0
            let impostor = try bus.connect()
            defer { g_object_unref(UnsafeMutableRawPointer(impostor)) }
            let watcher = SleepWatcher(systemBusAddress: bus.address, log: AgentLog { _ in }, faults: NeighbourFaults { _ in }, onResume: { resumed += 1 })
            runMainContext(context, for: 0.3)
            // Not the owner of org.freedesktop.login1: anyone on the bus could send this.
            try PrivateBus.emitPrepareForSleep(on: impostor, start: false)
            runMainContext(context, for: 0.5) { resumed > 0 }
            #expect(resumed == 0)
            withExtendedLifetime(watcher) {}
        }
    }

    @Test func withoutASystemBusItSaysSoOnce() throws {
        withOwnMainContext { context in
            let lines = LogLines()
            let watcher = SleepWatcher(systemBusAddress: "unix:path=/nonexistent/system_bus_socket", log: lines.log,
                                       faults: NeighbourFaults { _ in }, onResume: {})
            runMainContext(context, for: 2) { !lines.all.isEmpty }
            runMainContext(context, for: 0.3)
            #expect(lines.all.count == 1, "\(lines.all)")
            #expect(lines.all.first?.contains("tocsind[info]") == true)
            withExtendedLifetime(watcher) {}
        }
    }

    /// Reaching the system bus does not wait for its daemon: a daemon that accepts the
    /// connection and never answers (here a socket nobody reads) leaves the watcher made at once,
    /// and the agent's loop free.
    @Test func aSystemBusThatNeverAnswersHoldsNothingUp() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tocsin-hung-bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let socketPath = directory.appendingPathComponent("bus").path
        let listener = try Self.listeningSocket(at: socketPath)
        defer { close(listener) }
        withOwnMainContext { context in
            let start = ContinuousClock.now
            let watcher = SleepWatcher(systemBusAddress: "unix:path=\(socketPath)", log: AgentLog { _ in }, faults: NeighbourFaults { _ in },
                                       onResume: {})
            let made = ContinuousClock.now - start
            var ticks = 0
            let tick = MainLoop.after(seconds: 0.2, on: context) { ticks += 1 }
            runMainContext(context, for: 1) { ticks > 0 }
            #expect(made < .milliseconds(200), "the watcher took \(made) to make with a bus that never answers")
            #expect(ticks == 1, "the loop did not run while the bus did not answer")
            tick.cancel()
            withExtendedLifetime(watcher) {}
        }
    }

    /// A Unix socket at `path` that accepts connections (the kernel's backlog) and never reads.
    static func listeningSocket(at path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: Array(path.utf8) + [0])
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0, "bind: \(errno)")
        try #require(listen(descriptor, 8) == 0)
        return descriptor
    }
}

