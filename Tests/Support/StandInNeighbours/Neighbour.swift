import CGLib
import Foundation
import GLibSupport

/// A method call a neighbour received: the message (owned until answered) and what it says.
final class IncomingCall {
    let message: OpaquePointer
    let sender: String
    let destination: String
    let path: String
    let interface: String
    let member: String
    /// The arguments, `()` when none (valid while the call lives).
    let body: OpaquePointer
    let signature: String

    init(taking message: OpaquePointer) {
        self.message = message
        func text(_ pointer: UnsafePointer<CChar>?) -> String { pointer.map { String(cString: $0) } ?? "" }
        sender = text(g_dbus_message_get_sender(message))
        destination = text(g_dbus_message_get_destination(message))
        path = text(g_dbus_message_get_path(message))
        interface = text(g_dbus_message_get_interface(message))
        member = text(g_dbus_message_get_member(message))
        body = g_variant_ref_sink(g_dbus_message_get_body(message) ?? Variant.tuple([]))
        signature = String(cString: g_variant_get_type_string(body))
    }

    deinit {
        g_variant_unref(body)
        g_object_unref(UnsafeMutableRawPointer(message))
    }

    /// String argument `index`, if the arguments have one there.
    func string(_ index: Int) -> String? {
        guard index < Int(g_variant_n_children(body)) else { return nil }
        let child = g_variant_get_child_value(body, gsize(index))!
        defer { g_variant_unref(child) }
        guard g_variant_is_of_type(child, Variant.type("s")) != 0 else { return nil }
        return String(cString: g_variant_get_string(child, nil))
    }

    /// `interface.member(arguments)`, for the log.
    var summary: String {
        let shortInterface = interface.split(separator: ".").last.map(String.init) ?? interface
        return "\(shortInterface).\(member)\(Answers.describe(body, limit: 120).drop { $0 != " " }) at \(path)"
    }
}

/// What a neighbour answers when it answers as it should.
enum Reply {
    /// A reply with this body (a floating tuple).
    case value(OpaquePointer)
    /// A D-Bus error.
    case error(String, String)

    static var unknownMethod: Reply { .error("org.freedesktop.DBus.Error.UnknownMethod", "No such method") }
    static var void: Reply { .value(Variant.tuple([])) }
}

/// One stand-in neighbour: a connection of its own to one bus, the well-known names it owns
/// there, and how it answers. Every method call that reaches the connection is taken by a
/// message filter before GDBus sees it and answered with a message the stand-in makes itself,
/// so that any body goes out: GDBus's `g_dbus_method_invocation_return_value` checks a reply
/// against the method's introspection (a method declared without results must answer `()`) and
/// drops a reply of another type, with a warning, leaving the caller to time out.
///
/// It can close its connection with a call pending and come back under the same names.
final class Neighbour {
    let label: String
    let bus: String
    let address: String
    let names: [String]
    let nameFlags: GBusNameOwnerFlags
    let log: ExchangeLog
    let seed: UInt64
    /// The correct answer to a call; `nil`: no such method here.
    var answer: (IncomingCall) -> Reply? = { _ in nil }
    /// A correctly typed answer with odd values in it, where the neighbour knows what its values mean.
    var oddAnswer: ((IncomingCall, inout Dice) -> OpaquePointer?)?
    /// Called once the connection is up and the names asked for (also after each return).
    var onConnected: () -> Void = {}
    /// Called when a name is acquired or lost.
    var onName: (String, Bool) -> Void = { _, _ in }

    private(set) var connection: OpaquePointer?
    /// Counts connections, so that a late answer meant for a closed one is dropped.
    private(set) var generation = 0
    private var ownerships: [guint] = []
    private(set) var ownedNames: Set<String> = []
    private var dice: [String: Dice] = [:]
    private var disconnectDice: Dice
    /// No disconnection before this (one every few seconds at most).
    private var calmUntil = Date().addingTimeInterval(3)
    /// While false, the neighbour stays off the bus (it left for good or for a while).
    var wanted = true

    init(_ label: String, bus: String, address: String, names: [String], flags: GBusNameOwnerFlags = G_BUS_NAME_OWNER_FLAGS_NONE,
         log: ExchangeLog, seed: UInt64) {
        self.label = label
        self.bus = bus
        self.address = address
        self.names = names
        self.nameFlags = flags
        self.log = log
        self.seed = seed
        disconnectDice = Dice(seed: seed, label: "\(label) reconnect")
    }

    var isConnected: Bool { connection != nil }

