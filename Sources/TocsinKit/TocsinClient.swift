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

    /// Connects to the session bus.
    public init() throws(TocsinClientError) {
        do {
            connection = try GLibError.check { g_bus_get_sync(G_BUS_TYPE_SESSION, nil, $0) }!
        } catch {
            throw .agentUnavailable("There is no D-Bus session bus to reach the Tocsin agent on (\(error.message)).")
        }
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
    public func schedule(_ request: AlarmRequest) throws(TocsinClientError) -> UUID {
        let reply = try call(.schedule, Variant.tuple([Variant.make(dictionary: AlarmWireFormat.encode(request))]),
                             timeoutMilliseconds: Self.answerTimeoutMilliseconds)
        defer { g_variant_unref(reply) }
        let text = Variant.string(in: reply, at: 0)
        guard let id = UUID(uuidString: text) else { throw .protocolError("The agent returned “\(text)” as an id.") }
        return id
    }

    /// Performs `intent` (pause, resume, cancel, stop, countdown, secondary) on alarm `id`.
    public func perform(_ intent: AlarmIntent, on id: UUID) throws(TocsinClientError) {
        g_variant_unref(try call(AlarmsMethod(intent), Variant.tuple([g_variant_new_string(id.uuidString.lowercased())])))
    }

    /// Every alarm the agent holds, oldest first.
    ///
    /// Asked for with `ListPacked`, which carries the list as one byte array (`GVariantPacking`
    /// says why). An agent older than interface version 4, still running after an upgrade, is
    /// asked with `List`.
    public func alarms() throws(TocsinClientError) -> [Alarm] {
        let dictionaries: [[String: WireValue]]
        if let reply = try call(.listPacked, nil, unlessUnknown: true) {
            defer { g_variant_unref(reply) }
            let packed = Variant.child(reply, 0)
            defer { g_variant_unref(packed) }
            do {
                dictionaries = try GVariantPacking.unpackDictionaries(Variant.bytes(ofByteArray: packed))
            } catch {
                throw .protocolError("The agent sent a list of alarms this client cannot read: \(error.reason).")
            }
        } else {
            let reply = try call(.list, nil)
            defer { g_variant_unref(reply) }
            let list = Variant.child(reply, 0)
            defer { g_variant_unref(list) }
            dictionaries = Variant.dictionaries(list)
        }
        return try dictionaries.map { dictionary throws(TocsinClientError) in try Self.decode(dictionary) }
    }

    /// The alarm with `id`.
    public func alarm(_ id: UUID) throws(TocsinClientError) -> Alarm {
        let reply = try call(.get, Variant.tuple([g_variant_new_string(id.uuidString.lowercased())]))
        defer { g_variant_unref(reply) }
        let dictionary = Variant.child(reply, 0)
        defer { g_variant_unref(dictionary) }
        return try Self.decode(Variant.dictionary(dictionary))
    }

    /// How the agent is set up and what it can do (`GetStatus`; keys in `AlarmWireFormat.StatusKey`).
    public func status() throws(TocsinClientError) -> [String: WireValue] {
        let reply = try call(.getStatus, nil)
        defer { g_variant_unref(reply) }
        let dictionary = Variant.child(reply, 0)
        defer { g_variant_unref(dictionary) }
        return Variant.dictionary(dictionary)
    }

    /// Says which application this connection speaks for (`IdentifyApplication`); the agent files
    /// alarms and the user's consent under it.
    public func identifyApplication(_ appID: String) throws(TocsinClientError) {
        g_variant_unref(try call(.identifyApplication, Variant.tuple([g_variant_new_string(appID)])))
    }

    /// Asks the user, if not asked yet, whether this application may set alarms; waits for the
    /// answer (up to five minutes) and returns the state.
    public func requestAuthorization() throws(TocsinClientError) -> AuthorizationState {
        try authorizationState(from: call(.requestAuthorization, nil, timeoutMilliseconds: Self.answerTimeoutMilliseconds))
    }

    /// This application's authorization state, without asking.
    public func authorization() throws(TocsinClientError) -> AuthorizationState {
        try authorizationState(from: call(.getAuthorization, nil))
    }

    /// Every application the user answered for (only the tocsin command line may ask).
    public func authorizations() throws(TocsinClientError) -> [String: AuthorizationState] {
        let reply = try call(.listAuthorizations, nil)
        defer { g_variant_unref(reply) }
        let map = Variant.child(reply, 0)
        defer { g_variant_unref(map) }
        guard case .stringMap(let states) = Variant.wireValue(map) else { throw .protocolError("The agent sent authorizations this client cannot read.") }
        return states.compactMapValues(AuthorizationState.init(rawValue:))
    }

    /// Every application with an answer or seen asking: its authorization, where it ran when it
    /// last asked (`nil`: not known), and how many alarms it holds (only the tocsin command line
    /// may ask; interface version 3).
    public func applications() throws(TocsinClientError) -> [ApplicationRecord] {
        let reply = try call(.listApplications, nil)
        defer { g_variant_unref(reply) }
        let list = Variant.child(reply, 0)
        defer { g_variant_unref(list) }
        return Variant.dictionaries(list).compactMap(AlarmWireFormat.decodeApplication)
    }

    /// Sets `app`'s authorization (only the tocsin command line may).
    public func setAuthorization(_ state: AuthorizationState, for app: String) throws(TocsinClientError) {
        g_variant_unref(try call(.setAuthorization, Variant.tuple([g_variant_new_string(app), g_variant_new_string(state.rawValue)])))
    }

    private func authorizationState(from reply: OpaquePointer) throws(TocsinClientError) -> AuthorizationState {
        defer { g_variant_unref(reply) }
        let text = Variant.string(in: reply, at: 0)
        guard let state = AuthorizationState(rawValue: text) else { throw .protocolError("The agent sent the authorization state “\(text)”.") }
        return state
    }

    /// How long a call that may wait for the user's answer may take: longer than the agent waits.
    static let answerTimeoutMilliseconds: Int32 = 330_000

    /// Whether the session bus can start the agent on demand (its D-Bus activation file is installed).
    public func agentIsActivatable() -> Bool {
        var error: UnsafeMutablePointer<GError>?
        guard let reply = g_dbus_connection_call_sync(
            connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListActivatableNames",
            nil, nil, G_DBUS_CALL_FLAGS_NONE, 5000, nil, &error) else {
            if let error { g_error_free(error) }
            return false
        }
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
    public func registerAsWatcher() throws(TocsinClientError) {
        g_variant_unref(try call(.watch, nil))
    }

    /// Tells the agent that this connection performs its application's own intents, through the
    /// `org.freedesktop.Application` it exports (TocsinKit's `ApplicationExport`).
    public func receiveIntents() throws(TocsinClientError) {
        g_variant_unref(try call(.receiveIntents, nil))
    }

    /// Calls `handler` on the main loop for every change the agent announces, from now on, across
    /// agent restarts. The caller must run a GLib main loop (`MainLoop().run()`).
    ///
    /// Registers this connection as a watcher now if the agent runs (without starting it), and
    /// again each time the agent appears on the bus.
    public func watch(_ handler: @escaping (AlarmChange) -> Void) {
        for signal in [AlarmsSignal.changed, .removed] {
            let box = SignalHandlerBox { parameters in
                let eventVariant = Variant.child(parameters, 0)
                let alarmVariant = Variant.child(parameters, 1)
                defer {
                    g_variant_unref(eventVariant)
                    g_variant_unref(alarmVariant)
                }
                let eventName = String(cString: g_variant_get_string(eventVariant, nil))
                guard let event = AlarmEvent.Kind(rawValue: eventName),
                      let alarm = try? AlarmWireFormat.decodeAlarm(Variant.dictionary(alarmVariant)) else { return }
                handler(AlarmChange(event: event, alarm: alarm, isRemoval: signal == .removed, receivedAt: Date()))
            }
            // Matching on the well-known name: the bus delivers from whoever owns it, so the
            // subscription survives an agent restart.
            let id = g_dbus_connection_signal_subscribe(
                connection, AlarmsInterface.busName, AlarmsInterface.name, signal.rawValue, AlarmsInterface.objectPath,
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
            AlarmsMethod.watch.rawValue, nil, nil, G_DBUS_CALL_FLAGS_NO_AUTO_START, -1, nil,
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

    /// Calls `method` and returns its reply tuple (owned by the caller), or the agent's error.
    private func call(_ method: AlarmsMethod, _ arguments: OpaquePointer?, timeoutMilliseconds: Int32? = nil) throws(TocsinClientError) -> OpaquePointer {
        try call(method, arguments, timeoutMilliseconds: timeoutMilliseconds, unlessUnknown: false)!
    }

    /// The reply to `method`; `nil` when `unlessUnknown` and the agent does not have the method
    /// (an older agent).
    private func call(_ method: AlarmsMethod, _ arguments: OpaquePointer?, timeoutMilliseconds: Int32? = nil, unlessUnknown: Bool) throws(TocsinClientError) -> OpaquePointer? {
        let timeout = timeoutMilliseconds ?? self.timeoutMilliseconds
        do {
            return try GLibError.check {
                g_dbus_connection_call_sync(
                    connection, AlarmsInterface.busName, AlarmsInterface.objectPath, AlarmsInterface.name,
                    method.rawValue, arguments, nil, G_DBUS_CALL_FLAGS_NONE, timeout, nil, $0)
            }!
        } catch where unlessUnknown && error.remoteName == "org.freedesktop.DBus.Error.UnknownMethod" {
            return nil
        } catch where error.isTimeout {
            throw .agentUnavailable("The Tocsin agent did not answer within \(timeout / 1000) s; it may be stuck. Restart it (“pkill tocsind; tocsind &”) and look at its log.")
        } catch {
            throw TocsinClientError(dbusErrorName: error.remoteName, message: error.message)
        }
    }

    private static func decode(_ dictionary: [String: WireValue]) throws(TocsinClientError) -> Alarm {
        do {
            return try AlarmWireFormat.decodeAlarm(dictionary)
        } catch {
            throw .protocolError("The agent sent an alarm this client cannot read: \(error.message)")
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
