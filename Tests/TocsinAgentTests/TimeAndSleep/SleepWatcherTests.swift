import BusTestSupport
import CGLib
import Foundation
import GLibSupport
import Testing
@testable import TocsinAgent

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
            let watcher = SleepWatcher(systemBusAddress: bus.address, log: AgentLog { _ in },
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
            let watcher = SleepWatcher(systemBusAddress: bus.address, log: AgentLog { _ in }, onResume: { resumed += 1 })
            runMainContext(context, for: 0.3)
            // Not the owner of org.freedesktop.login1: anyone on the bus could send this.
            try PrivateBus.emitPrepareForSleep(on: impostor, start: false)
            runMainContext(context, for: 0.5) { resumed > 0 }
            #expect(resumed == 0)
            withExtendedLifetime(watcher) {}
        }
    }

    @Test func withoutASystemBusItSaysSoOnce() {
        let lines = LogLines()
        let watcher = SleepWatcher(systemBusAddress: "unix:path=/nonexistent/system_bus_socket", log: lines.log, onResume: {})
        #expect(lines.all.count == 1, "\(lines.all)")
        #expect(lines.all.first?.contains("tocsind[info]") == true)
        withExtendedLifetime(watcher) {}
    }
}

