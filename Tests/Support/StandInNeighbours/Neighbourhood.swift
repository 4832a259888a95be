import CGLib
import Foundation
import GLibSupport

/// Every neighbour the agent talks to, as stand-ins: what each owns, answers and says.
///
/// Session bus: three MPRIS players, the notification server (only with `--notifications`:
/// it waits in the queue behind a real server), xfconf, the screensaver
/// (org.freedesktop.ScreenSaver), Plasma's locker (org.kde.screensaver), PowerDevil, the
/// StatusNotifierWatcher (and Tocsin's GNOME Shell panel name), KDE Connect, GSConnect; a
/// connection owning nothing sends what any program can (PropertiesChanged on the notification
/// server's paths, signals to the agent alone that only an owner may send). System bus: logind
/// and timedated.
final class Neighbourhood {
    let log: ExchangeLog
    let seed: UInt64
    let sessionAddress: String
    let systemAddress: String?
    private(set) var neighbours: [Neighbour] = []
    private var sources: [SignalSource] = []

    /// Notification ids handed out, newest last (the signals name them).
    private var notificationIDs: [UInt32] = []
    private var nextNotificationID: UInt32 = 1
    /// What the notification stand-in says it is, chosen at each connection.
    private var persona = Persona.all[0]
    private var personaDice: Dice
    private var cookie: UInt32 = 1
    /// Each player's PlaybackStatus.
    private var playerStatus: [String: String] = [:]
    /// The agent's unique name on the session bus, while it is there.
    var agentName: String?

    init(log: ExchangeLog, seed: UInt64, sessionAddress: String, systemAddress: String?) {
        self.log = log
        self.seed = seed
        self.sessionAddress = sessionAddress
        self.systemAddress = systemAddress
        personaDice = Dice(seed: seed, label: "persona")
    }

    func neighbour(_ label: String) -> Neighbour? { neighbours.first { $0.label == label } }

    private func add(_ label: String, _ names: [String], bus: String = "session", flags: GBusNameOwnerFlags = G_BUS_NAME_OWNER_FLAGS_NONE,
                     answer: @escaping (IncomingCall) -> Reply?) -> Neighbour {
        let address = bus == "session" ? sessionAddress : systemAddress!
        let neighbour = Neighbour(label, bus: bus, address: address, names: names, flags: flags, log: log, seed: seed)
        neighbour.answer = answer
        neighbours.append(neighbour)
        return neighbour
    }

    /// Makes every neighbour and connects it.
    func start() {
        makePlayers()
        if Configuration.shared.notifications { makeNotificationServer() }
        makeDesktop()
        makePhones()
        if systemAddress != nil { makeSystem() }
        makeNoise()
        for neighbour in neighbours { neighbour.connect() }
        let total = sources.reduce(0) { $0 + $1.weight }
        for source in sources {
            source.meanInterval = Double(total) / Double(source.weight) / Configuration.shared.signalsPerSecond
            source.schedule()
        }
    }

    // MARK: Media players

    private static let playerInterface = "org.mpris.MediaPlayer2.Player"

