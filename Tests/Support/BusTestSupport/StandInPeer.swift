import CGLib
import Foundation
import GLibSupport

/// A neighbour that answers the way a buggy program can: a connection of its own to a test's bus
/// that owns a name and answers every method call sent to it with whatever `answer` says — a
/// reply of any type (no value, the wrong type, 100 kB), a D-Bus error of any name, or nothing.
///
/// It answers from a GDBus message filter, before GDBus's own object handling, which would refuse
/// to send a reply that does not match an exported method's out-arguments and would answer
/// `Properties.Get` itself. The filter runs on GDBus's worker thread: `answer` must be safe to
/// call there.
public final class StandInPeer: @unchecked Sendable {
    /// How the stand-in answers one call.
    public enum Answer: Sendable {
        /// A reply with this body, as GVariant text (`"()"`, `"('Playing',)"`, `"(<42>,)"`).
        case reply(String)
        /// A reply with a body made by the closure (a floating tuple), for bodies text cannot
        /// write briefly (a 100 kB string, 10,000 elements).
        case replyMadeBy(@Sendable () -> OpaquePointer)
        /// A D-Bus error with this name and message.
        case error(name: String, message: String)
        /// No answer at all: the caller's timeout is what ends its call.
        case never
    }

    /// One call the stand-in received.
    public struct Call: Sendable, Equatable {
        public let interface: String
        public let member: String
        public let path: String
        /// The call's body as GVariant text.
        public let body: String
    }

    /// The stand-in's connection, for emitting signals from it.
    public let connection: OpaquePointer
    private let answer: @Sendable (Call) -> Answer
    private let lock = NSLock()
    private var received: [Call] = []
    private var filter: guint = 0

    /// Every call received so far, in order.
    public var calls: [Call] { lock.withLock { received } }

    /// Connects to the bus at `address`, takes `name` and answers each call with `answer(call)`.
    public init(on address: String, name: String, answer: @escaping @Sendable (Call) -> Answer) throws {
        connection = try PrivateBus.connect(to: address)
        self.answer = answer
        filter = g_dbus_connection_add_filter(connection, { connection, message, incoming, userData in
            let peer = Unmanaged<StandInPeer>.fromOpaque(userData!).takeUnretainedValue()
            guard incoming != 0, let message, g_dbus_message_get_message_type(message) == G_DBUS_MESSAGE_TYPE_METHOD_CALL,
                  let connection else { return message }
            // Replies and signals go on as usual; a call to this peer is answered here, and
            // GDBus never sees it.
            peer.handle(message, on: connection)
            g_object_unref(UnsafeMutableRawPointer(message))
            return nil
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
        try PrivateBus.requestName(name, on: connection)
    }

    /// Leaves the bus.
    public func stop() {
        g_dbus_connection_remove_filter(connection, filter)
        g_dbus_connection_close_sync(connection, nil, nil)
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    /// Records the call `message` and answers it as `answer` says.
    private func handle(_ message: OpaquePointer, on connection: OpaquePointer) {
        let text = { (pointer: UnsafePointer<CChar>?) in pointer.map { String(cString: $0) } ?? "" }
        let bodyText: String
        if let body = g_dbus_message_get_body(message) {
            let printed = g_variant_print(body, 1)!
            bodyText = String(cString: printed)
            g_free(printed)
        } else {
            bodyText = "()"
        }
        let call = Call(interface: text(g_dbus_message_get_interface(message)), member: text(g_dbus_message_get_member(message)),
                        path: text(g_dbus_message_get_path(message)), body: bodyText)
        lock.withLock { received.append(call) }
        switch answer(call) {
        case .never:
            break
        case .error(let name, let errorMessage):
            let reply = g_dbus_message_new_method_error_literal(message, name, errorMessage)!
            send(reply, on: connection)
        case .reply(let text):
            let body = try! GLibError.check { g_variant_parse(nil, text, nil, nil, $0) }!
            reply(to: message, with: body, on: connection)
        case .replyMadeBy(let make):
            reply(to: message, with: make(), on: connection)
        }
    }

    private func reply(to message: OpaquePointer, with body: OpaquePointer, on connection: OpaquePointer) {
        let reply = g_dbus_message_new_method_reply(message)!
        // An empty tuple is sent as no body at all, as D-Bus writes a reply with no values.
        if g_variant_n_children(body) > 0 {
            g_dbus_message_set_body(reply, body)
        } else {
            g_variant_unref(g_variant_ref_sink(body))
        }
        send(reply, on: connection)
    }

    private func send(_ reply: OpaquePointer, on connection: OpaquePointer) {
        g_dbus_connection_send_message(connection, reply, G_DBUS_SEND_MESSAGE_FLAGS_NONE, nil, nil)
        g_object_unref(UnsafeMutableRawPointer(reply))
    }

    /// Emits `member` of `interface` at `path` with `body` (a floating tuple) to everyone.
    public func emit(_ member: String, of interface: String, at path: String, body: OpaquePointer) {
        g_dbus_connection_emit_signal(connection, nil, path, interface, member, body, nil)
        g_dbus_connection_flush_sync(connection, nil, nil)
    }
}
