import CGLib
import Foundation
import GLibSupport

/// The programs that call the agent's own objects: a panel reading the tray item and its menu
/// (/StatusNotifierItem, /MenuBar), a lock screen (io.github.tocsin.LockScreen1), media
/// controls (Tocsin's MPRIS player, org.mpris.MediaPlayer2.tocsin), each with odd arguments:
/// huge depths and parents, 10,000 ids or events, odd event names, wrong signatures, and
/// connections that close with their call pending.
///
/// What a user's click would change — a new timer from the menu, Pause or Cancel of a
/// countdown, Snooze — is never sent: the test's alarms must ring when it set them. Only Stop,
/// which ends a ring, is pressed (the player's controls, the tray item, the lock screen's
/// button), and only once the stand-in has seen the ring under way for 0.3 s, so that the ring
/// was heard, on time or not, before it ends.
///
/// Every call waits at most 5 s; one the agent never answers is logged as "caller timeout".
final class Caller {
    private let neighbourhood: Neighbourhood
    private let neighbour: Neighbour
    private let log: ExchangeLog
    private let seed: UInt64
    private var dice: Dice
    private var timing: Dice
    let meanInterval: Double
    /// When the stand-in first saw Tocsin's player say "Playing", while it does.
    private var ringingSince: Date?
    /// The lock screen's alarms as last read: id → state.
    private var lockScreenAlarms: [(id: String, state: String)] = []
    private var playerPresent = false

    static let agentName = "io.github.tocsin.Agent"
    static let playerName = "org.mpris.MediaPlayer2.tocsin"

    init(neighbourhood: Neighbourhood, neighbour: Neighbour, log: ExchangeLog, seed: UInt64, meanInterval: Double = 0.12) {
        self.neighbourhood = neighbourhood
        self.neighbour = neighbour
        self.log = log
        self.seed = seed
        self.meanInterval = meanInterval
        dice = Dice(seed: seed, label: "caller")
        timing = Dice(seed: seed, label: "caller timing")
    }

    func start() {
        schedule()
    }

    /// Tocsin's player came or went.
    func playerChanged(present: Bool) {
        playerPresent = present
        if !present { ringingSince = nil }
    }

    private func schedule() {
        MainLoop.after(seconds: timing.interval(mean: meanInterval)) { [weak self] in
            guard let self else { return }
            if !Configuration.shared.quiet, !Configuration.shared.spared.contains("caller"), neighbour.isConnected, neighbourhood.agentName != nil { callOnce() }
            schedule()
        }
    }

    private var mayStop: Bool { ringingSince.map { Date().timeIntervalSince($0) >= 0.3 } ?? false }

    private func callOnce() {
        switch dice.below(20) {
        case 0, 1: getLayout()
        case 2: groupProperties()
        case 3: menuProperty()
        case 4, 5: event()
        case 6: eventGroup()
        case 7: aboutToShow()
        case 8: wrongSignature()
        case 9, 10: itemCall()
        case 11: properties()
        case 12, 13: player()
        case 14, 15: lockScreen()
        case 16: introspection()
        case 17: closingMidCall()
        default: readState()
        }
    }

    // MARK: The menu

    private func odd32() -> Int32 { dice.pick([0, 0, 1, 2, 3, 5, 8, -1, -2, 1000, Int32.max, Int32.min]) }

    private func propertyNames() -> OpaquePointer {
        Variant.make(strings: dice.pick([[], ["label"], ["label", "enabled", "type", "children-display"], (0..<Oddities.hugeCount).map { _ in "label" },
                                         [Oddities.hugeText(&dice)], [Oddities.text(&dice)]]))
    }

    private func getLayout() {
        call(Self.agentName, "/MenuBar", "com.canonical.dbusmenu", "GetLayout",
             Variant.tuple([g_variant_new_int32(odd32()), g_variant_new_int32(dice.pick([-1, 0, 1, 2, 100, -2, Int32.max, Int32.min])), propertyNames()]))
    }