    /// Opens the connection, installs the filter and asks for the names.
    func connect() {
        guard wanted, connection == nil else { return }
        let flags = GDBusConnectionFlags(G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        var error: UnsafeMutablePointer<GError>?
        guard let opened = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error) else {
            let message = error.map { GLibError(consuming: $0).message } ?? "no reason"
            log.note(bus, label, "cannot connect (\(message)); trying again in 1 s")
            MainLoop.after(seconds: 1) { [weak self] in self?.connect() }
            return
        }
        g_dbus_connection_set_exit_on_close(opened, 0)
        generation += 1
        connection = opened
        let box = FilterBox(self, generation)
        g_dbus_connection_add_filter(opened, Self.filter, Unmanaged.passRetained(box).toOpaque(), { userData in
            Unmanaged<FilterBox>.fromOpaque(userData!).release()
        })
        for name in names {
            let nameBox = Unmanaged.passRetained(NameBox(self, name, generation)).toOpaque()
            ownerships.append(g_bus_own_name_on_connection(
                opened, name, nameFlags,
                { _, _, userData in Unmanaged<NameBox>.fromOpaque(userData!).takeUnretainedValue().changed(true) },
                { _, _, userData in Unmanaged<NameBox>.fromOpaque(userData!).takeUnretainedValue().changed(false) },
                nameBox, { Unmanaged<NameBox>.fromOpaque($0!).release() }))
        }
        log.note(bus, label, "connected as \(String(cString: g_dbus_connection_get_unique_name(opened)))")
        onConnected()
    }

    /// Closes the connection (pending calls go unanswered: the bus tells their callers) and
    /// comes back after `returning` seconds (never for `nil`).
    func disconnect(returningAfter returning: Double?) {
        guard let connection else { return }
        for ownership in ownerships { g_bus_unown_name(ownership) }
        ownerships = []
        ownedNames = []
        self.connection = nil
        g_dbus_connection_close(connection, nil, nil, nil)
        g_object_unref(UnsafeMutableRawPointer(connection))
        if let returning {
            log.note(bus, label, "closed its connection; back in \(String(format: "%.2f", returning)) s")
            MainLoop.after(seconds: returning) { [weak self] in self?.connect() }
        } else {
            log.note(bus, label, "closed its connection")
        }
    }

    fileprivate func nameChanged(_ name: String, owned: Bool, generation: Int) {
        guard generation == self.generation, connection != nil else { return }
        if owned { ownedNames.insert(name) } else { ownedNames.remove(name) }
        log.note(bus, label, owned ? "owns \(name)" : "does not own \(name) (\(nameFlags.rawValue & G_BUS_NAME_OWNER_FLAGS_REPLACE.rawValue != 0 ? "waiting in the queue" : "taken or refused"))")
        onName(name, owned)
    }

    // MARK: Calls

    private static let filter: GDBusMessageFilterFunction = { _, message, incoming, userData in
        guard incoming != 0, let message, g_dbus_message_get_message_type(message) == G_DBUS_MESSAGE_TYPE_METHOD_CALL else { return message }
        let box = Unmanaged<FilterBox>.fromOpaque(userData!).takeUnretainedValue()
        // On GDBus's worker thread: the call is answered on the main loop. The message is ours now.
        let neighbourBox = box
        MainLoop.post { neighbourBox.neighbour?.received(IncomingCall(taking: message), generation: neighbourBox.generation) }
        return nil
    }

    /// The dice for calls of `member`: each method its own stream.
    private func rolling<Result>(_ key: String, _ body: (inout Dice) -> Result) -> Result {
        var die = dice[key] ?? Dice(seed: seed, label: "\(label) \(key)")
        defer { dice[key] = die }
        return body(&die)
    }

