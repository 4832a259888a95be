import BusTestSupport
import CGLib
import Foundation
import GLibSupport
import HeadlessSession
import Testing
import TocsinCore

/// Media players that stop answering (`kill -STOP`, as a frozen browser tab does) while an alarm
/// rings must not hold up the agent: it asks them without waiting, so every D-Bus call is
/// answered at once and the next alarm rings on time. Thawed, the players are paused late and
/// resumed when the ring ends, as if they had answered at once.
@Suite(.serialized) struct FrozenPlayersTests {
    @Test func frozenMediaPlayersDelayNeitherCallsNorTheNextAlarm() throws {
        let fixture = try AgentSession("frozen-players")
        let player = try AgentSession.binary("fake-media-player")
        let players = try ["tocsintest", "tocsintest2"].map { try fixture.session.launch(player, [$0]) }
        var frozen = false
        defer {
            if frozen { players.forEach { $0.kill(signal: SIGCONT) } }
            players.forEach { $0.terminate() }
        }
        #expect(fixture.eventually(timeout: 5) { players.allSatisfy { $0.standardOutput().contains("Ready") } }, "the players did not start")

        let connection = try PrivateBus.connect(to: fixture.session.busAddress)
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        func call(_ method: AlarmsMethod, _ argument: String? = nil) throws -> (reply: OpaquePointer, seconds: Double) {
            let start = ContinuousClock.now
            let reply = try #require(try GLibError.check {
                g_dbus_connection_call_sync(connection, AlarmsInterface.busName, AlarmsInterface.objectPath, AlarmsInterface.name, method.rawValue,
                                            argument.map { Variant.tuple([g_variant_new_string($0)]) }, nil, G_DBUS_CALL_FLAGS_NONE, 5000, nil, $0)
            })
            let elapsed = ContinuousClock.now - start
            return (reply, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        func schedule(_ seconds: Double, _ title: String) throws -> String {
            let reply = try #require(try GLibError.check {
                g_dbus_connection_call_sync(connection, AlarmsInterface.busName, AlarmsInterface.objectPath, AlarmsInterface.name, AlarmsMethod.schedule.rawValue,
                                            Variant.tuple([Variant.make(dictionary: ["duration": .double(seconds), "title": .string(title)])]),
                                            nil, G_DBUS_CALL_FLAGS_NONE, 5000, nil, $0)
            })
            defer { g_variant_unref(reply) }
            return Variant.string(in: reply, at: 0)
        }
        // An application the user allowed, so Schedule is not waiting for an answer.
        g_variant_unref(try call(.identifyApplication, "org.example.Frozen").reply)
        #expect(try fixture.tocsin("auth", "grant", "org.example.Frozen").status == 0)

        players.forEach { $0.kill(signal: SIGSTOP) }
        frozen = true
        let ring = try schedule(1, "Ring")
        let next = try schedule(2, "Next")
        let nextDue = Date(timeIntervalSince1970: try #require(try fixture.alarm(next)?.number("fire-time")))
        _ = try fixture.waitForNotification(titled: "Ring", timeout: .seconds(5)) { $0.urgency == 2 }
        // The agent now asks both frozen players whether they play, and waits for neither.
        Thread.sleep(forTimeInterval: 0.2)
        var slowest = ("", 0.0)
        for (method, argument) in [(AlarmsMethod.getStatus, nil), (.list, nil), (.get, ring), (.stop, ring)] as [(AlarmsMethod, String?)] {
            let answered = try call(method, argument)
            g_variant_unref(answered.reply)
            if answered.seconds > slowest.1 { slowest = (method.rawValue, answered.seconds) }
        }
        #expect(slowest.1 < 0.1, "\(slowest.0) took \(slowest.1) s with two media players frozen")

        // The next timer rings on time, its alert at the notification server.
        let alert = try fixture.waitForNotification(titled: "Next", timeout: .seconds(5)) { $0.urgency == 2 }
        #expect(alert.receivedAt.timeIntervalSince(nextDue) < 0.25, "the next alarm's alert came \(alert.receivedAt.timeIntervalSince(nextDue)) s after it was due")

        // Thawed while it rings, the players answer late, are paused, and play again after Stop.
        Thread.sleep(forTimeInterval: 0.3)
        players.forEach { $0.kill(signal: SIGCONT) }
        frozen = false
        #expect(fixture.eventually(timeout: 5) { players.allSatisfy { $0.standardOutput() == "Ready\nPaused\n" } },
                "the thawed players were not paused: \(players.map { $0.standardOutput() })")
        g_variant_unref(try call(.stop, next).reply)
        #expect(fixture.eventually(timeout: 5) { players.allSatisfy { $0.standardOutput() == "Ready\nPaused\nPlaying\n" } },
                "the players were not resumed: \(players.map { $0.standardOutput() })")
    }
}