    private func makePlayers() {
        for index in 1...3 {
            let label = "player\(index)"
            // A browser owns one name per instance: the second player has two.
            let names = ["org.mpris.MediaPlayer2.standin\(index)"] + (index == 2 ? ["org.mpris.MediaPlayer2.standin2.instance4242"] : [])
            for name in names { playerStatus[name] = index == 3 ? "Stopped" : "Playing" }
            let player = add(label, names) { [unowned self] call in
                let name = call.destination
                switch (call.interface, call.member) {
                case ("org.freedesktop.DBus.Properties", "Get"):
                    switch call.string(1) {
                    case "PlaybackStatus": return .value(Variant.tuple([g_variant_new_variant(g_variant_new_string(playerStatus[name] ?? "Stopped"))]))
                    case "Identity": return .value(Variant.tuple([g_variant_new_variant(g_variant_new_string("Stand-in \(label)"))]))
                    default: return .error("org.freedesktop.DBus.Error.InvalidArgs", "No such property")
                    }
                case ("org.freedesktop.DBus.Properties", "GetAll"):
                    return .value(Variant.tuple([Variant.make(variants: ["PlaybackStatus": g_variant_new_string(playerStatus[name] ?? "Stopped")])]))
                case (Self.playerInterface, "Pause"):
                    if playerStatus[name] == "Playing" { playerStatus[name] = "Paused" }
                    return .void
                case (Self.playerInterface, "Play"):
                    playerStatus[name] = "Playing"
                    return .void
                case (Self.playerInterface, "PlayPause"):
                    playerStatus[name] = playerStatus[name] == "Playing" ? "Paused" : "Playing"
                    return .void
                case ("org.freedesktop.DBus.Peer", "Ping"):
                    return .void
                default:
                    return nil
                }
            }
            player.oddAnswer = { (call: IncomingCall, dice: inout Dice) -> OpaquePointer? in
                guard call.member == "Get" else { return nil }
                return Variant.tuple([g_variant_new_variant(g_variant_new_string(dice.pick(["PLAYING", "playing", "Playing ", "", "Paused\n", "Stopped?", Oddities.text(&dice)])))])
            }
            source("\(label) PropertiesChanged", weight: 1, on: player) { dice in
                let body = dice.chance(0.3)
                    ? Variant.tuple([g_variant_new_string(Self.playerInterface), Variant.make(variants: ["PlaybackStatus": g_variant_new_string("Playing")]), Variant.make(strings: [])])
                    : Self.malformedPropertiesChanged(&dice, interface: Self.playerInterface)
                return ("/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Properties", "PropertiesChanged", body, nil)
            }
        }
    }

    // MARK: The notification server

    /// What the notification stand-in claims to be: each steers the agent into another profile.
    struct Persona {
        let name: String, vendor: String, version: String
        let capabilities: [String]
        static let all = [
            Persona(name: "dunst", vendor: "knopwob", version: "1.9.0 (2022-06-27)", capabilities: ["actions", "body", "body-hyperlinks", "body-markup", "icon-static", "persistence"]),
            Persona(name: "Xfce Notify Daemon", vendor: "Xfce", version: "0.7.3", capabilities: ["actions", "body", "body-hyperlinks", "body-markup", "icon-static", "persistence"]),
            Persona(name: "Plasma", vendor: "KDE", version: "5.27.5", capabilities: ["actions", "body", "body-hyperlinks", "body-markup", "icon-static", "inhibitions", "persistence", "x-kde-display-appname", "x-kde-origin-name"]),
            Persona(name: "mako", vendor: "emersion", version: "1.7.1", capabilities: ["actions", "body", "body-markup", "icon-static"]),
            Persona(name: "gnome-shell", vendor: "GNOME", version: "48.0", capabilities: ["actions", "body", "body-markup", "icon-static", "persistence", "sound"]),
            Persona(name: "gnome-shell", vendor: "GNOME", version: "43.9", capabilities: ["actions", "body", "body-markup", "icon-static", "persistence", "sound"]),
            Persona(name: "stand-in", vendor: "tocsin tests", version: "0", capabilities: ["body"]),
        ]
    }

