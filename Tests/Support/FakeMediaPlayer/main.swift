import CGLib
import Foundation
import GLibSupport

// fake-media-player [NAME [TITLE [STATUS]]]: a minimal MPRIS player for the integration tests. It owns
// org.mpris.MediaPlayer2.NAME (default tocsintest) on the session bus, starts in STATUS (default
// "Playing") with a track titled TITLE (default "Radio"), obeys Play, Pause and PlayPause, and prints every change of
// its PlaybackStatus on standard output ("Paused", "Playing"), so a test sees exactly what the
// agent asked of it. Like every real player it says each change on the bus
// (PropertiesChanged) and has the root properties that Plasma's media engine requires of a
// player before it shows one (Identity, SupportedUriSchemes, SupportedMimeTypes).

let introspection = """
    <node>
      <interface name="org.mpris.MediaPlayer2">
        <property name="Identity" type="s" access="read"/>
        <property name="CanQuit" type="b" access="read"/>
        <property name="CanRaise" type="b" access="read"/>
        <property name="HasTrackList" type="b" access="read"/>
        <property name="SupportedUriSchemes" type="as" access="read"/>
        <property name="SupportedMimeTypes" type="as" access="read"/>
      </interface>
      <interface name="org.mpris.MediaPlayer2.Player">
        <method name="Play"/>
        <method name="Pause"/>
        <method name="PlayPause"/>
        <property name="PlaybackStatus" type="s" access="read"/>
        <property name="Metadata" type="a{sv}" access="read"/>
        <property name="CanControl" type="b" access="read"/>
        <property name="CanPlay" type="b" access="read"/>
        <property name="CanPause" type="b" access="read"/>
      </interface>
    </node>
    """

let arguments = Array(CommandLine.arguments.dropFirst())
let busName = "org.mpris.MediaPlayer2." + (arguments.first ?? "tocsintest")
let trackTitle = arguments.count > 1 ? arguments[1] : "Radio"
let objectPath = "/org/mpris/MediaPlayer2"

/// The player's one piece of state, and the connection its changes are said on.
final class Player {
    var status = arguments.count > 2 ? arguments[2] : "Playing"
    var connection: OpaquePointer?

    func set(_ newStatus: String) {
        guard newStatus != status else { return }
        status = newStatus
        if let connection {
            let changed = Variant.tuple([g_variant_new_string("org.mpris.MediaPlayer2.Player"),
                                         Variant.make(variants: ["PlaybackStatus": g_variant_new_string(newStatus)]),
                                         Variant.make(strings: [])])
            g_dbus_connection_emit_signal(connection, nil, objectPath, "org.freedesktop.DBus.Properties", "PropertiesChanged", changed, nil)
            g_dbus_connection_flush_sync(connection, nil, nil)
        }
        FileHandle.standardOutput.write(Data((newStatus + "\n").utf8))
    }
}

let player = Player()
let node = try! GLibError.check { g_dbus_node_info_new_for_xml(introspection, $0) }!
var vtable = GDBusInterfaceVTable(
    method_call: { _, _, _, _, method, _, invocation, _ in
        switch String(cString: method!) {
        case "Play": player.set("Playing")
        case "Pause": player.set("Paused")
        default: player.set(player.status == "Playing" ? "Paused" : "Playing")
        }
        g_dbus_method_invocation_return_value(invocation, nil)
    },
    get_property: { _, _, _, _, property, _, _ in
        switch String(cString: property!) {
        case "PlaybackStatus": g_variant_new_string(player.status)
        case "Identity": g_variant_new_string("Fake player")
        case "Metadata": Variant.make(variants: ["mpris:trackid": g_variant_new_object_path("/org/example/track/1"),
                                                 "xesam:title": g_variant_new_string(trackTitle)])
        case "SupportedUriSchemes", "SupportedMimeTypes": Variant.make(strings: [])
        case "CanControl", "CanPlay", "CanPause": g_variant_new_boolean(1)
        default: g_variant_new_boolean(0)
        }
    },
    set_property: nil,
    padding: (nil, nil, nil, nil, nil, nil, nil, nil))

_ = g_bus_own_name(G_BUS_TYPE_SESSION, busName, G_BUS_NAME_OWNER_FLAGS_NONE, { connection, _, _ in
    player.connection = connection
    for index in 0..<2 {
        _ = g_dbus_connection_register_object(connection, objectPath, node.pointee.interfaces[index], &vtable, nil, nil, nil)
    }
}, { _, _, _ in
    FileHandle.standardOutput.write(Data("Ready\n".utf8))
}, { _, _, _ in exit(1) }, nil, nil)

let loop = MainLoop()
loop.quitOnTerminationSignals { _ in }
loop.run()
