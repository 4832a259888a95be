import CGLib
import FoundationEssentials
import Glibc
import GLibSupport

/// A connection to the session bus that does its input and output on the agent's main loop,
/// without a thread of its own.
///
/// GDBus sends and receives on a worker thread: every message the agent sends wakes that thread,
/// and every reply wakes it and then the main loop. For the notifications of live countdowns —
/// twenty of them updated every second — that made over a hundred wake-ups a second. Here the
/// main loop writes the bytes itself, right when it sends, and reads only when the bus has
/// something for it, so a second's batch of updates sent without replies costs the one wake-up
/// of the tick that sent them.
///
/// GDBus still does the hard parts: finding and connecting to the bus address, and turning
/// messages into bytes and back (`GDBusMessage`). What is left is the D-Bus handshake
/// (authentication by the peer's Unix credentials, then `Hello`) and framing.
final class DirectBusConnection {
    /// A signal received: its sender (a unique name), object path, interface, member and body.
    struct Signal {
        let sender: String
        let path: String
        let interface: String
        let member: String
        /// The arguments tuple; valid during the handler only.
        let body: OpaquePointer?
    }

    /// Called with every signal the bus delivers to this connection.
    var onSignal: (Signal) -> Void = { _ in }

    private let stream: UnsafeMutablePointer<GIOStream>
    private let descriptor: Int32
    private var inputSource: UnsafeMutablePointer<GSource>?
    private var outputSource: UnsafeMutablePointer<GSource>?
    /// The idle source that writes what was queued during the current main-loop dispatch.
    private var flushSource: UnsafeMutablePointer<GSource>?
    private let context: OpaquePointer?
    private var outgoing: [UInt8] = []
    private var incoming: [UInt8] = []
    private var lastSerial: UInt32 = 0
    /// Reply handlers and their timeouts, by the serial of the call they answer.
    private var pending: [UInt32: (handler: (Result<OpaquePointer?, GLibError>) -> Void, timeout: TimeoutHandle?)] = [:]
    /// Why the connection stopped working, once it did.
    private(set) var failure: String?

    /// How long a call waits for its reply before it fails, in seconds.
    static let replyTimeout = 10.0