    private func groupProperties() {
        let ids: [Int32] = dice.pick([[0, 1, 2, 3], Array(0..<Int32(Oddities.hugeCount)), [-1, Int32.min, Int32.max], (0..<Oddities.hugeCount).map { _ in 1 }])
        call(Self.agentName, "/MenuBar", "com.canonical.dbusmenu", "GetGroupProperties", Variant.tuple([Variant.make(int32s: ids), propertyNames()]))
    }

    private func menuProperty() {
        call(Self.agentName, "/MenuBar", "com.canonical.dbusmenu", "GetProperty",
             Variant.tuple([g_variant_new_int32(odd32()), g_variant_new_string(dice.pick(["label", "enabled", "type", "", "children-display", Oddities.hugeText(&dice)]))]))
    }

    /// An event that clicks nothing a user's click would: "clicked" only on ids no menu has.
    /// `small`: no 100 kB name (for a group of 10,000).
    private func eventArguments(small: Bool = false) -> [OpaquePointer] {
        var id = odd32()
        let name = dice.pick(["hovered", "opened", "closed", "", "Clicked", "clicked ", Oddities.text(&dice), small ? "hovered" : Oddities.hugeText(&dice), "clicked"])
        if name == "clicked" { id = dice.pick([1_000_000_000, -7, Int32.max, Int32.min]) }
        return [g_variant_new_int32(id), g_variant_new_string(name), g_variant_new_variant(dice.chance(0.2) ? Oddities.nestedVariant(&dice) : small ? Oddities.basic(&dice) : Oddities.value(&dice)),
                g_variant_new_uint32(dice.pick([0, 1, UInt32.max]))]
    }

    private func event() {
        call(Self.agentName, "/MenuBar", "com.canonical.dbusmenu", "Event", Variant.tuple(eventArguments()))
    }

    private func eventGroup() {
        let count = dice.pick([0, 1, 3, Oddities.hugeCount])
        let events: [OpaquePointer?] = (0..<count).map { _ in Variant.tuple(eventArguments(small: count > 3)) }
        let array = events.withUnsafeBufferPointer { g_variant_new_array(Variant.type("(isvu)"), $0.baseAddress, gsize($0.count)) }!
        call(Self.agentName, "/MenuBar", "com.canonical.dbusmenu", "EventGroup", Variant.tuple([array]))
    }

    private func aboutToShow() {
        if dice.chance(0.5) {
            call(Self.agentName, "/MenuBar", "com.canonical.dbusmenu", "AboutToShow", Variant.tuple([g_variant_new_int32(odd32())]))
        } else {
            call(Self.agentName, "/MenuBar", "com.canonical.dbusmenu", "AboutToShowGroup",
                 Variant.tuple([Variant.make(int32s: dice.chance(0.5) ? Array(0..<Int32(Oddities.hugeCount)) : [odd32()])]))
        }
    }

    /// A method of the agent's objects with the wrong arguments: GDBus answers InvalidArgs.
    private func wrongSignature() {
        let (path, interface, member) = dice.pick([
            ("/MenuBar", "com.canonical.dbusmenu", "GetLayout"), ("/MenuBar", "com.canonical.dbusmenu", "Event"),
            ("/MenuBar", "com.canonical.dbusmenu", "EventGroup"), ("/StatusNotifierItem", "org.kde.StatusNotifierItem", "Activate"),
            ("/io/github/tocsin/LockScreen", "io.github.tocsin.LockScreen1", "Press"),
        ])
        call(Self.agentName, path, interface, member, Answers.wrongType(than: "", &dice))
    }

    // MARK: The tray item

