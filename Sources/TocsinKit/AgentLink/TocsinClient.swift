import CGLib
import Foundation
import GLibSupport
import TocsinCore

/// A connection to the Tocsin agent on the session bus: every method of `io.github.tocsin.Alarms1`
/// as a Swift call, and its signals as `AlarmChange`s.
///
/// Calls are synchronous and may start the agent through D-Bus activation. Use one client from one
/// thread; signal handlers run on the GLib main loop, which the caller runs (see `watch`).
public final class TocsinClient {
    private let connection: OpaquePointer
    private var subscriptions: [guint] = []
    /// The name watch that registers this connection as a watcher whenever the agent appears.
    private var agentWatch: guint = 0
    /// How long a call may take before it fails, in milliseconds (activation included).
    private let timeoutMilliseconds: Int32 = 25_000

    /// Connects to the session bus (`SessionBus`'s shared connection).
    public init() throws(TocsinError) {
        let connection: OpaquePointer?
        do {
            connection = try GLibError.check { SessionBus.sharedConnection(error: $0) }
        } catch {
            throw .agentUnavailable("There is no D-Bus session bus to reach the Tocsin agent on (\(error.message)).")
        }
        guard let connection else { throw .agentUnavailable("There is no D-Bus session bus to reach the Tocsin agent on.") }
        self.connection = connection
    }

