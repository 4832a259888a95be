import CGLib
import Foundation
import GLibSupport
import TocsinCore

/// The desk's KDE Connect daemon as `tocsin phone setup` needs it: the paired devices, where
/// each one's run commands are kept, and the signal that makes the daemon read them again.
struct KDEConnectDesk {
    private let connection: OpaquePointer

    static let daemonName = "org.kde.kdeconnect"

    /// The daemon on the session bus; throws, saying why, when it cannot be reached.
    init() throws(CommandError) {
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            throw .unavailable("There is no D-Bus session bus to reach KDE Connect on (\(error.map { GLibError(consuming: $0).message } ?? "")).")
        }
        self.connection = connection
    }

    /// The ids of the paired devices, reachable or not.
    func pairedDevices() throws(CommandError) -> [String] {
        var error: UnsafeMutablePointer<GError>?
        guard let reply = g_dbus_connection_call_sync(
            connection, Self.daemonName, "/modules/kdeconnect", "org.kde.kdeconnect.daemon", "devices",
            Variant.tuple([g_variant_new_boolean(0), g_variant_new_boolean(1)]), nil, G_DBUS_CALL_FLAGS_NONE, 5000, nil, &error) else {
            throw .unavailable("KDE Connect does not answer (\(error.map { GLibError(consuming: $0).message } ?? "no reply")); is kdeconnectd running?")
        }
        defer { g_variant_unref(reply) }
        return Variant.strings(in: reply, at: 0)
    }

    /// The names of the paired devices within reach (their ids where a name cannot be read).
    func reachablePairedDeviceNames() throws(CommandError) -> [String] {
        var error: UnsafeMutablePointer<GError>?
        guard let reply = g_dbus_connection_call_sync(
            connection, Self.daemonName, "/modules/kdeconnect", "org.kde.kdeconnect.daemon", "devices",
            Variant.tuple([g_variant_new_boolean(1), g_variant_new_boolean(1)]), nil, G_DBUS_CALL_FLAGS_NO_AUTO_START, 3000, nil, &error) else {
            throw .unavailable(error.map { GLibError(consuming: $0).message } ?? "no reply")
        }
        defer { g_variant_unref(reply) }
        return Variant.strings(in: reply, at: 0).map { device in
            guard let named = g_dbus_connection_call_sync(
                connection, Self.daemonName, "/modules/kdeconnect/devices/\(device)", "org.freedesktop.DBus.Properties", "Get",
                Variant.tuple([g_variant_new_string("org.kde.kdeconnect.device"), g_variant_new_string("name")]), nil,
                G_DBUS_CALL_FLAGS_NO_AUTO_START, 3000, nil, nil) else { return device }
            defer { g_variant_unref(named) }
            let boxed = Variant.child(named, 0)
            defer { g_variant_unref(boxed) }
            if case .string(let name) = Variant.wireValue(boxed), !name.isEmpty { return name }
            return device
        }
    }

    /// Where `device`'s run commands are kept: `$XDG_CONFIG_HOME/kdeconnect/DEVICE/kdeconnect_runcommand/config`.
    static func runCommandFile(of device: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".config")
        return configHome.appendingPathComponent("kdeconnect/\(device)/kdeconnect_runcommand/config")
    }

    /// Tells the daemon that `device`'s run commands changed; it sends the new list to the phone.
    func announceRunCommandsChanged(of device: String) {
        g_dbus_connection_emit_signal(connection, nil, "/kdeconnect/\(device)/kdeconnect_runcommand", "org.kde.kdeconnect.config",
                                      "configChanged", nil, nil)
        g_dbus_connection_flush_sync(connection, nil, nil)
    }
}