    private func makeNotificationServer() {
        let flags = GBusNameOwnerFlags(G_BUS_NAME_OWNER_FLAGS_REPLACE.rawValue | G_BUS_NAME_OWNER_FLAGS_ALLOW_REPLACEMENT.rawValue)
        let server = add("notifications", ["org.freedesktop.Notifications"], flags: flags) { [unowned self] call in
            switch (call.path, call.interface, call.member) {
            case ("/org/freedesktop/Notifications", "org.freedesktop.Notifications", "GetServerInformation"):
                return .value(Variant.tuple([persona.name, persona.vendor, persona.version, "1.2"].map { (text: String) -> OpaquePointer in g_variant_new_string(text) }))
            case ("/org/freedesktop/Notifications", "org.freedesktop.Notifications", "GetCapabilities"):
                return .value(Variant.tuple([Variant.make(strings: persona.capabilities)]))
            case ("/org/freedesktop/Notifications", "org.freedesktop.Notifications", "Notify"):
                var id: UInt32 = 0
                if call.signature == "(susssasa{sv}i)" {
                    let replaces = g_variant_get_child_value(call.body, 1)!
                    id = g_variant_get_uint32(replaces)
                    g_variant_unref(replaces)
                }
                if id == 0 {
                    id = nextNotificationID
                    nextNotificationID += 1
                }
                remember(id)
                return .value(Variant.tuple([g_variant_new_uint32(id)]))
            case ("/org/freedesktop/Notifications", "org.freedesktop.Notifications", "CloseNotification"):
                if call.signature == "(u)" {
                    let child = g_variant_get_child_value(call.body, 0)!
                    let id = g_variant_get_uint32(child)
                    g_variant_unref(child)
                    // A real server says it closed it.
                    MainLoop.post { [weak self] in
                        guard let self, let server = neighbour("notifications") else { return }
                        if server.emit("/org/freedesktop/Notifications", "org.freedesktop.Notifications", "NotificationClosed",
                                       Variant.tuple([g_variant_new_uint32(id), g_variant_new_uint32(3)])) {
                            log.exchange("session", "notifications", "signal NotificationClosed", "NotificationClosed(\(id), 3) after CloseNotification (correct)")
                        }
                    }
                }
                return .void
            case ("/org/freedesktop/Notifications", "org.freedesktop.DBus.Properties", "Get"):
                switch (call.string(0), call.string(1)) {
                case ("org.dunstproject.cmd0", "paused"), ("org.freedesktop.Notifications", "Inhibited"):
                    return .value(Variant.tuple([g_variant_new_variant(g_variant_new_boolean(0))]))
                default:
                    return .error("org.freedesktop.DBus.Error.UnknownProperty", "No such property")
                }
            case ("/fr/emersion/Mako", "fr.emersion.Mako", "ListModes"):
                return .value(Variant.tuple([Variant.make(strings: ["default"])]))
            case (_, "org.freedesktop.DBus.Peer", "Ping"):
                return .void
            default:
                return .error("org.freedesktop.DBus.Error.UnknownObject", "No such object or interface")
            }
        }
        server.oddAnswer = { [unowned self] (call: IncomingCall, dice: inout Dice) -> OpaquePointer? in
            switch call.member {
            case "Notify":
                let id = dice.pick([0, UInt32.max, notificationIDs.last ?? 1, 1])
                return Variant.tuple([g_variant_new_uint32(id)])
            case "GetServerInformation":
                let name = dice.pick(["gnome-shell", "GNOME-SHELL", "Plasma", "mako", "dunst", "Xfce Notify Daemon", Oddities.text(&dice)])
                let version = dice.pick(["99999999999999999999999", "48", "", "٤٨.0", "-1", "48.0.0.0.0", Oddities.text(&dice)])
                return Variant.tuple([name, Oddities.text(&dice), version, Oddities.text(&dice)].map { (text: String) -> OpaquePointer in g_variant_new_string(text) })
            case "GetCapabilities":
                return Variant.tuple([Variant.make(strings: dice.pick([[], ["actions"], ["actions", "actions", "body-markup"], (0..<Oddities.hugeCount).map { "cap\($0)" },
                                                                        [Oddities.text(&dice)]]))])
            case "ListModes":
                return Variant.tuple([Variant.make(strings: dice.pick([[], ["do-not-disturb"], ["default", "do-not-disturb", "do-not-disturb"], [Oddities.text(&dice)]]))])
            default:
                return nil
            }
        }
        server.onConnected = { [unowned self] in persona = personaDice.pick(Persona.all) }
        server.onName = { [unowned self] (_: String, owned: Bool) in
            if owned { log.note("session", "notifications", "claims to be \(persona.name) \(persona.version) (\(persona.vendor))") }
        }
        source("notifications signals", weight: 5, on: server, whenOwning: true) { [unowned self] dice in
            let id = notificationIDs.isEmpty ? 1 : dice.pick(notificationIDs)
            let odd = dice.pick([id, 0, UInt32.max, id &+ 1])
            // Action keys that press nothing: an alarm's keys ("stop", "cancel"…) are the user's.
            let key = dice.pick(["", "Stop", "STOP", "stop ", "snooze2", "default ", "inline-reply", Oddities.text(&dice)])
            let (member, body): (String, OpaquePointer) = switch dice.below(10) {
            case 0: ("NotificationClosed", Variant.tuple([g_variant_new_uint32(id), g_variant_new_uint32(dice.pick([1, 2, 3, 4, 0, 99]))]))
            case 1: ("NotificationClosed", Variant.tuple([g_variant_new_uint32(odd)]))
            case 2: ("NotificationClosed", Variant.tuple([g_variant_new_string("\(id)"), g_variant_new_uint32(2)]))
            case 3: ("ActionInvoked", Variant.tuple([g_variant_new_uint32(id), g_variant_new_string(key)]))
            case 4: ("ActionInvoked", Variant.tuple([g_variant_new_uint32(id)]))
            case 5: ("ActionInvoked", Variant.tuple([g_variant_new_uint32(odd), g_variant_new_uint32(1)]))
            case 6: ("ActivationToken", Variant.tuple([g_variant_new_uint32(id), g_variant_new_string(dice.chance(0.5) ? Oddities.hugeText(&dice) : key)]))
            case 7: ("ActivationToken", Variant.tuple([]))
            case 8: (dice.pick(["NotificationClosed", "ActionInvoked", "ActivationToken"]), Answers.wrongType(than: "", &dice))
            default: ("NotificationClosed", Variant.tuple([g_variant_new_uint32(id), g_variant_new_uint32(2), Oddities.value(&dice)]))
            }
            return ("/org/freedesktop/Notifications", "org.freedesktop.Notifications", member, body, nil)
        }
    }

