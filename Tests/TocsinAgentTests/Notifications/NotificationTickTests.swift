import BusTestSupport
import CGLib
import Foundation
import GLibSupport
import Testing
import TocsinCore
@testable import TocsinAgent

// NotifyCallRecorder.swift and NotificationTick.swift: the call sent in full is recorded as it
// left, and a tick replays it with only its text, progress and expiry changed, against a
// notification server of this test's own on a private bus.
@Suite(.serialized) struct NotificationTickTests {
    static let content = NotificationContent(
        role: .countdown, summary: "Tea", body: "2:15 remaining, ends 08:03.", progress: 25,
        actions: [.init(.pause, label: "Pause"), .init(.cancel, label: "Cancel")], isPersistent: true)
    static let profile = NotificationServerProfile(
        for: NotificationServerIdentity(name: "dunst", vendor: "knopwob", version: "1.9.0", capabilities: ["actions", "body", "body-markup"]))

    /// The arguments of a full call, as libnotify sends them: its own hint (sender-pid) among
    /// Tocsin's, and the buttons in an order of its own.
    static func fullCall(replacing id: UInt32, summary: String, body: String) -> OpaquePointer {
        let entries: [OpaquePointer?] = [
            g_variant_new_dict_entry(g_variant_new_string("urgency"), g_variant_new_variant(g_variant_new_byte(1))),
            g_variant_new_dict_entry(g_variant_new_string("value"), g_variant_new_variant(g_variant_new_int32(25))),
            g_variant_new_dict_entry(g_variant_new_string("sender-pid"), g_variant_new_variant(g_variant_new_int64(4242))),
            g_variant_new_dict_entry(g_variant_new_string("category"), g_variant_new_variant(g_variant_new_string("x-tocsin.timer"))),
        ]
        let dictionary = entries.withUnsafeBufferPointer { g_variant_new_array(Variant.type("{sv}"), $0.baseAddress, gsize($0.count)) }!
        return Variant.tuple([
            g_variant_new_string("Tocsin"), g_variant_new_uint32(id), g_variant_new_string("io.github.tocsin.Agent"),
            g_variant_new_string(summary), g_variant_new_string(body),
            Variant.make(strings: ["cancel", "Cancel", "pause", "Pause"]), dictionary, g_variant_new_int32(0),
        ])
    }

    @Test func aTickReplaysTheRecordedCallWithOnlyItsTextProgressAndExpiryChanged() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        try withOwnMainContext { context in
            let server = try FakeNotificationServer(bus: bus)
            defer { server.stop() }
            let client = try bus.connect()
            defer { g_object_unref(UnsafeMutableRawPointer(client)) }
            let recorder = NotifyCallRecorder(watching: client)
            let shown = NotificationPayload(Self.content, profile: Self.profile, shownFor: .seconds(1))

            // A call made outside `recording` is not kept; the one made inside is.
            _ = try Self.callSync(client, Self.fullCall(replacing: 0, summary: "Other", body: "not recorded"))
            let (reply, recorded) = recorder.recording { try? Self.callSync(client, Self.fullCall(replacing: 0, summary: shown.summary, body: shown.body)) }
            let serverID = try #require(reply ?? nil)
            let arguments = try #require(recorded, "the call sent in full was not recorded")
            #expect(Variant.string(in: arguments.variant, at: 4) == shown.body)
            #expect(recorder.recording { () }.1 == nil, "a recording with no call in it kept an earlier call")

            var next = Self.content
            next.body = "2:14 remaining, ends 08:03."
            next.progress = 26
            var tick = NotificationPayload(next, profile: Self.profile, shownFor: .seconds(2))
            tick.expiry = .after(milliseconds: 800)
            #expect(tick.isTick(following: shown))
            let tickArguments = try #require(NotificationTick.arguments(replaying: arguments, of: shown, as: tick, serverID: serverID))
            var answer: Result<UInt32, BusCallFailure>?
            NotificationTick.send(tickArguments, on: client) { answer = $0 }
            runMainContext(context, for: 5) { answer != nil }
            #expect(try answer?.get() == serverID, "the tick did not replace the notification in place")

            let received = try #require(server.calls.last)
            #expect(server.calls.count == 3)
            #expect(received.appName == "Tocsin" && received.appIcon == "io.github.tocsin.Agent")
            #expect(received.replacesID == serverID)
            #expect(received.summary == "Tea" && received.body == "2:14 remaining, ends 08:03.")
            #expect(received.actions == ["cancel", "Cancel", "pause", "Pause"], "the buttons' order changed")
            #expect(received.hints == ["urgency": "byte 0x01", "value": "26", "sender-pid": "int64 4242", "category": "'x-tocsin.timer'"])
            #expect(received.timeout == 800)
        }
    }

    @Test func aRecordingForOtherTextIsNotReplayed() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        try withOwnMainContext { _ in
            let server = try FakeNotificationServer(bus: bus)
            defer { server.stop() }
            let client = try bus.connect()
            defer { g_object_unref(UnsafeMutableRawPointer(client)) }
            let recorder = NotifyCallRecorder(watching: client)
            let shown = NotificationPayload(Self.content, profile: Self.profile)
            let (_, recorded) = recorder.recording { try? Self.callSync(client, Self.fullCall(replacing: 0, summary: "Coffee", body: shown.body)) }
            let arguments = try #require(recorded)
            #expect(NotificationTick.arguments(replaying: arguments, of: shown, as: shown, serverID: 1) == nil)
        }
    }

    @Test func aTickToAServerThatIsGoneFailsWithItsReason() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        try withOwnMainContext { context in
            let client = try bus.connect()
            defer { g_object_unref(UnsafeMutableRawPointer(client)) }
            let shown = NotificationPayload(Self.content, profile: Self.profile)
            var answer: Result<UInt32, BusCallFailure>?
            NotificationTick.send(Self.fullCall(replacing: 3, summary: shown.summary, body: shown.body), on: client) { answer = $0 }
            runMainContext(context, for: 5) { answer != nil }
            guard case .failure(let failure) = try #require(answer) else {
                Issue.record("a tick with no server answered \(String(describing: answer))")
                return
            }
            // The bus says why: no such name, or (where a server is installed for activation) that
            // starting one failed.
            switch failure {
            case .absent(let message):
                #expect(!message.isEmpty)
            case .errorReply(let name, let message):
                #expect(name.hasPrefix("org.freedesktop.DBus.Error."), "\(failure)")
                #expect(!message.isEmpty)
            default:
                Issue.record("a tick with no server failed as \(failure), not as a name with no owner")
            }
        }
    }

    /// Calls Notify on `client` and waits for the id.
    static func callSync(_ client: OpaquePointer, _ arguments: OpaquePointer) throws -> UInt32 {
        let reply = try GLibError.check {
            g_dbus_connection_call_sync(client, NotificationTick.destination, NotificationTick.path, NotificationTick.interface, "Notify",
                                        arguments, Variant.type("(u)"), G_DBUS_CALL_FLAGS_NONE, 5000, nil, $0)
        }
        guard let reply else { throw GLibError(message: "no reply") }
        defer { g_variant_unref(reply) }
        let id = Variant.child(reply, 0)
        defer { g_variant_unref(id) }
        return g_variant_get_uint32(id)
    }
}