    private func received(_ call: IncomingCall, generation: Int) {
        guard generation == self.generation, let connection else { return }
        let correct = answer(call) ?? .unknownMethod
        var kind = rolling(call.member) { $0.weighted(AnswerKind.weights) }
        if Configuration.shared.quiet || Configuration.shared.spared.contains(label) { kind = .correct }
        if kind == .disconnect {
            if Date() < calmUntil { kind = .correct } else { calmUntil = Date().addingTimeInterval(5) }
        }
        let head = "\(call.summary) from \(call.sender) to \(call.destination)"
        switch kind {
        case .never:
            if case .value(let body) = correct { g_variant_unref(g_variant_ref_sink(body)) }
            log.exchange(bus, label, "call never", "\(head) -> no answer, ever")
        case .disconnect:
            if case .value(let body) = correct { g_variant_unref(g_variant_ref_sink(body)) }
            log.exchange(bus, label, "call disconnect", "\(head) -> closes its connection with the call pending")
            disconnect(returningAfter: disconnectDice.uniform(0.3, 2.5))
        case .error:
            if case .value(let body) = correct { g_variant_unref(g_variant_ref_sink(body)) }
            let (name, message) = rolling(call.member + " error") { (Oddities.errorName(&$0), Oddities.errorMessage(&$0)) }
            let reply = g_dbus_message_new_method_error_literal(call.message, name, message)!
            send(reply, on: connection)
            log.exchange(bus, label, "call error", "\(head) -> error \(name) (\(message.utf8.count) bytes)")
        case .late:
            let delay = rolling(call.member + " delay") { $0.uniform(0.1, 3) }
            log.exchange(bus, label, "call late", "\(head) -> answered correctly in \(String(format: "%.2f", delay)) s")
            MainLoop.after(seconds: delay) { [weak self] in
                guard let self, self.generation == generation, let connection = self.connection else {
                    if case .value(let body) = correct { g_variant_unref(g_variant_ref_sink(body)) }
                    self?.log.note(self?.bus ?? "", self?.label ?? "", "the late answer to \(call.member) from \(call.sender) is not sent: the connection it came on is closed")
                    return
                }
                log.note(bus, label, "answers \(call.member) from \(call.sender) now, late: \(Self.describe(correct))")
                reply(call, correct, on: connection)
            }
        default:
            guard case .value(let correctBody) = correct else {
                // The correct answer is an error: the wrong answers are values.
                if kind == .correct {
                    reply(call, correct, on: connection)
                    log.exchange(bus, label, "call correct", "\(head) -> \(Self.describe(correct))")
                } else {
                    let body = rolling(call.member + " body") { Answers.body(kind, from: Variant.tuple([]), &$0) }
                    reply(call, .value(body), on: connection, describing: "\(head)", kind: kind)
                }
                return
            }
            var body = correctBody
            if kind == .oddValues, let oddAnswer {
                g_variant_unref(g_variant_ref_sink(correctBody))
                body = rolling(call.member + " odd") { oddAnswer(call, &$0) } ?? Variant.tuple([])
            } else if kind != .correct {
                body = rolling(call.member + " body") { Answers.body(kind, from: correctBody, &$0) }
            }
            reply(call, .value(body), on: connection, describing: head, kind: kind)
        }
    }

    private func reply(_ call: IncomingCall, _ reply: Reply, on connection: OpaquePointer, describing head: String? = nil, kind: AnswerKind = .correct) {
        let message: OpaquePointer
        switch reply {
        case .value(let body):
            message = g_dbus_message_new_method_reply(call.message)!
            let sunk = g_variant_ref_sink(body)!
            if let head { log.exchange(bus, label, "call \(kind.rawValue)", "\(head) -> \(Answers.describe(sunk))") }
            g_dbus_message_set_body(message, sunk)
            g_variant_unref(sunk)
        case .error(let name, let text):
            message = g_dbus_message_new_method_error_literal(call.message, name, text)!
            if let head { log.exchange(bus, label, "call \(kind.rawValue)", "\(head) -> error \(name)") }
        }
        send(message, on: connection)
    }

    private func send(_ message: OpaquePointer, on connection: OpaquePointer) {
        var error: UnsafeMutablePointer<GError>?
        if g_dbus_connection_send_message(connection, message, G_DBUS_SEND_MESSAGE_FLAGS_NONE, nil, &error) == 0, let error {
            log.note(bus, label, "could not send: \(GLibError(consuming: error).message)")
        }
        g_object_unref(UnsafeMutableRawPointer(message))
    }

    private static func describe(_ reply: Reply) -> String {
        switch reply {
        case .value(let body): Answers.describe(body)
        case .error(let name, _): "error \(name)"
        }
    }

    // MARK: Signals

    /// Emits `member` of `interface` at `path` with `body` (a floating tuple, consumed), to
    /// `destination` or everyone; false when not connected or refused.
    @discardableResult
    func emit(_ path: String, _ interface: String, _ member: String, _ body: OpaquePointer, to destination: String? = nil) -> Bool {
        let sunk = g_variant_ref_sink(body)!
        defer { g_variant_unref(sunk) }
        guard let connection else { return false }
        var error: UnsafeMutablePointer<GError>?
        if g_dbus_connection_emit_signal(connection, destination, path, interface, member, sunk, &error) == 0 {
            log.note(bus, label, "could not emit \(member): \(error.map { GLibError(consuming: $0).message } ?? "")")
            return false
        }
        return true
    }
}

/// What the filter (on GDBus's thread) knows of its neighbour.
private final class FilterBox: @unchecked Sendable {
    weak var neighbour: Neighbour?
    let generation: Int
    init(_ neighbour: Neighbour, _ generation: Int) {
        self.neighbour = neighbour
        self.generation = generation
    }
}

/// A name a neighbour asked for.
private final class NameBox {
    weak var neighbour: Neighbour?
    let name: String
    let generation: Int
    init(_ neighbour: Neighbour, _ name: String, _ generation: Int) {
        self.neighbour = neighbour
        self.name = name
        self.generation = generation
    }

    func changed(_ owned: Bool) { neighbour?.nameChanged(name, owned: owned, generation: generation) }
}
