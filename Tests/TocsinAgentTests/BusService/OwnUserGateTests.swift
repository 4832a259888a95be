import BusTestSupport
import CGLib
import Foundation
import GLibSupport
import Testing
import TocsinCore
@testable import TocsinAgent

/// The gate every press on the tray item, the lock screen and the media player goes through,
/// over a private bus with the question "is this the user's own program?" held by the test: a
/// call is answered only once that question is, the user's own program gets its reply before
/// anything is done, and another user's gets the refusal and nothing done. TrayItemTests,
/// LockedScreenTests and the media player's tests check the same through each object.
@Suite(.serialized) struct OwnUserGateTests {
    /// The calls the object exported for the test received, held unanswered for the gate.
    final class HeldCalls {
        var invocations: [(invocation: OpaquePointer, sender: String)] = []
    }

    @Test func aCallIsAnsweredOnlyOnceTheBusSaysWhoMadeItAndAStrangerGetsTheRefusal() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        try withOwnMainContext { context in
            let agent = try bus.connect()
            defer { g_object_unref(UnsafeMutableRawPointer(agent)) }
            let caller = try bus.connect()
            defer { g_object_unref(UnsafeMutableRawPointer(caller)) }
            let held = HeldCalls()
            let registration = try Self.exportPress(on: agent, holdingIn: held)
            defer { g_dbus_connection_unregister_object(agent, registration) }
            var questions: [(sender: String, answer: (Bool) -> Void)] = []
            let gate = OwnUserGate { sender, answer in questions.append((sender, answer)) }
            let agentName = String(cString: g_dbus_connection_get_unique_name(agent))
            let callerName = String(cString: g_dbus_connection_get_unique_name(caller))
            var done: [String] = []
            var refused: [String] = []
            func press(_ button: String) throws -> PendingBusCall {
                let answer = PendingBusCall(on: caller, to: agentName, path: "/Test", interface: "io.github.tocsin.Test", method: "Press",
                                            arguments: Variant.tuple([g_variant_new_string(button)]))
                try #require(runMainContext(context, for: 3) { !held.invocations.isEmpty }, "the press did not reach the object")
                let call = held.invocations.removeFirst()
                gate.answer(call.invocation, from: call.sender, with: Variant.tuple([g_variant_new_string("pressed \(button)")]),
                            refusing: .init(TocsinError(.notAuthorized, "Only the user's own programs may press.")),
                            refused: { refused.append(button) },
                            then: { done.append(button) })
                return answer
            }

            // The user's own program: neither answered nor done before the bus has said.
            let stop = try press("Stop")
            _ = runMainContext(context, for: 0.5) { stop.came }
            #expect(questions.map(\.sender) == [callerName], "\(questions.map(\.sender))")
            #expect(!stop.came && done.isEmpty, "answered before the bus said who pressed: \(stop.description)")
            questions.removeFirst().answer(true)
            #expect(runMainContext(context, for: 3) { stop.came }, "the own user's press went unanswered")
            #expect(stop.reply == "('pressed Stop',)" && stop.error == nil, "\(stop.description)")
            #expect(done == ["Stop"] && refused.isEmpty, "done \(done), refused \(refused)")

            // Another user's program: the refusal, and nothing done.
            let snooze = try press("Snooze")
            _ = runMainContext(context, for: 0.5) { snooze.came }
            #expect(!snooze.came, "a stranger was answered before the bus said who pressed")
            questions.removeFirst().answer(false)
            #expect(runMainContext(context, for: 3) { snooze.came }, "the stranger's press went unanswered")
            #expect(snooze.error == "io.github.tocsin.Error.NotAuthorized: Only the user's own programs may press.", "\(snooze.description)")
            #expect(done == ["Stop"] && refused == ["Snooze"], "done \(done), refused \(refused)")

            // Two presses held at once are each answered, in order, once their questions are.
            let first = try press("Stop")
            let second = try press("Snooze")
            #expect(questions.count == 2)
            for question in questions { question.answer(true) }
            questions.removeAll()
            #expect(runMainContext(context, for: 3) { first.came && second.came })
            #expect(first.reply == "('pressed Stop',)" && second.reply == "('pressed Snooze',)", "\(first.description) \(second.description)")
            #expect(done == ["Stop", "Stop", "Snooze"], "\(done)")
        }
    }

    /// `io.github.tocsin.Test` at `/Test` on `connection`, whose `Press(s) -> s` calls are held,
    /// unanswered, in `held`.
    static func exportPress(on connection: OpaquePointer, holdingIn held: HeldCalls) throws -> guint {
        let xml = """
            <node><interface name="io.github.tocsin.Test">
              <method name="Press"><arg type="s" direction="in"/><arg type="s" direction="out"/></method>
            </interface></node>
            """
        let node = try #require(try GLibError.check { g_dbus_node_info_new_for_xml(xml, $0) })
        defer { g_dbus_node_info_unref(node) }
        var vtable = GDBusInterfaceVTable(
            method_call: { _, sender, _, _, _, _, invocation, userData in
                let held = Unmanaged<HeldCalls>.fromOpaque(userData!).takeUnretainedValue()
                held.invocations.append((invocation!, sender.map { String(cString: $0) } ?? ""))
            },
            get_property: nil, set_property: nil, padding: (nil, nil, nil, nil, nil, nil, nil, nil))
        return try GLibError.check {
            g_dbus_connection_register_object(connection, "/Test", node.pointee.interfaces[0], &vtable,
                                              Unmanaged.passUnretained(held).toOpaque(), nil, $0)
        }
    }
}
