import CGLib
import FoundationEssentials
import GLibSupport
import TocsinCore
import TocsinEdge

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
    private let faults: NeighbourFaults
    private let connection: OpaquePointer?
    private var watchID: guint = 0
    private var subscriptions: [BusSignalSubscription] = []
    /// The GSettings objects read so far, by schema (GNOME's notifications).
    private var settings: [String: UnsafeMutablePointer<GSettings>] = [:]
    private var reportedState: (server: Server?, dnd: DoNotDisturb)?
    /// Counts the refreshes started; `appliedGeneration` is the newest whose answers are held.
    private var refreshGeneration = 0
    private var appliedGeneration = 0
    /// Whether a refresh is out, and whether another was asked for meanwhile.
    private var refreshing = false
    private var refreshAgain = false
    /// Completions waiting for a refresh that started after they were asked for.
    private var waitingForRefresh: [() -> Void] = []
    private var waitingForNextRefresh: [() -> Void] = []
    /// Someone owns org.freedesktop.Notifications.
    private var nameOwned = false
    /// The pending retry of a server that owns the name but did not answer, and the next delay.
    private var retrySource: guint = 0
    private var retryDelay: guint = 1

    /// How long the server (or the service keeping its do-not-disturb) may take to answer.
    private static let timeoutMilliseconds: Int32 = 1000

    /// Starts following the server on the session bus; its wrong answers go to `faults`.
    init(log: AgentLog, faults: NeighbourFaults) {
        self.log = log
        self.faults = faults
        do throws(GLibError) {
            connection = try GLibError.check { g_bus_get_sync(G_BUS_TYPE_SESSION, nil, $0) }
        } catch {
            connection = nil
            log.warning("Cannot watch the notification server: \(error.message)")
            return
        }
        let userData = Unmanaged.passUnretained(self).toOpaque()
        watchID = g_bus_watch_name_on_connection(
            connection, FreedesktopNotifications.busName, G_BUS_NAME_WATCHER_FLAGS_NONE,
            { _, _, _, userData in Unmanaged<NotificationServerMonitor>.fromOpaque(userData!).takeUnretainedValue().serverAppeared() },
            { _, _, userData in Unmanaged<NotificationServerMonitor>.fromOpaque(userData!).takeUnretainedValue().serverVanished() },
            userData, nil)
        guard let connection else { return }
        // Property changes of dunst (paused), Plasma (Inhibited) and mako (modes), from any
        // sender: which server it is gets checked on refresh, which runs one at a time however
        // many come.
        for path in [FreedesktopNotifications.path, Mako.path] {
            subscriptions.append(BusProperties.followChanges(at: path, from: nil, on: connection,
                                                             neighbour: "The notification server", faults: faults) { [weak self] _ in self?.refresh() })
        }
        subscriptions.append(Xfconf.followChanges(of: "xfce4-notifyd", on: connection, faults: faults) { [weak self] in self?.refresh() })
    }

    deinit {
        if watchID != 0 { g_bus_unwatch_name(watchID) }
        if retrySource != 0 { g_source_remove(retrySource) }
        for object in settings.values { g_object_unref(UnsafeMutableRawPointer(object)) }
    }

    /// Asks the server again, then calls `completion` on the main loop once the answers are in.
    /// Also called before an alert is shown, since not every server announces its changes.
    ///
    /// Nothing here waits for the server: a server busy drawing a second's countdown updates
    /// answers late, and the agent's main loop — which rings the next alarm — must not wait with
    /// it. One refresh is out at a time: what is asked for meanwhile (a server saying its
    /// properties changed twenty times a second, as a buggy one may) makes one more after it,
    /// and a completion runs once a refresh that started after it was asked for is in — within
    /// two rounds of answers, however many signals come.
    func refresh(then completion: @escaping () -> Void = {}) {
        guard !refreshing else {
            refreshAgain = true
            waitingForNextRefresh.append(completion)
            return
        }
        waitingForRefresh.append(completion)
        startRefresh()
    }

    private func startRefresh() {
        refreshing = true
        refreshGeneration += 1
        let generation = refreshGeneration
        queryServer { [weak self] server in
            guard let self else { return }
            guard let server else { return finishRefresh(generation, server: nil, doNotDisturb: .unknown) }
            queryDoNotDisturb(of: server) { [weak self] state in
                self?.finishRefresh(generation, server: server, doNotDisturb: state)
            }
        }
    }

    private func finishRefresh(_ generation: Int, server: Server?, doNotDisturb: DoNotDisturb) {
        // The server left while this refresh was out: its answers are of a server gone.
        guard generation > appliedGeneration else { return }
        appliedGeneration = generation
        refreshing = false
        self.server = server
        self.doNotDisturb = doNotDisturb
        if server == nil { retryWhileUnanswered() } else { retryDelay = 1 }
        reportIfChanged()
        let completions = waitingForRefresh
        waitingForRefresh = waitingForNextRefresh
        waitingForNextRefresh = []
        if refreshAgain {
            refreshAgain = false
            startRefresh()
        }
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
        // What is out is of the server gone: its answers are not applied, and its completions
        // run now, with no server.
        refreshGeneration += 1
        appliedGeneration = refreshGeneration
        refreshing = false
        refreshAgain = false
        let completions = waitingForRefresh + waitingForNextRefresh
        waitingForRefresh = []
        waitingForNextRefresh = []
        defer { for completion in completions { completion() } }
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
        guard let connection else { return completion(nil) }
        FreedesktopNotifications.identity(on: connection, faults: faults, timeoutMilliseconds: Self.timeoutMilliseconds) { identity in
            completion(identity.map(Server.init))
        }
    }

    /// Asks `server` whether its do-not-disturb is on, the way its family keeps it; what that
    /// means for alarms is the profile's rule.
    private func queryDoNotDisturb(of server: Server, _ completion: @escaping (DoNotDisturb) -> Void) {
        guard let rule = server.profile.doNotDisturb else { return completion(.unknown) }
        let state: (Bool?) -> DoNotDisturb = { on in on.map { $0 ? .on(hidesAlerts: rule.hidesAlerts, how: rule.name) : .off } ?? .unknown }
        guard let connection else { return completion(.unknown) }
        switch rule.source {
        case .serverProperty(let interface, let name):
            BusProperties.bool(name, of: interface, at: FreedesktopNotifications.path, of: FreedesktopNotifications.busName, on: connection,
                               neighbour: "The notification server", faults: faults, timeoutMilliseconds: Self.timeoutMilliseconds) { completion(state($0)) }
        case .setting(let schema, let key, let onWhen):
            completion(state(setting(schema, key).map { $0 == onWhen }))
        case .makoMode(let mode):
            Mako.hasMode(mode, on: connection, faults: faults, timeoutMilliseconds: Self.timeoutMilliseconds) { completion(state($0)) }
        case .xfconf(let channel, let property):
            Xfconf.isOn(property, in: channel, on: connection, faults: faults, timeoutMilliseconds: Self.timeoutMilliseconds) { completion(state($0)) }
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
}