    deinit {
        for subscription in subscriptions {
            g_dbus_connection_signal_unsubscribe(connection, subscription)
        }
        if agentWatch != 0 { g_bus_unwatch_name(agentWatch) }
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    /// Schedules what `request` describes; returns the new alarm's id. An application's first
    /// request waits for the user's consent.
    public func schedule(_ request: AlarmRequest) throws(TocsinError) -> UUID {
        try call(AlarmsInterface.schedule, request, timeoutMilliseconds: Self.answerTimeoutMilliseconds)
    }

    /// Performs `intent` (pause, resume, cancel, stop, countdown, secondary) on alarm `id`.
    public func perform(_ intent: AlarmIntent, on id: UUID) throws(TocsinError) {
        try call(AlarmsInterface.intent(intent), id)
    }

    /// Every alarm the agent holds, oldest first.
    ///
    /// Asked for with `ListPacked`, which carries the list as one byte array (`GVariantPacking`
    /// says why). An agent older than interface version 4, still running after an upgrade, is
    /// asked with `List`.
    public func alarms() throws(TocsinError) -> [Alarm] {
        if let alarms = try send(AlarmsInterface.listPacked, (), unlessUnknown: true) { return alarms }
        return try call(AlarmsInterface.list, ())
    }

    /// The alarm with `id`.
    public func alarm(_ id: UUID) throws(TocsinError) -> Alarm {
        try call(AlarmsInterface.get, id)
    }

    /// How the agent is set up and what it can do (`GetStatus`; keys in `AlarmWireFormat.StatusKey`).
    public func status() throws(TocsinError) -> [String: WireValue] {
        try call(AlarmsInterface.getStatus, ())
    }

    /// Says which application this connection speaks for (`IdentifyApplication`); the agent files
    /// alarms and the user's consent under it.
    public func identifyApplication(_ appID: String) throws(TocsinError) {
        try call(AlarmsInterface.identifyApplication, appID)
    }

    /// Asks the user, if not asked yet, whether this application may set alarms; waits for the
    /// answer (up to five minutes) and returns the state.
    public func requestAuthorization() throws(TocsinError) -> AuthorizationState {
        try call(AlarmsInterface.requestAuthorization, (), timeoutMilliseconds: Self.answerTimeoutMilliseconds)
    }

    /// This application's authorization state, without asking.
    public func authorization() throws(TocsinError) -> AuthorizationState {
        try call(AlarmsInterface.getAuthorization, ())
    }

    /// Every application the user answered for (only the tocsin command line may ask).
    public func authorizations() throws(TocsinError) -> [String: AuthorizationState] {
        try call(AlarmsInterface.listAuthorizations, ())
    }

    /// Every application with an answer or seen asking: its authorization, where it ran when it
    /// last asked (`nil`: not known), and how many alarms it holds (only the tocsin command line
    /// may ask; interface version 3).
    public func applications() throws(TocsinError) -> [ApplicationRecord] {
        try call(AlarmsInterface.listApplications, ())
    }

    /// Sets `app`'s authorization (only the tocsin command line may).
    public func setAuthorization(_ state: AuthorizationState, for app: String) throws(TocsinError) {
        try call(AlarmsInterface.setAuthorization, (app, state))
    }

    /// How long a call that may wait for the user's answer may take: longer than the agent waits.
    static let answerTimeoutMilliseconds: Int32 = 330_000

    /// Whether the session bus can start the agent on demand (its D-Bus activation file is installed).
    public func agentIsActivatable() -> Bool {
        // A bus that cannot say is taken for one that cannot start the agent.
        guard let reply = try? GLibError.check({ error in
            g_dbus_connection_call_sync(
                connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListActivatableNames",
                nil, Variant.type("(as)"), G_DBUS_CALL_FLAGS_NONE, 5000, nil, error)
        }) else { return false }
        defer { g_variant_unref(reply) }
        let names = Variant.child(reply, 0)
        defer { g_variant_unref(names) }
        return (0..<g_variant_n_children(names)).contains { index in
            let name = g_variant_get_child_value(names, index)!
            defer { g_variant_unref(name) }
            return String(cString: g_variant_get_string(name, nil)) == AlarmsInterface.busName
        }
    }

    /// Asks the agent to send this connection its signals (`Watch`): the changes of the alarms
    /// this application may see (every alarm for the command line) and its authorization. The
    /// agent forgets watchers when it stops; `watch` registers again whenever it reappears.
    public func registerAsWatcher() throws(TocsinError) {
        try call(AlarmsInterface.watch, ())
    }

    /// Tells the agent that this connection performs its application's own intents, through the
    /// `org.freedesktop.Application` it exports (TocsinKit's `ApplicationExport`).
    public func receiveIntents() throws(TocsinError) {
        try call(AlarmsInterface.receiveIntents, ())
    }

    /// Calls `handler` on the main loop for every change the agent announces, from now on, across
    /// agent restarts. The caller must run a GLib main loop (`MainLoop().run()`).
    ///
    /// Registers this connection as a watcher now if the agent runs (without starting it), and
    /// again each time the agent appears on the bus.
    public func watch(_ handler: @escaping (AlarmChange) -> Void) {
        for typed in [AlarmsInterface.changed, AlarmsInterface.removed] {
            let box = SignalHandlerBox { parameters in
                // A signal this client cannot read (from a newer agent) is left out.
                guard let decoded = try? typed.arguments.decode(Variant.arguments(ofTuple: parameters)) else { return }
                let (event, alarm) = decoded
                handler(AlarmChange(event: event, alarm: alarm, isRemoval: typed.signal == .removed, receivedAt: Date()))
            }
            // Matching on the well-known name: the bus delivers from whoever owns it, so the
            // subscription survives an agent restart.
            let id = g_dbus_connection_signal_subscribe(
                connection, AlarmsInterface.busName, AlarmsInterface.name, typed.signal.rawValue, AlarmsInterface.objectPath,
                nil, G_DBUS_SIGNAL_FLAGS_NONE,
                { _, _, _, _, _, parameters, userData in
                    Unmanaged<SignalHandlerBox>.fromOpaque(userData!).takeUnretainedValue().handle(parameters!)
                },
                Unmanaged.passRetained(box).toOpaque(),
                { userData in Unmanaged<SignalHandlerBox>.fromOpaque(userData!).release() })
            subscriptions.append(id)
        }
        registerAsWatcherWhenTheAgentAppears()
    }

    /// Sends `Watch` now if the agent is on the bus, and each time it appears. The calls do not
    /// start the agent, and do not wait: a `Watch` sent before a later call reaches the agent
    /// first, since one connection's messages arrive in order.
    private func registerAsWatcherWhenTheAgentAppears() {
        guard agentWatch == 0 else { return }
        agentWatch = g_bus_watch_name_on_connection(
            connection, AlarmsInterface.busName, G_BUS_NAME_WATCHER_FLAGS_NONE,
            { connection, _, _, _ in TocsinClient.sendWatch(on: connection!) },
            nil, nil, nil)
    }

    /// Sends `Watch` on `connection` without waiting for the answer or starting the agent.
    private static func sendWatch(on connection: OpaquePointer) {
        g_dbus_connection_call(
            connection, AlarmsInterface.busName, AlarmsInterface.objectPath, AlarmsInterface.name,
            AlarmsMethod.watch.rawValue, nil, Variant.type("()"), G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, nil,
            { source, result, _ in
                // An agent that is gone again registers this connection when it is back.
                if let reply = g_dbus_connection_call_finish(OpaquePointer(source), result, nil) { g_variant_unref(reply) }
            }, nil)
    }

    /// Calls `handler` with `true` when the agent appears on the bus and `false` when it goes away
    /// (called once at once with the current state). Needs a running main loop, like `watch`.
    public func watchAgentPresence(_ handler: @escaping (Bool) -> Void) {
        let appeared = CallbackBox { handler(true) }
        let vanished = CallbackBox { handler(false) }
        let boxes = Unmanaged.passRetained(PresenceBoxes(appeared: appeared, vanished: vanished)).toOpaque()
        _ = g_bus_watch_name_on_connection(
            connection, AlarmsInterface.busName, G_BUS_NAME_WATCHER_FLAGS_NONE,
            { _, _, _, userData in Unmanaged<PresenceBoxes>.fromOpaque(userData!).takeUnretainedValue().appeared.body() },
            { _, _, userData in Unmanaged<PresenceBoxes>.fromOpaque(userData!).takeUnretainedValue().vanished.body() },
            boxes, { userData in Unmanaged<PresenceBoxes>.fromOpaque(userData!).release() })
    }

    /// Calls `typed` with `arguments` and returns its reply, or the agent's error.
    private func call<Arguments, Reply>(_ typed: AlarmsInterface.TypedMethod<Arguments, Reply>, _ arguments: Arguments,
                                        timeoutMilliseconds: Int32? = nil) throws(TocsinError) -> Reply {
        guard let reply = try send(typed, arguments, timeoutMilliseconds: timeoutMilliseconds, unlessUnknown: false) else {
            throw .protocolError("The Tocsin agent does not have \(typed.method.rawValue).")
        }
        return reply
    }

    /// The reply to `typed` called with `arguments`; `nil` when `unlessUnknown` and the agent
    /// does not have the method (an older agent).
    ///
    /// The call is written, and its reply read, with the method's row of `AlarmsInterface`'s
    /// table, the one the agent reads and answers it with; GDBus checks the reply's types too.
    private func send<Arguments, Reply>(_ typed: AlarmsInterface.TypedMethod<Arguments, Reply>, _ arguments: Arguments,
                                        timeoutMilliseconds: Int32? = nil, unlessUnknown: Bool) throws(TocsinError) -> Reply? {
        let timeout = timeoutMilliseconds ?? self.timeoutMilliseconds
        let method = typed.method.rawValue
        let replyTuple: OpaquePointer?
        do {
            replyTuple = try GLibError.check {
                g_dbus_connection_call_sync(
                    connection, AlarmsInterface.busName, AlarmsInterface.objectPath, AlarmsInterface.name, method,
                    Variant.tuple(of: typed.arguments.encode(arguments)), Variant.tupleType(of: typed.reply.fields),
                    G_DBUS_CALL_FLAGS_NONE, timeout, nil, $0)
            }
        } catch where unlessUnknown && error.remoteName == "org.freedesktop.DBus.Error.UnknownMethod" {
            return nil
        } catch {
            throw TocsinError(failedCall: error, timeoutMilliseconds: timeout)
        }
        guard let replyTuple else { throw .protocolError("The Tocsin agent answered \(method) with nothing.") }
        defer { g_variant_unref(replyTuple) }
        do throws(AlarmInputError) {
            guard let reply = try typed.reply.decode(Variant.arguments(ofTuple: replyTuple)) else {
                throw AlarmInputError("it is not of the types \(method) replies with.")
            }
            return reply
        } catch {
            throw .protocolError("The Tocsin agent's reply to \(method) cannot be read by this client: \(error.message)")
        }
    }
}

/// Carries a signal handler through GDBus's `gpointer`.
private final class SignalHandlerBox {
    let handle: (OpaquePointer) -> Void
    init(_ handle: @escaping (OpaquePointer) -> Void) { self.handle = handle }
}

/// Carries the two callbacks of a name watch through one `gpointer`.
private final class PresenceBoxes {
    let appeared: CallbackBox
    let vanished: CallbackBox
    init(appeared: CallbackBox, vanished: CallbackBox) {
        self.appeared = appeared
        self.vanished = vanished
    }
}