    private func remember(_ id: UInt32) {
        notificationIDs.removeAll { $0 == id }
        notificationIDs.append(id)
        if notificationIDs.count > 40 { notificationIDs.removeFirst() }
    }

    // MARK: The desktop

    private func makeDesktop() {
        let xfconf = add("xfconf", ["org.xfce.Xfconf"]) { call in
            switch (call.path, call.interface, call.member) {
            case ("/org/xfce/Xfconf", "org.xfce.Xfconf", "GetProperty"):
                guard call.string(0) == "xfce4-notifyd", call.string(1) == "/do-not-disturb" else {
                    return .error("org.xfce.Xfconf.Error.PropertyNotFound", "Property does not exist")
                }
                return .value(Variant.tuple([g_variant_new_variant(g_variant_new_boolean(0))]))
            default:
                return nil
            }
        }
        source("xfconf PropertyChanged", weight: 3, on: xfconf) { dice in
            // The agent follows only those of the channel xfce4-notifyd (arg0).
            let channel: OpaquePointer = g_variant_new_string("xfce4-notifyd")
            let body: OpaquePointer = switch dice.below(6) {
            case 0: Variant.tuple([channel, g_variant_new_string("/do-not-disturb"), g_variant_new_variant(g_variant_new_boolean(0))])
            case 1: Variant.tuple([channel])
            case 2: Variant.tuple([channel, g_variant_new_string("/do-not-disturb")])
            case 3: Variant.tuple([channel, g_variant_new_string(Oddities.hugeText(&dice)), g_variant_new_variant(Oddities.value(&dice))])
            case 4: Variant.tuple([channel, g_variant_new_uint32(1), Oddities.nestedVariant(&dice)])
            default: Variant.tuple([channel, g_variant_new_string("/do-not-disturb"), g_variant_new_variant(Oddities.basic(&dice, excluding: "b"))])
            }
            return ("/org/xfce/Xfconf", "org.xfce.Xfconf", "PropertyChanged", body, nil)
        }

        let screenSaver = add("screensaver", ["org.freedesktop.ScreenSaver"]) { [unowned self] call in
            switch (call.interface, call.member) {
            case ("org.freedesktop.ScreenSaver", "SimulateUserActivity"), ("org.freedesktop.ScreenSaver", "UnInhibit"):
                return .void
            case ("org.freedesktop.ScreenSaver", "Inhibit"):
                cookie &+= 1
                return .value(Variant.tuple([g_variant_new_uint32(cookie)]))
            case ("org.freedesktop.ScreenSaver", "GetActive"):
                return .value(Variant.tuple([g_variant_new_boolean(0)]))
            default:
                return nil
            }
        }
        screenSaver.oddAnswer = { (call: IncomingCall, dice: inout Dice) -> OpaquePointer? in
            call.member == "Inhibit" ? Variant.tuple([g_variant_new_uint32(dice.pick([0, UInt32.max]))]) : nil
        }

        let locker = add("kscreenlocker", ["org.kde.screensaver"]) { call in
            switch (call.interface, call.member) {
            case ("org.freedesktop.ScreenSaver", "GetActive"): return .value(Variant.tuple([g_variant_new_boolean(0)]))
            case ("org.freedesktop.ScreenSaver", "SimulateUserActivity"): return .void
            default: return nil
            }
        }
        source("kscreenlocker ActiveChanged", weight: 2, on: locker) { dice in
            let body: OpaquePointer = switch dice.below(7) {
            // Mostly "not locked": a locked screen keeps Tocsin's player on the bus between rings.
            case 0, 1: Variant.tuple([g_variant_new_boolean(dice.chance(0.2) ? 1 : 0)])
            case 2: Variant.tuple([])
            case 3: Variant.tuple([g_variant_new_string(dice.chance(0.5) ? "true" : Oddities.hugeText(&dice))])
            case 4: Variant.tuple([g_variant_new_boolean(1), g_variant_new_boolean(0)])
            case 5: Variant.tuple([g_variant_new_variant(g_variant_new_boolean(1))])
            default: Answers.wrongType(than: "(b)", &dice)
            }
            return (dice.pick(["/ScreenSaver", "/org/freedesktop/ScreenSaver"]), "org.freedesktop.ScreenSaver", "ActiveChanged", body, nil)
        }
        source("kscreenlocker AboutToLock", weight: 1, on: locker) { dice in
            let body: OpaquePointer = switch dice.below(4) {
            case 0: Variant.tuple([])
            case 1: Variant.tuple([g_variant_new_string(Oddities.hugeText(&dice))])
            case 2: Variant.tuple([g_variant_new_boolean(1)])
            default: Variant.tuple([Oddities.hugeArray(&dice)])
            }
            return ("/ScreenSaver", "org.kde.screensaver", "AboutToLock", body, nil)
        }

        _ = add("powerdevil", ["org.kde.Solid.PowerManagement"]) { call in
            call.member == "wakeup" ? .void : nil
        }

        let watcher = add("statusnotifierwatcher", ["org.kde.StatusNotifierWatcher", "io.github.tocsin.Panel"]) { call in
            switch (call.interface, call.member) {
            case ("org.kde.StatusNotifierWatcher", "RegisterStatusNotifierItem"), ("org.kde.StatusNotifierWatcher", "RegisterStatusNotifierHost"):
                return .void
            case ("org.freedesktop.DBus.Properties", "Get"):
                return .value(Variant.tuple([g_variant_new_variant(g_variant_new_boolean(1))]))
            default:
                return nil
            }
        }
        source("statusnotifierwatcher signals", weight: 1, on: watcher) { dice in
            let member = dice.pick(["StatusNotifierItemRegistered", "StatusNotifierItemUnregistered", "StatusNotifierHostRegistered", "NameOwnerChanged"])
            let body = dice.chance(0.4) ? Variant.tuple([g_variant_new_string(":1.1")]) : Answers.wrongType(than: "(s)", &dice)
            return ("/StatusNotifierWatcher", "org.kde.StatusNotifierWatcher", member, body, nil)
        }
    }

