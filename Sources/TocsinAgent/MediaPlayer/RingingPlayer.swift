import CGLib
import FoundationEssentials
import GLibSupport
import TocsinCore

/// Tocsin as a media player while an alarm rings: an MPRIS 2.2 player
/// (`org.mpris.MediaPlayer2.tocsin`, object `/org/mpris/MediaPlayer2`) showing what
/// `RingingPlayerContent` says (while Plasma's screen is locked, also between rings: stopped,
/// with the next alarm). Lock screens that show a media row (Plasma's, GNOME 49's,
/// gtklock's playerctl module), the media keys while locked, phone remotes (KDE Connect,
/// GSConnect) and `playerctl` reach it where no notification can be reached.
///
/// It decides nothing: a control pressed goes to `onPress` as the intent the content gives it,
/// on the alarm the content shows, as a press of that alarm's notification button would. The
/// name is owned while the content is there and let go when it goes, which every MPRIS client
/// follows. Nothing here waits for another process: the name is asked for, properties are read
/// from the content at hand, and changes go out as signals. Anyone may read the player; only the
/// user's own programs may press its controls (`OwnUserGate`), as for the tray.
final class RingingPlayer {
    /// Called with the intent a pressed control performs and the alarm it performs it on.
    var onPress: (AlarmIntent, UUID) -> Void = { _, _ in }

    /// The player's bus name: what `playerctl -p tocsin` finds, and what `MediaPlayerPauser`
    /// leaves alone.
    static let busName = "org.mpris.MediaPlayer2.tocsin"
    static let objectPath = "/org/mpris/MediaPlayer2"
    private static let rootInterface = "org.mpris.MediaPlayer2"
    private static let playerInterface = "org.mpris.MediaPlayer2.Player"

    private let log: AgentLog
    private let connection: () -> OpaquePointer?
    private let gate: OwnUserGate
    private var content: RingingPlayerContent?
    private var registrations: [guint] = []
    private var exportedOn: OpaquePointer?
    private var nameOwnership: guint = 0
    /// Counts the player's appearances, so that a re-announcement meant for one is not made
    /// for the next.
    private var appearance = 0

    /// When the player says again what it shows after it took its name (seconds). gtklock 4's
    /// playerctl module draws its row once, empty, as it locks, and fills it for a player that
    /// comes later only on a change of the player's metadata or status (GtklockTests: the first
    /// ring after the lock showed nothing there for 4 s; gtklock-playerctl-module's
    /// `player_appeared` returns when the row is made, its `metadata` handler rebuilds the row).
    /// Said again twice, for a module that attached late on a busy machine; a client that was
    /// there already reads the same values again.
    static let reannouncements: [Double] = [0.5, 2]

    /// A player logging to `log`, on the bus connection `connection` gives (the agent's), whose
    /// controls count only from senders `gate` lets through.
    init(log: AgentLog, connection: @escaping () -> OpaquePointer?, gate: OwnUserGate) {
        self.log = log
        self.connection = connection
        self.gate = gate
    }

    deinit {
        if nameOwnership != 0 { g_bus_unown_name(nameOwnership) }
        unexport()
    }

    /// Shows `content`, or takes the player off the bus for `nil`; sends only what changed.
    func show(_ content: RingingPlayerContent?) {
        let old = self.content
        guard content != old else { return }
        self.content = content
        switch (old, content) {
        case (nil, _?):
            appear()
        case (_?, nil):
            disappear()
        case (let old?, let new?):
            var changed: [String: OpaquePointer] = [:]
            if old.title != new.title || old.artist != new.artist || old.trackID != new.trackID { changed["Metadata"] = Self.metadata(of: new) }
            if old.canGoNext != new.canGoNext { changed["CanGoNext"] = g_variant_new_boolean(new.canGoNext ? 1 : 0) }
            if old.isRinging != new.isRinging {
                changed["PlaybackStatus"] = g_variant_new_string(Self.playbackStatus(of: new))
                for control in ["CanControl", "CanPlay", "CanPause"] { changed[control] = g_variant_new_boolean(new.isRinging ? 1 : 0) }
            }
            if !changed.isEmpty { emitPropertiesChanged(Self.playerInterface, changed) }
        case (nil, nil):
            break
        }
    }

    // MARK: Being on the bus

