import BusTestSupport
import CGLib
import Foundation
import GLibSupport
import Testing

/// A call states its reply type and GDBus checks the answer against it; every way a neighbour can
/// answer wrongly is one named `BusCallFailure`, its text bounded; a signal's body is checked
/// before anyone reads it. On a private bus, with a stand-in that answers as the test says.
@Suite(.serialized) struct BusCallTests {
    /// Calls `Probe` on a stand-in answering `answer`, expecting `(v)`, and returns what came.
    static func outcome(of answer: StandInPeer.Answer, destination: String = "org.example.StandIn",
                        timeoutMilliseconds: Int32 = 300) throws -> Result<String, BusCallFailure> {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let peer = try StandInPeer(on: bus.address, name: "org.example.StandIn") { _ in answer }
        defer { peer.stop() }
        return try withOwnMainContext { context in
            let connection = try bus.connect()
            defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
            var result: Result<String, BusCallFailure>?
            BusCall.start(connection, destination: destination, path: "/org/example/StandIn", interface: "org.example.StandIn", method: "Probe",
                          arguments: nil, replyType: "(v)", flags: G_DBUS_CALL_FLAGS_NO_AUTO_START, timeoutMilliseconds: timeoutMilliseconds) { answer in
                result = answer.map { reply in
                    let printed = g_variant_print(reply, 1)!
                    defer { g_free(printed) }
                    return String(cString: printed)
                }
            }
            runMainContext(context, for: 5) { result != nil }
            return try #require(result, "no completion")
        }
    }

    @Test func aReplyOfTheStatedTypeIsHandedOver() throws {
        #expect(try Self.outcome(of: .reply("(<'Playing'>,)")) == .success("(<'Playing'>,)"))
    }

    @Test(arguments: ["()", "('Playing',)", "(<'Playing'>, <1>)", "(@as [],)"])
    func aReplyOfAnotherTypeIsAWrongTypeFailure(_ body: String) throws {
        let result = try Self.outcome(of: .reply(body))
        guard case .failure(.wrongType(let expected, let message)) = result else {
            Issue.record("\(body) came back as \(result)")
            return
        }
        #expect(expected == "(v)")
        #expect(!message.isEmpty)
    }

    @Test func anErrorKeepsItsNameAndABoundedMessage() throws {
        let result = try Self.outcome(of: .error(name: "org.example.Odd.Error", message: String(repeating: "é", count: 5000)))
        guard case .failure(.errorReply(let name, let message)) = result else {
            Issue.record("the error came back as \(result)")
            return
        }
        #expect(name == "org.example.Odd.Error")
        #expect(message.count <= BusCallFailure.textLimit + 1, "a message of \(message.count) characters")
        #expect(message.hasPrefix("éé"))
    }

    @Test func noAnswerIsATimeout() throws {
        #expect(try Self.outcome(of: .never) == .failure(.timedOut))
    }

    @Test func aNameNobodyOwnsIsAbsent() throws {
        let result = try Self.outcome(of: .never, destination: "org.example.Nobody")
        guard case .failure(.absent) = result else {
            Issue.record("a call to nobody came back as \(result)")
            return
        }
    }

    /// GDBus drops a call to a name or path D-Bus does not allow without ever calling back; such
    /// a call (its destination taken from another program) fails at once instead.
    @Test func aCallThatCannotBeMadeFailsBeforeStartReturns() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let connection = try bus.connect()
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        var result: Result<OpaquePointer, BusCallFailure>?
        BusCall.start(connection, destination: "org.example.Fine", path: "/not a path", interface: "org.example.Fine", method: "Probe",
                      arguments: Variant.tuple([g_variant_new_string("consumed")]), replyType: "()", flags: G_DBUS_CALL_FLAGS_NONE,
                      timeoutMilliseconds: 300) { result = $0 }
        guard case .failure(.wrongValue) = try #require(result, "no answer before start returned") else {
            Issue.record("came back as \(String(describing: result))")
            return
        }
    }

    @Test func aSignalWithAnotherBodyNeverReachesItsReader() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let peer = try StandInPeer(on: bus.address, name: "org.example.StandIn") { _ in .never }
        defer { peer.stop() }
        try withOwnMainContext { context in
            let connection = try bus.connect()
            defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
            var received: [Bool] = []
            var wrong: [String] = []
            let subscription = BusSignalSubscription(
                on: connection, sender: "org.example.StandIn", interface: "org.example.StandIn", member: "Changed", path: nil, bodyType: "(b)",
                received: { _, _, body in received.append(Variant.bool(in: body, at: 0)) },
                wrongBody: { _, type in wrong.append(type) })
            runMainContext(context, for: 0.3)
            for body in [Variant.tuple([]), Variant.tuple([g_variant_new_string("true")]),
                         Variant.tuple([g_variant_new_boolean(1), g_variant_new_boolean(1)]), Variant.tuple([g_variant_new_boolean(1)])] {
                peer.emit("Changed", of: "org.example.StandIn", at: "/org/example/StandIn", body: body)
            }
            runMainContext(context, for: 3) { received.count + wrong.count == 4 }
            #expect(received == [true])
            #expect(wrong == ["()", "(s)", "(bb)"])
            withExtendedLifetime(subscription) {}
        }
    }
}