    // MARK: Phones

    private func makePhones() {
        let kdeConnect = add("kdeconnect", ["org.kde.kdeconnect"]) { call in
            switch (call.interface, call.member) {
            case ("org.kde.kdeconnect.daemon", "devices"): return .value(Variant.tuple([Variant.make(strings: ["standinphone"])]))
            case ("org.kde.kdeconnect.device.findmyphone", "ring"), ("org.kde.kdeconnect.device.ping", "sendPing"): return .void
            default: return nil
            }
        }
        kdeConnect.oddAnswer = { (call: IncomingCall, dice: inout Dice) -> OpaquePointer? in
            guard call.member == "devices" else { return nil }
            // Ids that are not an object path's element: the agent builds paths from them.
            return Variant.tuple([Variant.make(strings: dice.pick([[], [""], ["a b"], ["../x"], ["phone/findmyphone"], ["ü"], [String(repeating: "p", count: 300)],
                                                                  ["standinphone", "standinphone"], (0..<200).map { "phone\($0)" }]))])
        }

        let gsconnect = add("gsconnect", ["org.gnome.Shell.Extensions.GSConnect"]) { call in
            switch (call.interface, call.member) {
            case ("org.freedesktop.DBus.ObjectManager", "GetManagedObjects"):
                return .value(Variant.tuple([Self.managedObjects(["/org/gnome/Shell/Extensions/GSConnect/Device/standin": [
                    "Connected": g_variant_new_boolean(1), "Paired": g_variant_new_boolean(1), "Id": g_variant_new_string("standin"), "Name": g_variant_new_string("Stand-in phone"),
                ]])]))
            case ("org.gtk.Actions", "Activate"):
                return .void
            default:
                return nil
            }
        }
        gsconnect.oddAnswer = { (call: IncomingCall, dice: inout Dice) -> OpaquePointer? in
            guard call.member == "GetManagedObjects" else { return nil }
            let device = "/org/gnome/Shell/Extensions/GSConnect/Device/" + dice.pick(["x", "_", "a/b/c", String(repeating: "d", count: 200)])
            return Variant.tuple([Self.managedObjects([device: [
                "Connected": dice.chance(0.5) ? g_variant_new_string("yes") : g_variant_new_boolean(1),
                "Paired": g_variant_new_variant(g_variant_new_boolean(1)),
                "Id": g_variant_new_string(dice.pick(["", "a b", "../x", Oddities.text(&dice)])),
                "Name": g_variant_new_string(Oddities.hugeText(&dice)),
            ], "/": [:]])])
        }
    }