    /// Exports the objects, then asks for the name: a client that sees the name finds the player.
    private func appear() {
        guard let connection = connection() else { return }
        if registrations.isEmpty { export(on: connection) }
        guard nameOwnership == 0 else { return }
        appearance += 1
        nameOwnership = g_bus_own_name_on_connection(
            connection, Self.busName, G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE,
            { _, _, userData in
                Unmanaged<RingingPlayer>.fromOpaque(userData!).takeUnretainedValue().nameAcquired()
            },
            { _, name, userData in
                // Another program holds the name (a second agent on the same bus, or an impostor):
                // the alarm rings on, without its media player.
                let player = Unmanaged<RingingPlayer>.fromOpaque(userData!).takeUnretainedValue()
                player.log.warning("Could not take the bus name \(name.map { String(cString: $0) } ?? RingingPlayer.busName): the ringing alarm shows no media player (lock screens and media keys cannot stop it).")
            },
            Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    /// The name is ours: clients find the player now. What it shows is said again a moment
    /// later (`reannouncements`) for those that draw only what changes.
    private func nameAcquired() {
        let acquiredFor = appearance
        for delay in Self.reannouncements {
            MainLoop.after(seconds: delay) { [weak self] in
                guard let self, appearance == acquiredFor, nameOwnership != 0, let content else { return }
                emitPropertiesChanged(Self.playerInterface, ["Metadata": Self.metadata(of: content),
                                                             "PlaybackStatus": g_variant_new_string(Self.playbackStatus(of: content))])
            }
        }
    }

    /// Lets the name go, then takes the objects away.
    private func disappear() {
        if nameOwnership != 0 { g_bus_unown_name(nameOwnership) }
        nameOwnership = 0
        unexport()
    }

    private func export(on connection: OpaquePointer) {
        let parsed: UnsafeMutablePointer<GDBusNodeInfo>?
        do { parsed = try GLibError.check { g_dbus_node_info_new_for_xml(Self.introspectionXML, $0) } } catch {
            log.warning("The media player cannot be described: \(error.message)")
            return
        }
        guard let node = parsed else { return }
        defer { g_dbus_node_info_unref(node) }
        g_object_ref(UnsafeMutableRawPointer(connection))
        exportedOn = connection
        let box = Unmanaged.passUnretained(self).toOpaque()
        var vtable = GDBusInterfaceVTable(
            method_call: { _, sender, _, interface, method, _, invocation, userData in
                Unmanaged<RingingPlayer>.fromOpaque(userData!).takeUnretainedValue().call(
                    String(cString: method!), of: String(cString: interface!), sender: sender.map { String(cString: $0) } ?? "", invocation: invocation!)
            },
            get_property: { _, _, _, interface, name, _, userData in
                Unmanaged<RingingPlayer>.fromOpaque(userData!).takeUnretainedValue().property(String(cString: name!), of: String(cString: interface!))
            },
            // Rate and Volume are writable in the specification; a ring's are not: GDBus refuses.
            set_property: nil, padding: (nil, nil, nil, nil, nil, nil, nil, nil))
        for index in 0..<2 {
            do {
                registrations.append(try GLibError.check {
                    g_dbus_connection_register_object(connection, Self.objectPath, node.pointee.interfaces[index], &vtable, box, nil, $0)
                })
            } catch {
                log.warning("The media player cannot be exported: \(error.message)")
            }
        }
    }

    private func unexport() {
        guard let exportedOn else { return }
        for registration in registrations { g_dbus_connection_unregister_object(exportedOn, registration) }
        registrations = []
        // The connection the objects were exported on, kept for this: the agent that gave it may
        // be going away itself.
        g_object_unref(UnsafeMutableRawPointer(exportedOn))
        self.exportedOn = nil
    }

    /// `org.freedesktop.DBus.Properties.PropertiesChanged` for `changed`, to every client.
    private func emitPropertiesChanged(_ interface: String, _ changed: [String: OpaquePointer]) {
        let arguments = Variant.tuple([g_variant_new_string(interface), Variant.make(variants: changed), Variant.make(strings: [])])
        guard nameOwnership != 0, let connection = exportedOn else {
            g_variant_unref(g_variant_ref_sink(arguments))
            return
        }
        do throws(GLibError) {
            _ = try GLibError.check {
                g_dbus_connection_emit_signal(connection, nil, Self.objectPath, "org.freedesktop.DBus.Properties", "PropertiesChanged", arguments, $0)
            }
        } catch {
            log.warning("The media player could not say what changed: \(error.message)")
        }
    }

    // MARK: Answering

    /// `Metadata`: the track as `content` has it.
    private static func metadata(of content: RingingPlayerContent) -> OpaquePointer {
        Variant.make(variants: [
            "mpris:trackid": g_variant_new_object_path(content.trackID),
            "xesam:title": g_variant_new_string(content.title),
            "xesam:artist": Variant.make(strings: [content.artist]),
        ])
    }

    private func property(_ name: String, of interface: String) -> OpaquePointer? {
        if interface == Self.rootInterface {
            switch name {
            case "Identity": return g_variant_new_string("Tocsin")
            case "DesktopEntry": return g_variant_new_string("io.github.tocsin.Agent")
            case "CanQuit", "CanRaise", "HasTrackList": return g_variant_new_boolean(0)
            case "SupportedUriSchemes", "SupportedMimeTypes": return Variant.make(strings: [])
            default: return nil
            }
        }
        let content = content
        switch name {
        case "PlaybackStatus": return g_variant_new_string(Self.playbackStatus(of: content))
        case "Metadata": return content.map(Self.metadata) ?? Variant.make(variants: [:])
        case "Rate", "MinimumRate", "MaximumRate", "Volume": return g_variant_new_double(1)
        case "Position": return g_variant_new_int64(0)
        case "CanGoNext": return g_variant_new_boolean(content?.canGoNext == true ? 1 : 0)
        // Waiting between rings, nothing can be done: Plasma's lock screen greys the row.
        case "CanControl", "CanPlay", "CanPause": return g_variant_new_boolean(content?.isRinging == true ? 1 : 0)
        case "CanGoPrevious", "CanSeek": return g_variant_new_boolean(0)
        default: return nil
        }
    }

    /// `PlaybackStatus`: "Playing" while the alarm shown rings, "Stopped" while the player waits
    /// for the next (and if a read is ever answered with nothing to show).
    private static func playbackStatus(of content: RingingPlayerContent?) -> String {
        content?.isRinging == true ? "Playing" : "Stopped"
    }

    private func call(_ method: String, of interface: String, sender: String, invocation: OpaquePointer) {
        // Raise, Quit, Seek, SetPosition and OpenUri do nothing, as the Can… properties say, and
        // are answered at once; so is a control that does nothing now.
        guard interface == Self.playerInterface, let control = RingingPlayerContent.Control(rawValue: method),
              let content, let intent = content.intent(for: control) else {
            g_dbus_method_invocation_return_value(invocation, nil)
            return
        }
        // What the control does is read now, from the alarm the player showed when it was
        // pressed, not once the gate has let the caller through.
        let alarm = content.alarmID
        gate.answer(invocation, from: sender,
                    refusing: .accessDenied("Only the user's own programs may stop or snooze an alarm."),
                    refused: { [log] in log.warning("Ignoring the media player's \(method) from another user's program (\(sender)).") },
                    then: { [weak self] in
                        guard let self else { return }
                        log.info("The media player's \(method) (from \(sender)): \(intent.verb) “\(content.title)”.")
                        onPress(intent, alarm)
                    })
    }

    // MARK: Introspection

    private static let introspectionXML = """
        <node>
          <interface name="org.mpris.MediaPlayer2">
            <method name="Raise"/><method name="Quit"/>
            <property name="CanQuit" type="b" access="read"/><property name="CanRaise" type="b" access="read"/>
            <property name="HasTrackList" type="b" access="read"/><property name="Identity" type="s" access="read"/>
            <property name="DesktopEntry" type="s" access="read"/>
            <property name="SupportedUriSchemes" type="as" access="read"/><property name="SupportedMimeTypes" type="as" access="read"/>
          </interface>
          <interface name="org.mpris.MediaPlayer2.Player">
            <method name="Next"/><method name="Previous"/><method name="Pause"/><method name="PlayPause"/>
            <method name="Stop"/><method name="Play"/>
            <method name="Seek"><arg name="Offset" type="x" direction="in"/></method>
            <method name="SetPosition"><arg name="TrackId" type="o" direction="in"/><arg name="Position" type="x" direction="in"/></method>
            <method name="OpenUri"><arg name="Uri" type="s" direction="in"/></method>
            <signal name="Seeked"><arg name="Position" type="x"/></signal>
            <property name="PlaybackStatus" type="s" access="read"/>
            <property name="Rate" type="d" access="readwrite"/>
            <property name="Metadata" type="a{sv}" access="read"/>
            <property name="Volume" type="d" access="readwrite"/>
            <property name="Position" type="x" access="read"/>
            <property name="MinimumRate" type="d" access="read"/><property name="MaximumRate" type="d" access="read"/>
            <property name="CanGoNext" type="b" access="read"/><property name="CanGoPrevious" type="b" access="read"/>
            <property name="CanPlay" type="b" access="read"/><property name="CanPause" type="b" access="read"/>
            <property name="CanSeek" type="b" access="read"/><property name="CanControl" type="b" access="read"/>
          </interface>
        </node>
        """
}
