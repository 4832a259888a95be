import CGLib
import FoundationEssentials
import GLibSupport
import TocsinCore

/// Knows which notification server the agent talks to, what it can show, and whether its
/// do-not-disturb mode is on — following changes, not only the state at start-up.
///
/// Do-not-disturb is read where each desktop exposes it: dunst's `paused` property, KDE Plasma's
/// `Inhibited`, GNOME's `show-banners` setting, mako's modes, xfce4-notifyd's xfconf property.
/// Some of them hide even critical alerts (dunst paused, mako in do-not-disturb): the alarm rings
/// anyway, and the agent says how to stop it. What each server does is `NotificationServerProfile`'s
/// table; this class only asks.
final class NotificationServerMonitor {
    /// The server: what it says of itself, and the profile Tocsin shows it alarms by.
    struct Server: Equatable {
        let identity: NotificationServerIdentity
        let profile: NotificationServerProfile

        init(_ identity: NotificationServerIdentity) {
            self.identity = identity
            profile = NotificationServerProfile(for: identity)
        }
    }

    /// The do-not-disturb state, with what it means for alarms.
    enum DoNotDisturb: Equatable {
        /// Not known for this server.
        case unknown
        /// Off: alerts show.
        case off
        /// On; `hidesAlerts` when even critical alerts are hidden. `how` names the mechanism.
        case on(hidesAlerts: Bool, how: String)
    }

    /// The server now, or `nil` when none owns the notifications name.
    private(set) var server: Server?
    /// The do-not-disturb state now.
    private(set) var doNotDisturb: DoNotDisturb = .unknown
    /// Called on the main loop when `server` or `doNotDisturb` changed.
    var onChange: () -> Void = {}

    private let log: AgentLog
    private let connection: OpaquePointer?
    private var watchID: guint = 0
    private var subscriptions: [guint] = []
    /// The GSettings objects read so far, by schema (GNOME's notifications).
    private var settings: [String: UnsafeMutablePointer<GSettings>] = [:]
    private var reportedState: (server: Server?, dnd: DoNotDisturb)?
    private var refreshGeneration = 0
    private var waitingForRefresh: [() -> Void] = []
    /// Someone owns org.freedesktop.Notifications.
    private var nameOwned = false
    /// The pending retry of a server that owns the name but did not answer, and the next delay.
    private var retrySource: guint = 0
    private var retryDelay: guint = 1

    private static let notificationsName = "org.freedesktop.Notifications"
    private static let notificationsPath = "/org/freedesktop/Notifications"

    /// Starts following the server on the session bus.
    init(log: AgentLog) {
        self.log = log
        do throws(GLibError) {
            connection = try GLibError.check { g_bus_get_sync(G_BUS_TYPE_SESSION, nil, $0) }
        } catch {
            connection = nil
            log.warning("Cannot watch the notification server: \(error.message)")
            return
        }
        let userData = Unmanaged.passUnretained(self).toOpaque()
        watchID = g_bus_watch_name_on_connection(
            connection, Self.notificationsName, G_BUS_NAME_WATCHER_FLAGS_NONE,
            { _, _, _, userData in Unmanaged<NotificationServerMonitor>.fromOpaque(userData!).takeUnretainedValue().serverAppeared() },
            { _, _, userData in Unmanaged<NotificationServerMonitor>.fromOpaque(userData!).takeUnretainedValue().serverVanished() },
            userData, nil)
        // Property changes of dunst (paused), Plasma (Inhibited) and mako (modes), from any sender:
        // which server it is gets checked on refresh.
        for path in [Self.notificationsPath, "/fr/emersion/Mako"] {
            subscriptions.append(g_dbus_connection_signal_subscribe(
                connection, nil, "org.freedesktop.DBus.Properties", "PropertiesChanged", path, nil, G_DBUS_SIGNAL_FLAGS_NONE,
                { _, _, _, _, _, _, userData in
                    Unmanaged<NotificationServerMonitor>.fromOpaque(userData!).takeUnretainedValue().refresh()
                }, userData, nil))
        }
        subscriptions.append(g_dbus_connection_signal_subscribe(
            connection, "org.xfce.Xfconf", "org.xfce.Xfconf", "PropertyChanged", "/org/xfce/Xfconf", "xfce4-notifyd", G_DBUS_SIGNAL_FLAGS_NONE,
            { _, _, _, _, _, _, userData in
                Unmanaged<NotificationServerMonitor>.fromOpaque(userData!).takeUnretainedValue().refresh()
            }, userData, nil))
    }