    /// `a{oa{sa{sv}}}` with one interface, GSConnect's device interface, per object.
    private static func managedObjects(_ objects: [String: [String: OpaquePointer]]) -> OpaquePointer {
        let entries: [OpaquePointer?] = objects.keys.sorted().map { path in
            let interface: [OpaquePointer?] = [g_variant_new_dict_entry(g_variant_new_string("org.gnome.Shell.Extensions.GSConnect.Device"), Variant.make(variants: objects[path]!))]
            let interfaces = interface.withUnsafeBufferPointer { g_variant_new_array(Variant.type("{sa{sv}}"), $0.baseAddress, 1) }
            return g_variant_new_dict_entry(g_variant_new_object_path(path), interfaces)
        }
        return entries.withUnsafeBufferPointer { g_variant_new_array(Variant.type("{oa{sa{sv}}}"), $0.baseAddress, gsize($0.count)) }
    }

    // MARK: The system bus

    private func makeSystem() {
        let logind = add("logind", ["org.freedesktop.login1"], bus: "system") { _ in nil }
        source("logind PrepareForSleep", weight: 3, on: logind) { dice in
            let body: OpaquePointer = switch dice.below(8) {
            case 0, 1: Variant.tuple([g_variant_new_boolean(dice.chance(0.5) ? 1 : 0)])
            case 2: Variant.tuple([])
            case 3: Variant.tuple([g_variant_new_string(dice.chance(0.5) ? "true" : Oddities.hugeText(&dice))])
            case 4: Variant.tuple([g_variant_new_boolean(1), g_variant_new_boolean(1)])
            case 5: Variant.tuple([g_variant_new_variant(g_variant_new_boolean(0))])
            case 6: Variant.tuple([Oddities.hugeArray(&dice)])
            default: Answers.wrongType(than: "(b)", &dice)
            }
            return ("/org/freedesktop/login1", "org.freedesktop.login1.Manager", "PrepareForSleep", body, nil)
        }
        let timedated = add("timedated", ["org.freedesktop.timedate1"], bus: "system") { _ in nil }
        source("timedated PropertiesChanged", weight: 3, on: timedated) { dice in
            // The agent follows only those of the interface org.freedesktop.timedate1 (arg0).
            let interface: OpaquePointer = g_variant_new_string("org.freedesktop.timedate1")
            let body: OpaquePointer = switch dice.below(8) {
            case 0: Variant.tuple([interface, Variant.make(variants: ["Timezone": g_variant_new_string(dice.pick(["Europe/Paris", "UTC", "", "../../etc/passwd", Oddities.text(&dice)]))]), Variant.make(strings: [])])
            case 1: Variant.tuple([interface, Variant.make(variants: [:]), Variant.make(strings: ["Timezone"])])
            case 2: Variant.tuple([interface])
            case 3: Variant.tuple([interface, Variant.make(variants: ["Timezone": Oddities.basic(&dice, excluding: "s")])])
            case 4: Variant.tuple([interface, Oddities.dictionary(&dice), Oddities.hugeArray(&dice)])
            case 5: Variant.tuple([interface, Variant.make(variants: ["Timezone": Oddities.nestedVariant(&dice)]), Variant.make(strings: [])])
            case 6: Variant.tuple([interface, Variant.make(variants: ["Timezone": g_variant_new_string(Oddities.hugeText(&dice))]), Variant.make(strings: [Oddities.text(&dice)])])
            default: Variant.tuple([interface, Variant.make(strings: ["Timezone"]), Variant.make(variants: [:])])
            }
            return ("/org/freedesktop/timedate1", "org.freedesktop.DBus.Properties", "PropertiesChanged", body, nil)
        }
    }

