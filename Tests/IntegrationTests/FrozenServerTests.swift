import BusTestSupport
import CGLib
import Foundation
import GLibSupport
import HeadlessSession
import Testing
import TocsinCore

/// A notification server that stops answering (`kill -STOP`, as a hung desktop shell would) must
/// not hold up the agent: libnotify's calls wait on the notification thread alone, so every D-Bus
/// call is answered at once, and a timer still rings on time, heard on the sink.
@Suite(.serialized) struct FrozenServerTests {
    @Test func aFrozenNotificationServerDelaysNeitherCallsNorTheRing() throws {
        let fixture = try AgentSession("frozen-server")
        let dunst = try #require(fixture.session.childProcesses.first { $0.name == "dunst" && $0.isRunning })
        let connection = try PrivateBus.connect(to: fixture.session.busAddress)
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        func call(_ method: AlarmsMethod, _ arguments: OpaquePointer?) throws -> (reply: OpaquePointer, seconds: Double) {
            let start = ContinuousClock.now
            let reply = try #require(try GLibError.check {
                g_dbus_connection_call_sync(connection, AlarmsInterface.busName, AlarmsInterface.objectPath, AlarmsInterface.name,
                                            method.rawValue, arguments, nil, G_DBUS_CALL_FLAGS_NONE, 5000, nil, $0)
            })
            let elapsed = ContinuousClock.now - start
            return (reply, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
        func schedule(_ seconds: Double, _ title: String) throws -> (id: String, seconds: Double) {
            let scheduled = try call(.schedule, Variant.tuple([Variant.make(dictionary: ["duration": .double(seconds), "title": .string(title)])]))
            defer { g_variant_unref(scheduled.reply) }
            return (Variant.string(in: scheduled.reply, at: 0), scheduled.seconds)
        }
        // An application the user allowed, so Schedule is not waiting for an answer.
        g_variant_unref(try call(.identifyApplication, Variant.tuple([g_variant_new_string("org.example.Frozen")])).reply)
        #expect(try fixture.tocsin("auth", "grant", "org.example.Frozen").status == 0)

        // A countdown on screen, so the notification thread has a call to make every second.
        let countdown = try schedule(600, "Busy").id
        _ = try fixture.waitForNotification(titled: "Busy")
        dunst.kill(signal: SIGSTOP)
        var resumed = false
        defer { if !resumed { dunst.kill(signal: SIGCONT) } }
        Thread.sleep(forTimeInterval: 1.5)  // a tick's Notify is now stuck at the frozen server

        let recording = try fixture.session.startRecording()
        let (ringID, scheduleSeconds) = try schedule(2, "Ring")
        let due = Date().addingTimeInterval(2)
        var slowest = ("Schedule", scheduleSeconds)
        for (method, argument) in [(AlarmsMethod.list, nil), (.getStatus, nil), (.pause, countdown), (.resume, countdown), (.get, countdown), (.list, nil)] {
            let answered = try call(method, argument.map { Variant.tuple([g_variant_new_string($0)]) })
            g_variant_unref(answered.reply)
            if answered.seconds > slowest.1 { slowest = (method.rawValue, answered.seconds) }
        }
        #expect(slowest.1 < 0.1, "\(slowest.0) took \(slowest.1) s with the notification server frozen")

        // It rings on time although its alert cannot be shown.
        #expect(fixture.eventually(timeout: 4) { recording.currentTrace().firstLoudWindow(after: due.addingTimeInterval(-0.1)) != nil }, "no ring")
        let trace = recording.stop()
        let firstSound = try #require(trace.firstLoudWindow(after: due.addingTimeInterval(-0.1)))
        #expect(firstSound.timeIntervalSince(due) < 0.5, "the ring came \(firstSound.timeIntervalSince(due)) s late")
        let stopped = try call(.stop, Variant.tuple([g_variant_new_string(ringID)]))
        g_variant_unref(stopped.reply)
        #expect(stopped.seconds < 0.1, "Stop took \(stopped.seconds) s")

        // Thawed, the server catches up with the newest content; the agent never gave up on it.
        dunst.kill(signal: SIGCONT)
        resumed = true
        #expect(fixture.eventually(timeout: 30) {
            fixture.notifications(titled: "Busy").last?.body.contains("remaining") == true
                && fixture.notifications(titled: "Busy").last.map { $0.receivedAt > due } == true
        }, "no countdown update reached the server after it was thawed")
        g_variant_unref(try call(.cancel, Variant.tuple([g_variant_new_string(countdown)])).reply)
    }
}
