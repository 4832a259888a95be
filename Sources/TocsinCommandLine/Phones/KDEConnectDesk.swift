import CGLib
import Foundation
import GLibSupport
import TocsinCore
import TocsinFiles

/// The desk's KDE Connect daemon as `tocsin phone setup` needs it: the paired devices, where
/// each one's run commands are kept, and the signal that makes the daemon read them again.
struct KDEConnectDesk {
    private let connection: OpaquePointer

    static let daemonName = "org.kde.kdeconnect"

    /// The daemon on the session bus; throws, saying why, when it cannot be reached.
    init() throws(CommandError) {
        let connection: OpaquePointer?
        do throws(GLibError) {
            connection = try GLibError.check { g_bus_get_sync(G_BUS_TYPE_SESSION, nil, $0) }
        } catch {
            throw .unavailable("There is no D-Bus session bus to reach KDE Connect on (\(error.message)).")
        }
        guard let connection else { throw .unavailable("There is no D-Bus session bus to reach KDE Connect on.") }
        self.connection = connection
    }

    /// The ids of the paired devices, reachable or not. Never starts the daemon: on GNOME,
    /// GSConnect may be the one that holds KDE Connect's port.
    func pairedDevices() throws(CommandError) -> [String] {
        do throws(GLibError) {
            return try devices(onlyReachable: false, flags: G_DBUS_CALL_FLAGS_NO_AUTO_START, timeoutMilliseconds: 5000)
        } catch {
            throw .unavailable(error.message)
        }
    }

    /// The paired devices within reach, with their names (their ids where a name cannot be
    /// read), or why the daemon did not answer. Never starts it.
    func reachablePhones() -> PhoneReach.Answer {
        let devices: [String]
        do throws(GLibError) {
            devices = try self.devices(onlyReachable: true, flags: G_DBUS_CALL_FLAGS_NO_AUTO_START, timeoutMilliseconds: 3000)
        } catch {
            return .noAnswer(error.message)
        }
        return .phones(devices.map { device in
            let path = "/modules/kdeconnect/devices/\(device)"
            let phone = { (name: String) in PhoneReach.Phone(service: .kdeConnect, id: device, name: name, objectPath: path) }
            guard case .success(let named) = BusCall.waitingForReply(
                connection, destination: Self.daemonName, path: path, interface: "org.freedesktop.DBus.Properties", method: "Get",
                arguments: Variant.tuple([g_variant_new_string("org.kde.kdeconnect.device"), g_variant_new_string("name")]), replyType: "(v)",
                flags: G_DBUS_CALL_FLAGS_NO_AUTO_START, timeoutMilliseconds: 3000) else { return phone(device) }
            defer { g_variant_unref(named) }
            if case .string(let name) = Variant.boxedValue(in: named, at: 0), !name.isEmpty { return phone(name.utf8Prefix(maxBytes: 256)) }
            return phone(device)
        })
    }

    /// The daemon's `devices(onlyReachable, onlyPaired: true)`.
    private func devices(onlyReachable: Bool, flags: GDBusCallFlags, timeoutMilliseconds: Int32) throws(GLibError) -> [String] {
        // GDBus gives a reply of the stated type or sets the error, never neither.
        guard let reply = try GLibError.check({ error in
            g_dbus_connection_call_sync(connection, Self.daemonName, "/modules/kdeconnect", "org.kde.kdeconnect.daemon", "devices",
                                        Variant.tuple([g_variant_new_boolean(onlyReachable ? 1 : 0), g_variant_new_boolean(1)]),
                                        Variant.type("(as)"), flags, timeoutMilliseconds, nil, error)
        }) else { return [] }
        defer { g_variant_unref(reply) }
        // Ids name object paths below the daemon's; anything else is not a device to ask.
        return Variant.strings(in: reply, at: 0, limit: 64, maxBytes: 256).filter { !$0.isEmpty && g_variant_is_object_path("/\($0)") != 0 }
    }

    /// Where `device`'s run commands are kept: `$XDG_CONFIG_HOME/kdeconnect/DEVICE/kdeconnect_runcommand/config`.
    static func runCommandFile(of device: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        XDGBaseDirectory.configHome(environment: environment).appendingPathComponent("kdeconnect/\(device)/kdeconnect_runcommand/config")
    }

    /// Tells the daemon that `device`'s run commands changed; it sends the new list to the phone.
    func announceRunCommandsChanged(of device: String) {
        g_dbus_connection_emit_signal(connection, nil, "/kdeconnect/\(device)/kdeconnect_runcommand", "org.kde.kdeconnect.config",
                                      "configChanged", nil, nil)
        g_dbus_connection_flush_sync(connection, nil, nil)
    }
}
