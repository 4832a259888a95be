import CGLib
import Foundation
import GLibSupport

// fake-media-player [NAME]: a minimal MPRIS player for the integration tests. It owns
// org.mpris.MediaPlayer2.NAME (default tocsintest) on the session bus, starts "Playing", obeys
// Play, Pause and PlayPause, and prints every change of its PlaybackStatus on standard output
// ("Paused", "Playing"), so a test sees exactly what the agent asked of it.

let introspection = """
    <node>
      <interface name="org.mpris.MediaPlayer2">
        <property name="Identity" type="s" access="read"/>
      </interface>
      <interface name="org.mpris.MediaPlayer2.Player">
        <method name="Play"/>
        <method name="Pause"/>
        <method name="PlayPause"/>
        <property name="PlaybackStatus" type="s" access="read"/>
      </interface>
    </node>
    """

/// The player's one piece of state.
final class Player {
    var status = "Playing"

    func set(_ newStatus: String) {
        guard newStatus != status else { return }
        status = newStatus
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
        String(cString: property!) == "PlaybackStatus" ? g_variant_new_string(player.status) : g_variant_new_string("Fake player")
    },
    set_property: nil,
    padding: (nil, nil, nil, nil, nil, nil, nil, nil))

let busName = "org.mpris.MediaPlayer2." + (CommandLine.arguments.dropFirst().first ?? "tocsintest")
_ = g_bus_own_name(G_BUS_TYPE_SESSION, busName, G_BUS_NAME_OWNER_FLAGS_NONE, { connection, _, _ in
    for index in 0..<2 {
        _ = g_dbus_connection_register_object(connection, "/org/mpris/MediaPlayer2", node.pointee.interfaces[index], &vtable, nil, nil, nil)
    }
}, { _, _, _ in
    FileHandle.standardOutput.write(Data("Ready\n".utf8))
}, { _, _, _ in exit(1) }, nil, nil)

let loop = MainLoop()
loop.quitOnTerminationSignals { _ in }
loop.run()
