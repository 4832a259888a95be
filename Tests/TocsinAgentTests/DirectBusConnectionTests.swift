import BusTestSupport
import CGLib
import Foundation
import GLibSupport
import Testing
@testable import TocsinAgent

/// The agent's thread-less bus connection against a real dbus-daemon: the handshake, replies and
/// errors matched to their calls, signals, messages larger than the socket's buffer, and a bus
/// that goes away.
@Suite(.serialized) struct DirectBusConnectionTests {
    /// Runs `body` with a bus and a main context of its own, pushed as this thread's default.
    static func withBus(_ body: (PrivateBus, OpaquePointer) throws -> Void) throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        try withOwnMainContext { context in try body(bus, context) }
    }

    @Test func callsGetTheirOwnRepliesAndErrors() throws {
        try Self.withBus { bus, context in
            let connection = try DirectBusConnection(address: bus.address)
            var answers: [String] = []
            func record(_ label: String) -> (Result<OpaquePointer?, GLibError>) -> Void {
                { result in
                    switch result {
                    case .success(let reply?):
                        answers.append("\(label): \(Variant.string(in: reply, at: 0))")
                        g_variant_unref(reply)
                    case .success(nil):
                        answers.append("\(label): empty")
                    case .failure(let error):
                        answers.append("\(label): \(error.remoteName ?? "no name")")
                    }
                }
            }
            connection.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner",
                            Variant.tuple([g_variant_new_string("org.freedesktop.DBus")]), reply: record("owner"))
            connection.call("org.example.Nobody", "/", "org.example.Nobody", "Anything", nil, reply: record("nobody"))
            connection.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner",
                            Variant.tuple([g_variant_new_string("org.example.Unowned")]), reply: record("unowned"))

            runMainContext(context, for: 5) { answers.count == 3 }
            #expect(answers.sorted() == [
                "nobody: org.freedesktop.DBus.Error.ServiceUnknown",
                "owner: org.freedesktop.DBus",
                "unowned: org.freedesktop.DBus.Error.NameHasNoOwner",
            ])
            #expect(connection.failure == nil)
        }
    }

    @Test func matchedSignalsArriveWithTheirSenderAndBody() throws {
        try Self.withBus { bus, context in
            let connection = try DirectBusConnection(address: bus.address)
            var received: [String] = []
            connection.onSignal = { signal in
                guard signal.interface == "org.example.Clock" else { return }
                received.append("\(signal.member) \(signal.path) \(signal.body.map { Variant.string(in: $0, at: 0) } ?? "-") from \(signal.sender)")
            }
            connection.addMatch("type='signal',interface='org.example.Clock'")
            // A round trip after AddMatch: once its answer is in, the rule is in place.
            var ready = false
            connection.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetId", nil) { _ in ready = true }
            runMainContext(context, for: 5) { ready }

            let emitter = try bus.connect()
            defer { g_object_unref(UnsafeMutableRawPointer(emitter)) }
            let emitterName = String(cString: g_dbus_connection_get_unique_name(emitter))
            for (member, text) in [("Tick", "one"), ("Tock", "two"), ("Tick", "three")] {
                _ = try GLibError.check {
                    g_dbus_connection_emit_signal(emitter, nil, "/org/example/Clock", "org.example.Clock", member,
                                                  Variant.tuple([g_variant_new_string(text)]), $0)
                }
            }
            g_dbus_connection_flush_sync(emitter, nil, nil)

            runMainContext(context, for: 5) { received.count == 3 }
            #expect(received == ["Tick", "Tock", "Tick"].enumerated().map { index, member in
                "\(member) /org/example/Clock \(["one", "two", "three"][index]) from \(emitterName)"
            })
        }
    }

    @Test func aMessageLargerThanTheSocketBufferIsWrittenWhole() throws {
        try Self.withBus { bus, context in
            let connection = try DirectBusConnection(address: bus.address)
            // Four megabytes cannot go out in one write; the rest waits for the socket to drain.
            let huge = String(repeating: "x", count: 4 << 20)
            var answer: Result<OpaquePointer?, GLibError>?
            connection.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner",
                            Variant.tuple([g_variant_new_string(huge)])) { answer = $0 }
            var afterwards: String?
            connection.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetNameOwner",
                            Variant.tuple([g_variant_new_string("org.freedesktop.DBus")])) { result in
                if case .success(let reply?) = result {
                    afterwards = Variant.string(in: reply, at: 0)
                    g_variant_unref(reply)
                }
            }

            runMainContext(context, for: 10) { afterwards != nil }
            // The bus read the whole message (it answers it: no one owns that name) and the
            // next one after it, so the bytes went out complete and in order.
            guard case .failure(let error) = answer else {
                Issue.record("the huge call got \(String(describing: answer))")
                return
            }
            #expect(error.remoteName == "org.freedesktop.DBus.Error.NameHasNoOwner", "\(error)")
            #expect(afterwards == "org.freedesktop.DBus")
        }
    }

    @Test func aBusThatGoesAwayFailsWaitingAndLaterCalls() throws {
        try Self.withBus { bus, context in
            let connection = try DirectBusConnection(address: bus.address)
            var ready = false
            connection.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetId", nil) { _ in ready = true }
            runMainContext(context, for: 5) { ready }
            // A peer that never answers: its connection is served on a context that runs only
            // until it has sent Hello and RequestName, and never reads what comes after.
            let silent = try withOwnMainContext { silentContext in
                let silent = try DirectBusConnection(address: bus.address)
                silent.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "RequestName",
                            Variant.tuple([g_variant_new_string("org.example.Silent"), g_variant_new_uint32(0)])) { _ in }
                while g_main_context_iteration(silentContext, 0) != 0 {}
                return silent
            }
            var owned = false
            runMainContext(context, for: 5) {
                connection.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                                Variant.tuple([g_variant_new_string("org.example.Silent")])) { result in
                    if case .success(let reply?) = result {
                        let value = Variant.child(reply, 0)
                        owned = g_variant_get_boolean(value) != 0
                        g_variant_unref(value)
                        g_variant_unref(reply)
                    }
                }
                runMainContext(context, for: 0.05) { false }
                return owned
            }
            try #require(owned, "the silent peer did not get its name")
            var waiting: Result<OpaquePointer?, GLibError>?
            connection.call("org.example.Silent", "/", "org.example.Silent", "Never", nil) { waiting = $0 }
            runMainContext(context, for: 0.3) { false }
            #expect(waiting == nil, "the silent peer answered: \(String(describing: waiting))")
            // The silent peer must stay connected (and keep its name) until here.
            withExtendedLifetime(silent) {}

            bus.stop()
            runMainContext(context, for: 5) { connection.failure != nil && waiting != nil }
            #expect(connection.failure != nil)
            var later: Result<OpaquePointer?, GLibError>?
            connection.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "GetId", nil) { later = $0 }
            guard case .failure = later else {
                Issue.record("a call after the bus went away did not fail at once: \(String(describing: later))")
                return
            }
            #expect(waiting != nil)
        }
    }

    @Test func anAddressThatIsNotABusIsRefused() throws {
        #expect(throws: GLibError.self) {
            _ = try DirectBusConnection(address: "unix:path=/nonexistent/tocsin-test-socket")
        }
    }
}
