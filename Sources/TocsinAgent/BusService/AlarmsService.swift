import CGLib
import GLibSupport
import TocsinCore

/// What the D-Bus service asks of the agent: one typed call at a time, answered with a typed
/// reply or a `TocsinError`, the error TocsinKit reads back. No GVariant reaches it: the service
/// decodes and encodes.
protocol AlarmsServiceHandler: AnyObject {
    /// Handles `call` from the bus connection `sender`, and calls `reply` exactly once — at once,
    /// or later when the answer has to wait (for the user to allow an application).
    func handle(_ call: AlarmsCall, from sender: String, reply: @escaping (Result<AlarmsReply, TocsinError>) -> Void)
}

/// Exports `io.github.tocsin.Alarms1` on the session bus with GDBus and owns `io.github.tocsin.Agent`.
///
/// GDBus runs on the agent's GLib main loop, checks argument types against the introspection data
/// and refuses unknown methods itself, so only well-formed calls reach the handler.
final class AlarmsService {
    /// Why the service stopped being reachable.
    enum Loss {
        /// There is no session bus to connect to.
        case noBus
        /// Another process owns the agent's name (another tocsind is running).
        case nameTaken
    }

    /// Answers the calls, once the agent has started; until then calls are told to come back.
    weak var handler: AlarmsServiceHandler?
    private let onLost: (Loss) -> Void
    private let onReady: () -> Void
    private let log: AgentLog
    /// The bus connection, once acquired: the agent's calls to others (app intents) go out on it.
    private(set) var connection: OpaquePointer?
    private var ownerID: guint = 0
    private var registrationID: guint = 0
    private var ownsName = false
    private var nameWait: TimeoutHandle?
    /// The process and user of each connection that called, by unique name.
    private var knownCredentials: [String: PeerCredentials] = [:]
    /// What waits for a connection's credentials, while the bus daemon is asked.
    private var pendingCredentials: [String: [(PeerCredentials?) -> Void]] = [:]
    /// Connections that left the bus while their credentials were being asked.
    private var vanishedWhileAsked: Set<String> = []
    /// The bus daemon's word that a connection left.
    private var peerDepartures: BusSignalSubscription?
    private let interfaceInfo: UnsafeMutablePointer<GDBusInterfaceInfo>
    private let vtable: UnsafeMutablePointer<GDBusInterfaceVTable>

    /// A service; `onReady` runs once the name is owned, `onLost` when the bus or the name is lost.
    /// Throws when GIO refuses the interface's description (built from `AlarmsInterface`'s
    /// tables; `InterfaceDocumentationTests` parse it the same way).
    init(log: AgentLog, onReady: @escaping () -> Void, onLost: @escaping (Loss) -> Void) throws(GLibError) {
        self.log = log
        self.onReady = onReady
        self.onLost = onLost
        guard let nodeInfo = try GLibError.check({ g_dbus_node_info_new_for_xml(AlarmsInterface.introspectionXML, $0) }) else {
            throw GLibError(message: "the introspection XML gave no node")
        }
        defer { g_dbus_node_info_unref(nodeInfo) }
        guard let interface = g_dbus_node_info_lookup_interface(nodeInfo, AlarmsInterface.name) else {
            throw GLibError(message: "the introspection XML has no \(AlarmsInterface.name)")
        }
        interfaceInfo = g_dbus_interface_info_ref(interface)
        vtable = .allocate(capacity: 1)
        vtable.initialize(to: GDBusInterfaceVTable(
            method_call: { _, sender, _, _, methodName, parameters, invocation, userData in
                Unmanaged<AlarmsService>.fromOpaque(userData!).takeUnretainedValue()
                    .dispatch(String(cString: methodName!), parameters: parameters!, sender: sender.map { String(cString: $0) } ?? "", invocation: invocation!)
            },
            get_property: { _, _, _, _, propertyName, error, _ in
                guard String(cString: propertyName!) == "Version" else { return nil }
                return g_variant_new_uint32(AlarmsInterface.version)
            },
            set_property: nil,
            padding: (nil, nil, nil, nil, nil, nil, nil, nil)
        ))
    }

    deinit {
        if ownerID != 0 { g_bus_unown_name(ownerID) }
        g_dbus_interface_info_unref(interfaceInfo)
        vtable.deallocate()
    }

