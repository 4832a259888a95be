import CGLib
import Foundation
import GLibSupport
import TocsinCore
import TocsinFiles

/// GSConnect, GNOME's KDE Connect, as `tocsin phone` and `tocsin doctor` need it: the devices
/// its daemon knows (its ObjectManager), and each device's run commands, kept in GSettings
/// (`GSConnectService`). GSConnect watches those settings and sends a changed list to the phone.
struct GSConnectDesk {
    private let connection: OpaquePointer

    /// Where GSConnect installed from extensions.gnome.org keeps its schemas (the Debian package
    /// puts them with the system's).
    static func userSchemaDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        XDGBaseDirectory.dataHome(environment: environment).appendingPathComponent("gnome-shell/extensions/gsconnect@andyholmes.github.io/schemas")
    }

    /// GSConnect on the session bus; throws, saying why, when there is no bus.
    init() throws(CommandError) {
        let connection: OpaquePointer?
        do throws(GLibError) {
            connection = try GLibError.check { g_bus_get_sync(G_BUS_TYPE_SESSION, nil, $0) }
        } catch {
            throw .unavailable("There is no D-Bus session bus to reach GSConnect on (\(error.message)).")
        }
        guard let connection else { throw .unavailable("There is no D-Bus session bus to reach GSConnect on.") }
        self.connection = connection
    }

    /// Every device the daemon knows, paired or not, within reach or not. Never starts it.
    func devices() throws(GLibError) -> [GSConnectService.Device] {
        guard let reply = try GLibError.check({ error in
            g_dbus_connection_call_sync(connection, GSConnectService.busName, GSConnectService.objectPath, "org.freedesktop.DBus.ObjectManager",
                                        "GetManagedObjects", nil, Variant.type("(a{oa{sa{sv}}})"), G_DBUS_CALL_FLAGS_NO_AUTO_START, 3000, nil, error)
        }) else { return [] }
        defer { g_variant_unref(reply) }
        return GSConnectService.devices(inManagedObjects: Variant.managedObjects(in: reply, limit: 64))
    }

    /// The paired devices, reachable or not.
    func pairedDevices() throws(CommandError) -> [GSConnectService.Device] {
        do throws(GLibError) {
            return try devices().filter(\.isPaired)
        } catch {
            throw .unavailable(error.message)
        }
    }

    /// The paired devices within reach, or why the daemon did not answer.
    func reachablePhones() -> PhoneReach.Answer {
        do throws(GLibError) {
            return .phones(try devices().filter { $0.isPaired && $0.isConnected }
                .map { PhoneReach.Phone(service: .gsConnect, id: $0.id, name: $0.name, objectPath: $0.path) })
        } catch {
            return .noAnswer(error.message)
        }
    }

    /// The settings of device `id`'s run commands; throws when GSConnect's schema is not installed.
    func runCommandSettings(of id: String) throws(StoreError) -> RunCommandSettings {
        let schemaID = GSConnectService.runCommandSchema
        var schema = g_settings_schema_source_get_default().flatMap { g_settings_schema_source_lookup($0, schemaID, 1) }
        if schema == nil, let source = g_settings_schema_source_new_from_directory(Self.userSchemaDirectory().path, g_settings_schema_source_get_default(), 0, nil) {
            schema = g_settings_schema_source_lookup(source, schemaID, 1)
            g_settings_schema_source_unref(source)
        }
        guard let schema else { throw StoreError("GSConnect's settings schema \(schemaID) is not installed") }
        defer { g_settings_schema_unref(schema) }
        return RunCommandSettings(settings: g_settings_new_full(schema, nil, GSConnectService.runCommandSettingsPath(of: id))!)
    }

    /// One device's `command-list`.
    final class RunCommandSettings {
        private let settings: UnsafeMutablePointer<GSettings>

        init(settings: UnsafeMutablePointer<GSettings>) { self.settings = settings }
        deinit { g_object_unref(UnsafeMutableRawPointer(settings)) }

        /// Every entry, id → value (`a{ss}` for each command GSConnect wrote).
        var entries: [String: WireValue] {
            let value = g_settings_get_value(settings, GSConnectService.runCommandKey)!
            defer { g_variant_unref(value) }
            return Variant.dictionary(value)
        }

        /// Replaces the entries and waits until the settings backend has them, so GSConnect
        /// hears of the change before the command returns.
        func set(_ entries: [String: WireValue]) throws(StoreError) {
            guard g_settings_set_value(settings, GSConnectService.runCommandKey, Variant.make(dictionary: entries)) != 0 else {
                throw StoreError("GSConnect's run commands could not be written")
            }
            g_settings_sync()
        }
    }
}