    private func itemCall() {
        let xy: [OpaquePointer] = [g_variant_new_int32(odd32()), g_variant_new_int32(odd32())]
        switch dice.below(4) {
        case 0 where mayStop: call(Self.agentName, "/StatusNotifierItem", "org.kde.StatusNotifierItem", "Activate", Variant.tuple(xy))
        case 1: call(Self.agentName, "/StatusNotifierItem", "org.kde.StatusNotifierItem", "ContextMenu", Variant.tuple(xy))
        case 2:
            call(Self.agentName, "/StatusNotifierItem", "org.kde.StatusNotifierItem", "Scroll",
                 Variant.tuple([g_variant_new_int32(odd32()), g_variant_new_string(dice.pick(["vertical", "horizontal", "", Oddities.hugeText(&dice)]))]))
        default: call(Self.agentName, "/StatusNotifierItem", "org.kde.StatusNotifierItem", "SecondaryActivate", Variant.tuple(xy))
        }
    }

    private func properties() {
        let (path, interface) = dice.pick([("/StatusNotifierItem", "org.kde.StatusNotifierItem"), ("/MenuBar", "com.canonical.dbusmenu"),
                                           ("/io/github/tocsin/LockScreen", "io.github.tocsin.LockScreen1"), ("/StatusNotifierItem", "org.kde.Nothing")])
        switch dice.below(3) {
        case 0:
            let name = dice.pick(["ToolTip", "Menu", "Status", "IconName", "ItemIsMenu", "Version", "Alarms", "", "NoSuch", Oddities.hugeText(&dice)])
            call(Self.agentName, path, "org.freedesktop.DBus.Properties", "Get", Variant.tuple([g_variant_new_string(interface), g_variant_new_string(name)]))
        case 1:
            call(Self.agentName, path, "org.freedesktop.DBus.Properties", "GetAll", Variant.tuple([g_variant_new_string(interface)]))
        default:
            call(Self.agentName, path, "org.freedesktop.DBus.Properties", "Set",
                 Variant.tuple([g_variant_new_string(interface), g_variant_new_string(dice.pick(["Status", "Alarms", "Version"])), g_variant_new_variant(Oddities.value(&dice))]))
        }
    }

    // MARK: Tocsin's media player

    private func player() {
        guard playerPresent else { return readState() }
        let path = "/org/mpris/MediaPlayer2"
        let player = "org.mpris.MediaPlayer2.Player"
        switch dice.below(9) {
        case 0: call(Self.playerName, path, "org.mpris.MediaPlayer2", dice.pick(["Raise", "Quit"]), nil)
        // Not Next: it snoozes the alarm, which would ring again when the test does not expect it.
        case 1: call(Self.playerName, path, player, "Previous", nil)
        case 2: call(Self.playerName, path, player, "Seek", Variant.tuple([g_variant_new_int64(dice.pick([0, Int.min, Int.max, -1]))]))
        case 3: call(Self.playerName, path, player, "SetPosition", Variant.tuple([g_variant_new_object_path(dice.pick(["/", "/org/mpris/MediaPlayer2/TrackList/NoTrack"])), g_variant_new_int64(Int.max)]))
        case 4: call(Self.playerName, path, player, "OpenUri", Variant.tuple([g_variant_new_string(dice.pick(["file:///dev/zero", "", Oddities.hugeText(&dice)]))]))
        case 5:
            call(Self.playerName, path, "org.freedesktop.DBus.Properties", "Set",
                 Variant.tuple([g_variant_new_string(player), g_variant_new_string(dice.pick(["Volume", "Rate", "PlaybackStatus"])), g_variant_new_variant(Oddities.value(&dice))]))
        case 6: call(Self.playerName, path, "org.freedesktop.DBus.Properties", "GetAll", Variant.tuple([g_variant_new_string(dice.pick([player, "org.mpris.MediaPlayer2", ""]))]))
        case 7 where mayStop: call(Self.playerName, path, player, dice.pick(["Stop", "Pause", "PlayPause", "Play"]), nil)
        default: readState()
        }
    }

    // MARK: The lock screen