    /// Connects to the session bus, exports the object and asks for the name. Results arrive on the
    /// main loop through `onReady` / `onLost`.
    ///
    /// The request waits in the bus's queue for up to `patience` seconds: an agent that was just
    /// killed still holds the name until the bus notices its connection closed, and its
    /// successor must not give up in that moment. Once the wait is over with the name owned by
    /// another, running agent, this one reports `.nameTaken`.
    func start(patience: Double = 3) {
        let userData = Unmanaged.passUnretained(self).toOpaque()
        nameWait = MainLoop.after(seconds: patience) { [unowned self] in
            nameWait = nil
            if !ownsName { onLost(.nameTaken) }
        }
        ownerID = g_bus_own_name(
            G_BUS_TYPE_SESSION, AlarmsInterface.busName, G_BUS_NAME_OWNER_FLAGS_NONE,
            { connection, _, userData in
                Unmanaged<AlarmsService>.fromOpaque(userData!).takeUnretainedValue().busAcquired(connection!)
            },
            { _, _, userData in
                let service = Unmanaged<AlarmsService>.fromOpaque(userData!).takeUnretainedValue()
                service.ownsName = true
                service.nameWait?.cancel()
                service.onReady()
            },
            { connection, _, userData in
                let service = Unmanaged<AlarmsService>.fromOpaque(userData!).takeUnretainedValue()
                // GDBus also calls this when the request was merely queued behind the owner:
                // before the name was ever ours, only the end of the wait decides.
                if connection != nil && !service.ownsName && service.nameWait != nil { return }
                service.ownsName = false
                service.nameWait?.cancel()
                service.onLost(connection == nil ? .noBus : .nameTaken)
            },
            userData, nil
        )
    }

    /// The process and user of the bus peer `sender`, once known (`withCredentials(of:_:)`):
    /// every call is held until its sender's are, so a handler always finds them here.
    func credentials(of sender: String) -> PeerCredentials? {
        knownCredentials[sender]
    }

    /// Runs `body` with the process and user of `sender` (`nil` when the bus daemon cannot say),
    /// from the bus daemon, which read them from the connection's socket when it was opened, so
    /// the peer cannot choose them. Asked once per connection and kept until it leaves the bus;
    /// the question is asynchronous, so nothing waits on the daemon: calls that come meanwhile
    /// from the same sender wait their turn, in order.
    func withCredentials(of sender: String, _ body: @escaping (PeerCredentials?) -> Void) {
        if let known = knownCredentials[sender] { return body(known) }
        if pendingCredentials[sender] != nil {
            pendingCredentials[sender]?.append(body)
            return
        }
        guard let connection else { return body(nil) }
        pendingCredentials[sender] = [body]
        BusCall.start(connection, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                      method: "GetConnectionCredentials", arguments: Variant.tuple([g_variant_new_string(sender)]), replyType: "(a{sv})",
                      flags: G_DBUS_CALL_FLAGS_NONE, timeoutMilliseconds: 2000) { [weak self] result in
            guard let self else { return }
            let found = (try? result.get()).flatMap(Self.credentials(inReply:))
            if case .failure(let failure) = result { log.warning("The bus did not say who \(sender) is: \(failure)") }
            // A sender that left while the question was out is not kept: its name will not return.
            if let found, !vanishedWhileAsked.contains(sender) { knownCredentials[sender] = found }
            vanishedWhileAsked.remove(sender)
            for waiting in pendingCredentials.removeValue(forKey: sender) ?? [] { waiting(found) }
        }
    }

    /// The process and user in a checked `GetConnectionCredentials` reply, `(a{sv})`.
    private static func credentials(inReply reply: OpaquePointer) -> PeerCredentials? {
        let dictionary = Variant.child(reply, 0)
        defer { g_variant_unref(dictionary) }
        let found = Variant.dictionary(dictionary)
        guard case .integer(let processID) = found["ProcessID"], case .integer(let userID) = found["UnixUserID"],
              processID > 0, let pid = pid_t(exactly: processID), let uid = uid_t(exactly: userID) else { return nil }
        return PeerCredentials(processID: pid, userID: uid)
    }