    deinit {
        if watchID != 0 { g_bus_unwatch_name(watchID) }
        if retrySource != 0 { g_source_remove(retrySource) }
        for subscription in subscriptions { g_dbus_connection_signal_unsubscribe(connection, subscription) }
        for object in settings.values { g_object_unref(UnsafeMutableRawPointer(object)) }
    }

    /// Asks the server again, then calls `completion` on the main loop once the answers are in.
    /// Also called before an alert is shown, since not every server announces its changes.
    ///
    /// Nothing here waits for the server: a server busy drawing a second's countdown updates
    /// answers late, and the agent's main loop — which rings the next alarm — must not wait with
    /// it. When refreshes overlap, the newest answers count and every completion runs after them.
    func refresh(then completion: @escaping () -> Void = {}) {
        refreshGeneration += 1
        let generation = refreshGeneration
        waitingForRefresh.append(completion)
        queryServer { [weak self] server in
            guard let self else { return }
            guard let server else { return finishRefresh(generation, server: nil, doNotDisturb: .unknown) }
            queryDoNotDisturb(of: server) { [weak self] state in
                self?.finishRefresh(generation, server: server, doNotDisturb: state)
            }
        }
    }

    private func finishRefresh(_ generation: Int, server: Server?, doNotDisturb: DoNotDisturb) {
        // An older refresh's answers are stale once a newer one is under way.
        guard generation == refreshGeneration else { return }
        self.server = server
        self.doNotDisturb = doNotDisturb
        if server == nil { retryWhileUnanswered() } else { retryDelay = 1 }
        reportIfChanged()
        let completions = waitingForRefresh
        waitingForRefresh = []
        for completion in completions { completion() }
    }

    private func serverAppeared() {
        nameOwned = true
        refresh()
    }