    private func lockScreen() {
        let ringing = lockScreenAlarms.filter { $0.state == "ringing" }
        let id: String
        let key: String
        if mayStop, let stopping = ringing.first, dice.chance(0.5) {
            (id, key) = (stopping.id, "stop")
        } else {
            id = dice.pick([UUID().uuidString.lowercased(), lockScreenAlarms.first?.id ?? "", "not-an-id", "", Oddities.hugeText(&dice), Oddities.text(&dice)])
            key = dice.pick(["", "STOP", "stop ", "snooze", Oddities.text(&dice), Oddities.hugeText(&dice)])
        }
        call(Self.agentName, "/io/github/tocsin/LockScreen", "io.github.tocsin.LockScreen1", "Press", Variant.tuple([g_variant_new_string(id), g_variant_new_string(key)]))
    }

    // MARK: Anything else

    private func introspection() {
        let path = dice.pick(["/", "/StatusNotifierItem", "/MenuBar", "/io/github/tocsin/LockScreen", "/io/github/tocsin/Agent", "/org/mpris/MediaPlayer2"])
        switch dice.below(3) {
        case 0: call(Self.agentName, path, "org.freedesktop.DBus.Introspectable", "Introspect", nil)
        case 1: call(Self.agentName, path, "org.freedesktop.DBus.Peer", "Ping", nil)
        default: call(Self.agentName, path, "org.freedesktop.DBus.Peer", "GetMachineId", nil)
        }
    }