/// A notification server's Notify, on a thread of its own: it records each call and answers
/// with the id replaced, or a new one.
private final class FakeNotificationServer: @unchecked Sendable {
    struct Call {
        var appName: String, replacesID: UInt32, appIcon: String, summary: String, body: String
        var actions: [String], hints: [String: String], timeout: Int32
    }

    // @unchecked: `received` is behind `lock`; the rest is set before the thread starts.
    private let lock = NSLock()
    private var received: [Call] = []
    private var nextID: UInt32 = 41
    private var running = true
    private var startFailure: Error?
    private let ready = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    var calls: [Call] { lock.withLock { received } }

    init(bus: PrivateBus) throws {
        let address = bus.address
        let thread = Thread { [self] in
            let context = g_main_context_new()!
            g_main_context_push_thread_default(context)
            do {
                let connection = try PrivateBus.connect(to: address)
                try register(on: connection)
                try PrivateBus.requestName(NotificationTick.destination, on: connection)
                ready.signal()
                while lock.withLock({ running }) { g_main_context_iteration(context, 0); Thread.sleep(forTimeInterval: 0.002) }
                g_object_unref(UnsafeMutableRawPointer(connection))
            } catch {
                lock.withLock { startFailure = error }
                ready.signal()
            }
            g_main_context_pop_thread_default(context)
            g_main_context_unref(context)
            finished.signal()
        }
        thread.start()
        ready.wait()
        if let failure = lock.withLock({ startFailure }) { throw failure }
    }

    /// Leaves the bus and ends the thread.
    func stop() {
        lock.withLock { running = false }
        finished.wait()
    }

    private static let introspection = """
        <node><interface name="org.freedesktop.Notifications"><method name="Notify">
        <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/><arg type="s" direction="in"/>
        <arg type="s" direction="in"/><arg type="as" direction="in"/><arg type="a{sv}" direction="in"/><arg type="i" direction="in"/>
        <arg type="u" direction="out"/></method></interface></node>
        """

    private func register(on connection: OpaquePointer) throws {
        let node = try GLibError.check { g_dbus_node_info_new_for_xml(Self.introspection, $0) }!
        var vtable = GDBusInterfaceVTable()
        vtable.method_call = { _, _, _, _, _, parameters, invocation, userData in
            let server = Unmanaged<FakeNotificationServer>.fromOpaque(userData!).takeUnretainedValue()
            let id = server.notify(parameters!)
            g_dbus_method_invocation_return_value(invocation, Variant.tuple([g_variant_new_uint32(id)]))
        }
        _ = try GLibError.check {
            g_dbus_connection_register_object(connection, NotificationTick.path, node.pointee.interfaces[0], &vtable,
                                              Unmanaged.passUnretained(self).toOpaque(), nil, $0)
        }
    }

    private func notify(_ parameters: OpaquePointer) -> UInt32 {
        var hints: [String: String] = [:]
        let dictionary = Variant.child(parameters, 6)
        for index in 0..<g_variant_n_children(dictionary) {
            let entry = g_variant_get_child_value(dictionary, index)!
            let boxed = Variant.child(entry, 1)
            let value = g_variant_get_variant(boxed)!
            let text = g_variant_print(value, 1)!
            hints[Variant.string(in: entry, at: 0)] = String(cString: text)
            g_free(text)
            [value, boxed, entry].forEach { g_variant_unref($0) }
        }
        g_variant_unref(dictionary)
        let replaces = Variant.child(parameters, 1)
        defer { g_variant_unref(replaces) }
        let call = Call(appName: Variant.string(in: parameters, at: 0), replacesID: g_variant_get_uint32(replaces),
                        appIcon: Variant.string(in: parameters, at: 2), summary: Variant.string(in: parameters, at: 3),
                        body: Variant.string(in: parameters, at: 4), actions: Variant.strings(in: parameters, at: 5),
                        hints: hints, timeout: Variant.int32(in: parameters, at: 7))
        return lock.withLock {
            received.append(call)
            if call.replacesID != 0 { return call.replacesID }
            nextID += 1
            return nextID
        }
    }
}
