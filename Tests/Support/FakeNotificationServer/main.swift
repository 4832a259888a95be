import CGLib
import Foundation
import GLibSupport

// fake-notification-server: a notification server that draws no buttons (its capabilities lack
// "actions"), as some minimal servers do. It owns org.freedesktop.Notifications, answers Notify
// with increasing ids, and prints each notification as one line "<id>|<summary>|<body>" on
// standard output, so a test sees what a user of such a server would read.
//
// `--notify-delay-ms N` makes it a slow server: each Notify blocks it for N ms before it answers,
// as a server redrawing a crowded screen would.

let introspection = """
    <node>
      <interface name="org.freedesktop.Notifications">
        <method name="GetCapabilities"><arg type="as" direction="out"/></method>
        <method name="GetServerInformation">
          <arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/>
        </method>
        <method name="Notify">
          <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/><arg type="s" direction="in"/>
          <arg type="s" direction="in"/><arg type="as" direction="in"/><arg type="a{sv}" direction="in"/><arg type="i" direction="in"/>
          <arg type="u" direction="out"/>
        </method>
        <method name="CloseNotification"><arg type="u" direction="in"/></method>
        <signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
        <signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
      </interface>
    </node>
    """

/// Hands out notification ids.
final class Counter { var next: UInt32 = 1 }
let counter = Counter()
let arguments = CommandLine.arguments
let notifyDelay: useconds_t = arguments.firstIndex(of: "--notify-delay-ms")
    .flatMap { arguments.indices.contains($0 + 1) ? useconds_t(arguments[$0 + 1]) : nil }.map { $0 * 1000 } ?? 0

let node = try! GLibError.check { g_dbus_node_info_new_for_xml(introspection, $0) }!
var vtable = GDBusInterfaceVTable(
    method_call: { _, _, _, _, method, parameters, invocation, _ in
        switch String(cString: method!) {
        case "GetCapabilities":
            let body = g_variant_new_string("body")
            var items: [OpaquePointer?] = [body]
            let array = g_variant_new_array(Variant.type("s"), &items, 1)!
            g_dbus_method_invocation_return_value(invocation, Variant.tuple([array]))
        case "GetServerInformation":
            g_dbus_method_invocation_return_value(invocation, Variant.tuple(
                ["fake-notification-server", "tocsin tests", "1.0", "1.2"].map { (text: String) -> OpaquePointer in g_variant_new_string(text) }))
        case "Notify":
            if notifyDelay > 0 { usleep(notifyDelay) }
            let replaces = Variant.child(parameters!, 1)
            var id = g_variant_get_uint32(replaces)
            g_variant_unref(replaces)
            if id == 0 {
                id = counter.next
                counter.next += 1
            }
            let line = "\(id)|\(Variant.string(in: parameters!, at: 3))|\(Variant.string(in: parameters!, at: 4).replacingOccurrences(of: "\n", with: "\\n"))\n"
            FileHandle.standardOutput.write(Data(line.utf8))
            g_dbus_method_invocation_return_value(invocation, Variant.tuple([g_variant_new_uint32(id)]))
        default:
            g_dbus_method_invocation_return_value(invocation, nil)
        }
    },
    get_property: nil, set_property: nil,
    padding: (nil, nil, nil, nil, nil, nil, nil, nil))

_ = g_bus_own_name(G_BUS_TYPE_SESSION, "org.freedesktop.Notifications", G_BUS_NAME_OWNER_FLAGS_REPLACE, { connection, _, _ in
    _ = g_dbus_connection_register_object(connection, "/org/freedesktop/Notifications", node.pointee.interfaces[0], &vtable, nil, nil, nil)
}, { _, _, _ in
    FileHandle.standardOutput.write(Data("Ready\n".utf8))
}, { _, _, _ in exit(1) }, nil, nil)

let loop = MainLoop()
loop.quitOnTerminationSignals { _ in }
loop.run()