    /// A connection of its own makes a call and closes before the answer: the agent answers no
    /// one (the answer of a click that OwnUserGate holds, an event group of 10,000).
    private func closingMidCall() {
        let flags = GDBusConnectionFlags(G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
        guard let connection = g_dbus_connection_new_for_address_sync(neighbour.address, flags, nil, nil, nil) else { return }
        let (path, interface, member, arguments): (String, String, String, OpaquePointer) = switch dice.below(3) {
        case 0: ("/MenuBar", "com.canonical.dbusmenu", "Event", Variant.tuple(eventArguments()))
        case 1: ("/io/github/tocsin/LockScreen", "io.github.tocsin.LockScreen1", "Press",
                 Variant.tuple([g_variant_new_string(lockScreenAlarms.first?.id ?? UUID().uuidString.lowercased()), g_variant_new_string("STOP")]))
        default: ("/MenuBar", "com.canonical.dbusmenu", "GetGroupProperties", Variant.tuple([Variant.make(int32s: Array(0..<Int32(Oddities.hugeCount))), Variant.make(strings: [])]))
        }
        let sunk = g_variant_ref_sink(arguments)!
        log.exchange(neighbour.bus, "caller", "caller disconnect", "\(member)\(Answers.describe(sunk).drop { $0 != " " }) at \(path), then closes its connection")
        g_dbus_connection_call(connection, Self.agentName, path, interface, member, sunk, nil, G_DBUS_CALL_FLAGS_NONE, 5000, nil, nil, nil)
        g_variant_unref(sunk)
        g_dbus_connection_flush_sync(connection, nil, nil)
        g_dbus_connection_close_sync(connection, nil, nil)
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    /// Reads what the lock screen and the player show (and so learns what rings).
    private func readState() {
        if playerPresent, dice.chance(0.5) {
            call(Self.playerName, "/org/mpris/MediaPlayer2", "org.freedesktop.DBus.Properties", "Get",
                 Variant.tuple([g_variant_new_string("org.mpris.MediaPlayer2.Player"), g_variant_new_string("PlaybackStatus")])) { [weak self] reply in
                guard let self, let reply, String(cString: g_variant_get_type_string(reply)) == "(v)" else { return }
                let boxed = g_variant_get_child_value(reply, 0)!
                let status = g_variant_get_variant(boxed)!
                defer { g_variant_unref(status); g_variant_unref(boxed) }
                let playing = g_variant_is_of_type(status, Variant.type("s")) != 0 && String(cString: g_variant_get_string(status, nil)) == "Playing"
                if playing { ringingSince = ringingSince ?? Date() } else { ringingSince = nil }
            }
        } else {
            call(Self.agentName, "/io/github/tocsin/LockScreen", "org.freedesktop.DBus.Properties", "Get",
                 Variant.tuple([g_variant_new_string("io.github.tocsin.LockScreen1"), g_variant_new_string("Alarms")])) { [weak self] reply in
                guard let self, let reply, String(cString: g_variant_get_type_string(reply)) == "(v)" else { return }
                let boxed = g_variant_get_child_value(reply, 0)!
                let alarms = g_variant_get_variant(boxed)!
                defer { g_variant_unref(alarms); g_variant_unref(boxed) }
                guard g_variant_is_of_type(alarms, Variant.type("aa{sv}")) != 0 else { return }
                lockScreenAlarms = Variant.dictionaries(alarms).compactMap { entry in
                    guard case .string(let id)? = entry["id"], case .string(let state)? = entry["state"] else { return nil }
                    return (id, state)
                }
            }
        }
    }

    // MARK: Calling

    private func call(_ destination: String, _ path: String, _ interface: String, _ member: String, _ arguments: OpaquePointer?,
                      then: ((OpaquePointer?) -> Void)? = nil) {
        guard let connection = neighbour.connection else {
            if let arguments { g_variant_unref(g_variant_ref_sink(arguments)) }
            return
        }
        let sunk = arguments.map { g_variant_ref_sink($0)! }
        let what = "\(member)\(sunk.map { Answers.describe($0, limit: 120).drop { $0 != " " } } ?? "()") at \(path) of \(destination)"
        let started = ContinuousClock.now
        let log = log, bus = neighbour.bus
        // Noted as it goes, so that a call the agent crashes on shows before the crash.
        log.note(bus, "caller", "calls \(what)")
        Self.callAnyReply(connection, destination: destination, path: path, interface: interface, method: member, arguments: sunk) { reply, error in
            let elapsed = ContinuousClock.now - started
            let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            let took = String(format: "%.1f ms", milliseconds)
            if let error {
                let kind = error.isTimeout ? "caller timeout" : "caller error"
                log.exchange(bus, "caller", kind, "\(what) -> \(error.remoteName ?? "local error"): \(error.message.prefix(160)) (\(took))")
            } else {
                log.exchange(bus, "caller", "caller ok", "\(what) -> \(Answers.describe(reply, limit: 100)) (\(took))")
            }
            then?(reply)
        }
        if let sunk { g_variant_unref(sunk) }
    }

    private final class ReplyBox {
        let completion: (OpaquePointer?, GLibError?) -> Void
        init(_ completion: @escaping (OpaquePointer?, GLibError?) -> Void) { self.completion = completion }
    }

    /// A call whose reply is taken whatever its type: the caller here is the fuzzer, looking at
    /// what the agent answers, not trusting it (the agent's own calls go through BusCall).
    private static func callAnyReply(_ connection: OpaquePointer, destination: String, path: String, interface: String, method: String,
                                     arguments: OpaquePointer?, completion: @escaping (OpaquePointer?, GLibError?) -> Void) {
        g_dbus_connection_call(connection, destination, path, interface, method, arguments, nil, G_DBUS_CALL_FLAGS_NO_AUTO_START, 5000, nil,
                               { source, result, userData in
            let completion = Unmanaged<ReplyBox>.fromOpaque(userData!).takeRetainedValue().completion
            do throws(GLibError) {
                let reply = try GLibError.check { g_dbus_connection_call_finish(OpaquePointer(source), result, $0) }
                defer { if let reply { g_variant_unref(reply) } }
                completion(reply, nil)
            } catch {
                completion(nil, error)
            }
        }, Unmanaged.passRetained(ReplyBox(completion)).toOpaque())
    }
}