    // MARK: Anyone

    private func makeNoise() {
        let noise = add("noise", []) { _ in nil }
        for path in ["/org/freedesktop/Notifications", "/fr/emersion/Mako"] {
            source("PropertiesChanged \(path)", weight: path.hasPrefix("/org") ? 3 : 1, on: noise) { dice in
                let body = dice.chance(0.2)
                    ? Variant.tuple([g_variant_new_string(path.hasPrefix("/org") ? "org.dunstproject.cmd0" : "fr.emersion.Mako"),
                                     Variant.make(variants: [path.hasPrefix("/org") ? "paused" : "modes": g_variant_new_boolean(0)]), Variant.make(strings: [])])
                    : Self.malformedPropertiesChanged(&dice, interface: "org.freedesktop.Notifications")
                return (path, "org.freedesktop.DBus.Properties", "PropertiesChanged", body, nil)
            }
        }
        // What only the owner of a name, or the bus itself, may say, sent to the agent alone by
        // a connection that owns nothing: the bus and GDBus must keep it from the agent.
        source("impostor", weight: 1, on: noise) { [unowned self] dice in
            guard let agent = agentName else { return nil }
            let (path, interface, member): (String, String, String) = dice.pick([
                ("/org/freedesktop/DBus", "org.freedesktop.DBus", "NameOwnerChanged"),
                ("/ScreenSaver", "org.freedesktop.ScreenSaver", "ActiveChanged"),
                ("/ScreenSaver", "org.kde.screensaver", "AboutToLock"),
                ("/org/freedesktop/Notifications", "org.freedesktop.Notifications", "ActionInvoked"),
                ("/org/freedesktop/Notifications", "org.freedesktop.Notifications", "NotificationClosed"),
                ("/org/xfce/Xfconf", "org.xfce.Xfconf", "PropertyChanged"),
            ])
            let body = dice.chance(0.5) ? Variant.tuple([]) : Variant.tuple([g_variant_new_string(dice.pick(["xfce4-notifyd", ":1.1", Oddities.text(&dice)]))])
            return (path, interface, member, body, agent)
        }
    }