    /// The name is owned but GetServerInformation failed: GNOME 43's notification service takes
    /// its name a moment before it serves the object (UnknownMethod "Object does not exist"),
    /// and a server may be starting or stuck. Asked again after 1 s, then 2, 4… up to a minute,
    /// until it answers or leaves; no retry is ever waiting on a server that answered.
    private func retryWhileUnanswered() {
        guard nameOwned, server == nil, retrySource == 0 else { return }
        let delay = retryDelay
        retryDelay = min(retryDelay * 2, 60)
        retrySource = g_timeout_add_seconds(delay, { userData in
            let monitor = Unmanaged<NotificationServerMonitor>.fromOpaque(userData!).takeUnretainedValue()
            monitor.retrySource = 0
            monitor.refresh()
            return SourceResult.remove
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    private func serverVanished() {
        nameOwned = false
        retryDelay = 1
        refreshGeneration += 1
        server = nil
        doNotDisturb = .unknown
        reportIfChanged()
    }

    private func reportIfChanged() {
        guard reportedState.map({ $0.server != server || $0.dnd != doNotDisturb }) ?? true else { return }
        reportedState = (server, doNotDisturb)
        if let server {
            let identity = server.identity
            var line = "Notification server: \(identity.name) \(identity.version) (\(identity.vendor))"
            if !server.profile.drawsButtons { line += "; it shows no buttons, so notifications say how to stop alarms from the command line" }
            switch doNotDisturb {
            case .on(true, let how):
                log.warning(line + "; do-not-disturb is ON (\(how)) and hides even alarm alerts. Alarms still ring: stop them with “tocsin stop” or a shortcut bound to it.")
            case .on(false, let how):
                log.info(line + "; do-not-disturb is on (\(how)), alarm alerts still show.")
            case .off, .unknown:
                log.info(line + ".")
            }
        } else if nameOwned {
            log.warning("The notification server does not answer yet; asking it again. Alarms still ring, and “tocsin stop” stops them.")
        } else {
            log.warning("No notification server is running; alarms still ring, and “tocsin stop” stops them.")
        }
        onChange()
    }

    private func queryServer(_ completion: @escaping (Server?) -> Void) {
        call(Self.notificationsName, Self.notificationsPath, Self.notificationsName, "GetServerInformation") { [weak self] info in
            guard let self, let info, String(cString: g_variant_get_type_string(info)) == "(ssss)" else { return completion(nil) }
            var identity = NotificationServerIdentity(name: Variant.string(in: info, at: 0), vendor: Variant.string(in: info, at: 1),
                                                      version: Variant.string(in: info, at: 2), capabilities: [])
            call(Self.notificationsName, Self.notificationsPath, Self.notificationsName, "GetCapabilities") { reply in
                if let reply, String(cString: g_variant_get_type_string(reply)) == "(as)" {
                    identity.capabilities = Set(Variant.strings(in: reply, at: 0))
                }
                completion(Server(identity))
            }
        }
    }

    /// Asks `server` whether its do-not-disturb is on, the way its family keeps it; what that
    /// means for alarms is the profile's rule.
    private func queryDoNotDisturb(of server: Server, _ completion: @escaping (DoNotDisturb) -> Void) {
        guard let rule = server.profile.doNotDisturb else { return completion(.unknown) }
        let state: (Bool?) -> DoNotDisturb = { on in on.map { $0 ? .on(hidesAlerts: rule.hidesAlerts, how: rule.name) : .off } ?? .unknown }
        switch rule.source {
        case .serverProperty(let interface, let name):
            property(Self.notificationsPath, interface, name) { completion(state($0)) }
        case .setting(let schema, let key, let onWhen):
            completion(state(setting(schema, key).map { $0 == onWhen }))
        case .makoMode(let mode):
            call(Self.notificationsName, "/fr/emersion/Mako", "fr.emersion.Mako", "ListModes") { reply in
                guard let reply, String(cString: g_variant_get_type_string(reply)) == "(as)" else { return completion(.unknown) }
                completion(state(Variant.strings(in: reply, at: 0).contains(mode)))
            }
        case .xfconf(let channel, let property):
            call("org.xfce.Xfconf", "/org/xfce/Xfconf", "org.xfce.Xfconf", "GetProperty",
                 Variant.tuple([g_variant_new_string(channel), g_variant_new_string(property)])) { [weak self] reply in
                // No such property: it has never been turned on.
                guard let reply else { return completion(.off) }
                completion(state(self?.boolChild(reply) == true))
            }
        }
    }

    /// A boolean GSettings key, if its schema is installed; followed from then on (a change
    /// refreshes), so a setting the server keeps its do-not-disturb in is read live.
    private func setting(_ schemaID: String, _ key: String) -> Bool? {
        if settings[schemaID] == nil {
            guard let source = g_settings_schema_source_get_default(),
                  let schema = g_settings_schema_source_lookup(source, schemaID, 1) else { return nil }
            g_settings_schema_unref(schema)
            let created = g_settings_new(schemaID)
            g_signal_connect_data(UnsafeMutableRawPointer(created), "changed::\(key)",
                                  unsafeBitCast(Self.settingsChanged, to: GCallback.self),
                                  Unmanaged.passUnretained(self).toOpaque(), nil, GConnectFlags(rawValue: 0))
            settings[schemaID] = created
        }
        return g_settings_get_boolean(settings[schemaID], key) != 0
    }

    private static let settingsChanged: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, gpointer?) -> Void = { _, _, userData in
        Unmanaged<NotificationServerMonitor>.fromOpaque(userData!).takeUnretainedValue().refresh()
    }

    /// A boolean D-Bus property of the notification server, or `nil`.
    private func property(_ path: String, _ interface: String, _ name: String, _ completion: @escaping (Bool?) -> Void) {
        call(Self.notificationsName, path, "org.freedesktop.DBus.Properties", "Get",
             Variant.tuple([g_variant_new_string(interface), g_variant_new_string(name)])) { [weak self] reply in
            completion(reply.flatMap { self?.boolChild($0) })
        }
    }

    /// The boolean inside a `(v)` reply.
    private func boolChild(_ reply: OpaquePointer) -> Bool? {
        guard String(cString: g_variant_get_type_string(reply)) == "(v)" else { return nil }
        let value = Variant.child(reply, 0)
        defer { g_variant_unref(value) }
        if case .bool(let flag) = Variant.wireValue(value) { return flag }
        return nil
    }

    /// An asynchronous call with a short timeout; `completion` gets the reply (valid during the
    /// completion only), or `nil` when it failed (the server lacks it, or is gone).
    private func call(_ destination: String, _ path: String, _ interface: String, _ method: String, _ arguments: OpaquePointer? = nil,
                      _ completion: @escaping (OpaquePointer?) -> Void) {
        guard let connection else {
            if let arguments { g_variant_unref(g_variant_ref_sink(arguments)) }
            return completion(nil)
        }
        AsyncBusCall.start(connection, destination: destination, path: path, interface: interface, method: method, arguments: arguments,
                           flags: G_DBUS_CALL_FLAGS_NO_AUTO_START, timeoutMilliseconds: 1000) { reply, _ in completion(reply) }
    }
}