    /// Sends `signal` with `arguments` (a tuple matching its signature; a floating one is
    /// consumed, an owned one is left to the caller) to the connection `destination` alone.
    func emit(_ signal: AlarmsSignal, arguments: OpaquePointer, to destination: String) {
        guard let connection else {
            g_variant_unref(g_variant_ref_sink(arguments))
            return
        }
        do {
            _ = try GLibError.check {
                g_dbus_connection_emit_signal(connection, destination, AlarmsInterface.objectPath, AlarmsInterface.name, signal.rawValue, arguments, $0)
            }
        } catch {
            log.warning("Could not send \(signal.rawValue) to \(destination): \(error.message)")
        }
    }

    /// Called with a unique bus name that left the bus (a client went away).
    var onPeerVanished: (String) -> Void = { _ in }

    private func busAcquired(_ connection: OpaquePointer) {
        self.connection = connection
        // NameOwnerChanged(name, old, "") for a unique name: that client disconnected. Only the
        // bus daemon can send as org.freedesktop.DBus; its body is checked all the same.
        peerDepartures = BusSignalSubscription(
            on: connection, sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged",
            path: "/org/freedesktop/DBus", bodyType: "(sss)",
            received: { [weak self] _, _, body in
                guard let self else { return }
                let name = Variant.string(in: body, at: 0)
                guard name.hasPrefix(":"), Variant.string(in: body, at: 2).isEmpty else { return }
                knownCredentials[name] = nil
                if pendingCredentials[name] != nil { vanishedWhileAsked.insert(name) }
                onPeerVanished(name)
            },
            wrongBody: { [log] _, type in log.warning("The bus daemon sent NameOwnerChanged with a body of type \(type); ignored.") })
        do {
            registrationID = try GLibError.check {
                g_dbus_connection_register_object(
                    connection, AlarmsInterface.objectPath, interfaceInfo, vtable,
                    Unmanaged.passUnretained(self).toOpaque(), nil, $0)
            }
        } catch {
            log.error("Could not export \(AlarmsInterface.objectPath): \(error.message)")
        }
    }

    private func dispatch(_ methodName: String, parameters: OpaquePointer, sender: String, invocation: OpaquePointer) {
        guard let method = AlarmsMethod(rawValue: methodName) else {
            // GDBus only routes methods from the introspection data, which all have a case.
            g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.UnknownMethod", "Unknown method \(methodName)")
            return
        }
        guard handler != nil else {
            Self.refuse(invocation, TocsinError(.invalidState, "The agent is still starting; try again in a moment."))
            return
        }
        let call: AlarmsCall
        do throws(AlarmInputError) {
            call = try AlarmsCall(method, wireArguments: Variant.arguments(ofTuple: parameters))
        } catch {
            Self.refuse(invocation, TocsinError(.invalidArgument, error.message))
            return
        }
        // The invocation is kept until the handler replies, which may be later (GDBus frees it
        // when a reply is returned, so no unref follows the return calls). The handler runs once
        // the sender's credentials are known, which the first call of a connection waits for.
        withCredentials(of: sender) { [weak self] _ in
            guard let handler = self?.handler else {
                Self.refuse(invocation, TocsinError(.invalidState, "The agent is stopping."))
                return
            }
            var replied = false
            handler.handle(call, from: sender) { result in
                guard !replied else { return }
                replied = true
                switch result {
                case .success(let reply):
                    guard let arguments = reply.arguments(answering: method) else {
                        self?.log.error("The agent's answer to \(method.rawValue) is not of the reply's kind; the caller is told it failed.")
                        g_dbus_method_invocation_return_dbus_error(invocation, "org.freedesktop.DBus.Error.Failed", "The agent could not answer \(method.rawValue).")
                        return
                    }
                    g_dbus_method_invocation_return_value(invocation, Variant.tuple(of: arguments))
                case .failure(let error):
                    Self.refuse(invocation, error)
                }
            }
        }
    }

    /// Answers `invocation` with `error`, under its D-Bus error name: what TocsinKit reads back
    /// into the same `TocsinError`.
    private static func refuse(_ invocation: OpaquePointer, _ error: TocsinError) {
        g_dbus_method_invocation_return_dbus_error(invocation, error.dbusErrorName, error.message)
    }
}