    /// A PropertiesChanged body that is not `(sa{sv}as)`, or is with odd content.
    static func malformedPropertiesChanged(_ dice: inout Dice, interface: String) -> OpaquePointer {
        switch dice.below(8) {
        case 0: return Variant.tuple([])
        case 1: return Variant.tuple([g_variant_new_string(interface)])
        case 2: return Variant.tuple([g_variant_new_string(interface), Oddities.dictionary(&dice)])
        case 3: return Variant.tuple([g_variant_new_string(interface), Oddities.dictionary(&dice), Oddities.hugeArray(&dice)])
        case 4: return Variant.tuple([g_variant_new_string(Oddities.hugeText(&dice)), Variant.make(variants: [:]), Variant.make(strings: [])])
        case 5: return Variant.tuple([g_variant_new_uint32(1), Variant.make(strings: []), Variant.make(variants: [:])])
        case 6: return Variant.tuple([g_variant_new_string(interface), Variant.make(variants: ["paused": Oddities.nestedVariant(&dice)]), Variant.make(strings: [])])
        default: return Answers.wrongType(than: "(sa{sv}as)", &dice)
        }
    }

    // MARK: Signal sources

    private func source(_ label: String, weight: Int, on neighbour: Neighbour, whenOwning: Bool = false,
                        make: @escaping (inout Dice) -> (String, String, String, OpaquePointer, String?)?) {
        sources.append(SignalSource(label: label, weight: weight, neighbour: neighbour, whenOwning: whenOwning, seed: seed, log: log, make: make))
    }
}

/// A neighbour's signals, sent at random moments (on average `meanInterval` apart).
final class SignalSource {
    let label: String
    let weight: Int
    weak var neighbour: Neighbour?
    let whenOwning: Bool
    let log: ExchangeLog
    var meanInterval = 1.0
    private var dice: Dice
    private var timing: Dice
    private let make: (inout Dice) -> (String, String, String, OpaquePointer, String?)?

    init(label: String, weight: Int, neighbour: Neighbour, whenOwning: Bool, seed: UInt64, log: ExchangeLog,
         make: @escaping (inout Dice) -> (String, String, String, OpaquePointer, String?)?) {
        self.label = label
        self.weight = weight
        self.neighbour = neighbour
        self.whenOwning = whenOwning
        self.log = log
        self.make = make
        dice = Dice(seed: seed, label: label)
        timing = Dice(seed: seed, label: label + " timing")
    }

    func schedule() {
        MainLoop.after(seconds: timing.interval(mean: meanInterval)) { [weak self] in
            guard let self else { return }
            fire()
            schedule()
        }
    }

    private func fire() {
        guard !Configuration.shared.quiet, let neighbour, !Configuration.shared.spared.contains(neighbour.label), neighbour.isConnected, !whenOwning || !neighbour.ownedNames.isEmpty,
              let (path, interface, member, body, destination) = make(&dice) else { return }
        let sunk = g_variant_ref_sink(body)!
        defer { g_variant_unref(sunk) }
        let description = "\(member)\(Answers.describe(sunk).drop { $0 != " " }) on \(interface) at \(path)" + (destination.map { " to \($0)" } ?? "")
        if neighbour.emit(path, interface, member, g_variant_ref(sunk), to: destination) {
            log.exchange(neighbour.bus, neighbour.label, "signal \(member)", description)
        }
    }
}