    /// Connects to the session bus (`address`, or the session bus's) and authenticates, on the
    /// calling thread; serves the connection on that thread's default main context from then on.
    ///
    /// A connection that does not `watchInput` reads only when `readPending()` is called: answers
    /// to it wait in the socket instead of waking the agent when they arrive.
    init(address: String? = nil, watchInput: Bool = true) throws(GLibError) {
        let busAddress: String
        if let address {
            busAddress = address
        } else {
            let found = try GLibError.check { g_dbus_address_get_for_bus_sync(G_BUS_TYPE_SESSION, nil, $0) }
            guard let found else { throw GLibError(message: "no session bus address") }
            busAddress = String(cString: found)
            g_free(found)
        }
        let opened = try GLibError.check { g_dbus_address_get_stream_sync(busAddress, nil, nil, $0) }
        guard let opened else { throw GLibError(message: "cannot open \(busAddress)") }
        stream = opened
        let raw = UnsafeMutableRawPointer(opened)
        guard g_type_check_instance_is_a(raw.assumingMemoryBound(to: GTypeInstance.self), g_socket_connection_get_type()) != 0,
              let socket = g_socket_connection_get_socket(raw.assumingMemoryBound(to: GSocketConnection.self)) else {
            g_object_unref(opened)
            throw GLibError(message: "\(busAddress) is not a socket address")
        }
        descriptor = g_socket_get_fd(socket)
        context = g_main_context_ref_thread_default()
        do {
            try authenticate()
        } catch {
            g_object_unref(stream)
            if let context { g_main_context_unref(context) }
            throw error
        }
        if watchInput {
            let source = g_unix_fd_source_new(descriptor, GIOCondition(G_IO_IN.rawValue | G_IO_HUP.rawValue | G_IO_ERR.rawValue))!
            let readable: GUnixFDSourceFunc = { _, _, userData in
                Unmanaged<DirectBusConnection>.fromOpaque(userData!).takeUnretainedValue().readAvailable()
            }
            g_source_set_callback(source, unsafeBitCast(readable, to: GSourceFunc.self), Unmanaged.passUnretained(self).toOpaque(), nil)
            g_source_attach(source, context)
            inputSource = source
        }
        // The bus answers nothing else before Hello; its reply (the unique name) is not needed,
        // and waits unread on a connection that does not watch its input — without a timer
        // that would wake the agent to give up on it.
        call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "Hello", nil, timeout: nil) { result in
            if case .success(let reply?) = result { g_variant_unref(reply) }
        }
    }

    deinit {
        stopWatching()
        for (_, entry) in pending { entry.timeout?.cancel() }
        g_io_stream_close(stream, nil, nil)
        g_object_unref(stream)
        if let context { g_main_context_unref(context) }
    }

    /// Calls `member`; `reply` gets the reply's body (owned by the handler) or the error, on the
    /// main loop — or a failure once `timeout` seconds passed without one (`nil`: it waits as
    /// long as it takes, with no timer). Without `reply` the call is sent with
    /// NO_REPLY_EXPECTED: the peer answers nothing, and nothing wakes the agent.
    func call(_ destination: String, _ path: String, _ interface: String, _ member: String, _ body: OpaquePointer?,
              timeout: Double? = DirectBusConnection.replyTimeout, reply: ((Result<OpaquePointer?, GLibError>) -> Void)? = nil) {
        guard failure == nil else {
            if let body { g_variant_unref(g_variant_ref_sink(body)) }
            reply?(.failure(GLibError(message: failure!)))
            return
        }
        let message = g_dbus_message_new_method_call(destination, path, interface, member)!
        defer { g_object_unref(UnsafeMutableRawPointer(message)) }
        if let body { g_dbus_message_set_body(message, body) }
        if reply == nil { g_dbus_message_set_flags(message, G_DBUS_MESSAGE_FLAGS_NO_REPLY_EXPECTED) }
        let serial: UInt32
        do {
            serial = try enqueue(message)
        } catch {
            reply?(.failure(error))
            return
        }
        if let reply {
            let timer = timeout.map { seconds in
                MainLoop.after(seconds: seconds) { [weak self] in
                    guard let entry = self?.pending.removeValue(forKey: serial) else { return }
                    entry.handler(.failure(GLibError(message: "\(member) got no reply within \(Int(seconds)) s")))
                }
            }
            pending[serial] = (reply, timer)
        }
        flushSoon()
    }

    /// Writes the queue once the current main-loop dispatch is over, so that every message sent
    /// in it — a second's worth of countdown updates — goes out in one write, waking the bus
    /// daemon once rather than once per message.
    private func flushSoon() {
        guard flushSource == nil, outputSource == nil else { return }
        let source = g_idle_source_new()!
        g_source_set_priority(source, G_PRIORITY_HIGH)
        let flush: GSourceFunc = { userData in
            let connection = Unmanaged<DirectBusConnection>.fromOpaque(userData!).takeUnretainedValue()
            connection.flushSource = nil
            connection.writeWhatFits()
            return SourceResult.remove
        }
        g_source_set_callback(source, flush, Unmanaged.passUnretained(self).toOpaque(), nil)
        g_source_attach(source, context)
        g_source_unref(source)
        flushSource = source
    }

    /// Gives `message` the next serial and queues its bytes; returns the serial.
    @discardableResult
    private func enqueue(_ message: OpaquePointer) throws(GLibError) -> UInt32 {
        lastSerial = lastSerial == UInt32.max ? 1 : lastSerial + 1
        g_dbus_message_set_serial(message, lastSerial)
        var size: gsize = 0
        let blob = try GLibError.check { g_dbus_message_to_blob(message, &size, G_DBUS_CAPABILITY_FLAGS_NONE, $0) }
        outgoing.append(contentsOf: UnsafeBufferPointer(start: blob, count: Int(size)))
        g_free(blob)
        return lastSerial
    }

    /// Reads and hands on whatever has arrived, without waiting (for a connection that does not
    /// watch its input).
    func readPending() {
        guard failure == nil else { return }
        _ = readAvailable()
    }

    /// Asks the bus to deliver signals matching `rule` (D-Bus match-rule syntax) to this connection.
    func addMatch(_ rule: String) {
        call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "AddMatch",
             Variant.tuple([g_variant_new_string(rule)]))
    }

    // MARK: Handshake

    /// The SASL exchange every D-Bus connection starts with: a nul byte, then EXTERNAL
    /// authentication as our uid (the bus checks it against the socket's peer credentials).
    private func authenticate() throws(GLibError) {
        // The digits' UTF-8 bytes are 0x30–0x39: two hex digits each.
        let uid = String(getuid()).utf8.map { String($0, radix: 16) }.joined()
        try writeBlocking(Array("\0AUTH EXTERNAL \(uid)\r\n".utf8))
        let answer = try readLineBlocking()
        guard answer.hasPrefix("OK ") else {
            throw GLibError(message: "the bus refused authentication: \(answer)")
        }
        try writeBlocking(Array("BEGIN\r\n".utf8))
    }

    private func writeBlocking(_ bytes: [UInt8]) throws(GLibError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written > 0 {
                offset += written
            } else if errno == EAGAIN || errno == EINTR {
                try waitFor(Int16(POLLOUT))
            } else {
                throw GLibError(message: "cannot write to the bus: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Reads up to and including "\r\n"; the bus sends nothing after it until we speak again.
    private func readLineBlocking() throws(GLibError) -> String {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while !(line.count >= 2 && line[line.count - 2] == 13 && line[line.count - 1] == 10) {
            let count = recv(descriptor, &byte, 1, 0)
            if count == 1 {
                line.append(byte)
                if line.count > 4096 { throw GLibError(message: "the bus sent an overlong authentication line") }
            } else if count < 0 && (errno == EAGAIN || errno == EINTR) {
                try waitFor(Int16(POLLIN))
            } else {
                throw GLibError(message: "the bus closed the connection during authentication")
            }
        }
        return String(decoding: line.dropLast(2), as: UTF8.self)
    }

    private func waitFor(_ events: Int16) throws(GLibError) {
        var request = pollfd(fd: descriptor, events: events, revents: 0)
        let ready = poll(&request, 1, 5000)
        if ready == 0 { throw GLibError(message: "the bus did not answer within 5 s") }
    }

    // MARK: Input and output

    /// Writes as much of the queue as the socket takes now; waits for it to drain otherwise.
    private func writeWhatFits() {
        while !outgoing.isEmpty {
            let written = outgoing.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
            if written > 0 {
                outgoing.removeFirst(written)
            } else if errno == EINTR {
                continue
            } else if errno == EAGAIN {
                watchForWritable()
                return
            } else {
                fail("cannot write to the bus: \(String(cString: strerror(errno)))")
                return
            }
        }
    }

    private func watchForWritable() {
        guard outputSource == nil else { return }
        let source = g_unix_fd_source_new(descriptor, G_IO_OUT)!
        let writable: GUnixFDSourceFunc = { _, _, userData in
            let connection = Unmanaged<DirectBusConnection>.fromOpaque(userData!).takeUnretainedValue()
            connection.outputSource = nil
            connection.writeWhatFits()
            return SourceResult.remove
        }
        g_source_set_callback(source, unsafeBitCast(writable, to: GSourceFunc.self), Unmanaged.passUnretained(self).toOpaque(), nil)
        g_source_attach(source, context)
        g_source_unref(source)
        outputSource = source
    }

    private func readAvailable() -> gboolean {
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                incoming.append(contentsOf: chunk[..<count])
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && errno == EAGAIN { break }
            fail(count == 0 ? "the bus closed the connection" : "cannot read from the bus: \(String(cString: strerror(errno)))")
            return SourceResult.remove
        }
        dispatchCompleteMessages()
        return failure == nil ? SourceResult.keep : SourceResult.remove
    }

    /// Takes every complete message off the input and hands it on.
    private func dispatchCompleteMessages() {
        var consumed = 0
        while incoming.count - consumed >= 16 {
            let available = incoming.count - consumed
            let parsed: Result<OpaquePointer?, GLibError>? = incoming.withUnsafeMutableBufferPointer { buffer in
                let start = buffer.baseAddress! + consumed
                var error: UnsafeMutablePointer<GError>?
                let needed = g_dbus_message_bytes_needed(start, 16, &error)
                if let error { return .failure(GLibError(consuming: error)) }
                guard needed > 0, available >= needed else { return nil }
                consumed += needed
                let message = g_dbus_message_new_from_blob(start, gsize(needed), G_DBUS_CAPABILITY_FLAGS_NONE, &error)
                if let error { return .failure(GLibError(consuming: error)) }
                return .success(message)
            }
            switch parsed {
            case nil:
                incoming.removeFirst(consumed)
                return
            case .failure(let error):
                fail("the bus sent a malformed message: \(error.message)")
                return
            case .success(let message?):
                handle(message)
                g_object_unref(UnsafeMutableRawPointer(message))
            case .success(nil):
                break
            }
        }
        incoming.removeFirst(consumed)
    }

    private func handle(_ message: OpaquePointer) {
        let type = g_dbus_message_get_message_type(message)
        if type == G_DBUS_MESSAGE_TYPE_SIGNAL {
            func text(_ pointer: UnsafePointer<gchar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
            onSignal(Signal(sender: text(g_dbus_message_get_sender(message)), path: text(g_dbus_message_get_path(message)),
                            interface: text(g_dbus_message_get_interface(message)), member: text(g_dbus_message_get_member(message)),
                            body: g_dbus_message_get_body(message)))
            return
        }
        if type == G_DBUS_MESSAGE_TYPE_METHOD_CALL {
            refuse(message)
            return
        }
        guard type == G_DBUS_MESSAGE_TYPE_METHOD_RETURN || type == G_DBUS_MESSAGE_TYPE_ERROR,
              let entry = pending.removeValue(forKey: g_dbus_message_get_reply_serial(message)) else { return }
        entry.timeout?.cancel()
        if type == G_DBUS_MESSAGE_TYPE_ERROR {
            var error: UnsafeMutablePointer<GError>?
            g_dbus_message_to_gerror(message, &error)
            entry.handler(.failure(error.map(GLibError.init(consuming:)) ?? GLibError(message: "an error reply")))
        } else {
            entry.handler(.success(g_dbus_message_get_body(message).map { g_variant_ref($0) }))
        }
    }

    /// Answers a method call with an error: this connection serves no objects, and a caller
    /// should not wait for its timeout to learn that.
    private func refuse(_ call: OpaquePointer) {
        guard g_dbus_message_get_flags(call).rawValue & G_DBUS_MESSAGE_FLAGS_NO_REPLY_EXPECTED.rawValue == 0 else { return }
        let error = g_dbus_message_new_method_error_literal(call, "org.freedesktop.DBus.Error.UnknownObject", "This connection serves no objects.")!
        defer { g_object_unref(UnsafeMutableRawPointer(error)) }
        if (try? enqueue(error)) != nil { flushSoon() }
    }

    /// The connection broke: every waiting call fails, and every later one at once.
    private func fail(_ reason: String) {
        guard failure == nil else { return }
        failure = reason
        stopWatching()
        let waiting = pending
        pending = [:]
        for (_, entry) in waiting {
            entry.timeout?.cancel()
            entry.handler(.failure(GLibError(message: reason)))
        }
    }

    private func stopWatching() {
        if let inputSource {
            g_source_destroy(inputSource)
            g_source_unref(inputSource)
            self.inputSource = nil
        }
        if let outputSource {
            g_source_destroy(outputSource)
            self.outputSource = nil
        }
        if let flushSource {
            g_source_destroy(flushSource)
            self.flushSource = nil
        }
    }
}
