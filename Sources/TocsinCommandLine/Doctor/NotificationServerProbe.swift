import CGLib
import GLibSupport
import TocsinCore

/// What `tocsin doctor` finds out about the notification server by asking it directly, for when
/// the agent is not running: who it is (GetServerInformation, GetCapabilities), how Tocsin would
/// present on it (`NotificationServerProfile`) and whether its do-not-disturb is on, read where
/// the profile says it is kept — the same places the agent reads.
struct NotificationServerProbe {
    /// The server, as it describes itself.
    let identity: NotificationServerIdentity
    /// How Tocsin presents on it.
    var profile: NotificationServerProfile { NotificationServerProfile(for: identity) }
    /// Its do-not-disturb: `nil` where it cannot be read.
    let doNotDisturbOn: Bool?

    private static let name = "org.freedesktop.Notifications"
    private static let path = "/org/freedesktop/Notifications"

    /// Asks the server on the session bus; `nil` when none answers (within 2 s a call).
    static func ask() -> NotificationServerProbe? {
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        guard let info = call(connection, name, path, name, "GetServerInformation", expecting: "(ssss)") else { return nil }
        var identity = NotificationServerIdentity(name: Variant.string(in: info, at: 0, maxBytes: 256), vendor: Variant.string(in: info, at: 1, maxBytes: 256),
                                                  version: Variant.string(in: info, at: 2, maxBytes: 256), capabilities: [])
        g_variant_unref(info)
        if let reply = call(connection, name, path, name, "GetCapabilities", expecting: "(as)") {
            identity.capabilities = Set(Variant.strings(in: reply, at: 0, limit: 64, maxBytes: 64))
            g_variant_unref(reply)
        }
        let source = NotificationServerProfile(for: identity).doNotDisturb?.source
        return NotificationServerProbe(identity: identity, doNotDisturbOn: source.flatMap { doNotDisturb(from: $0, connection) })
    }

    private static func doNotDisturb(from source: NotificationServerProfile.DoNotDisturbSource, _ connection: OpaquePointer) -> Bool? {
        switch source {
        case .serverProperty(let interface, let property):
            guard let reply = call(connection, name, path, "org.freedesktop.DBus.Properties", "Get", expecting: "(v)",
                                   Variant.tuple([g_variant_new_string(interface), g_variant_new_string(property)])) else { return nil }
            defer { g_variant_unref(reply) }
            return bool(inVariantOf: reply)
        case .setting(let schemaID, let key, let onWhen):
            guard let source = g_settings_schema_source_get_default(),
                  let schema = g_settings_schema_source_lookup(source, schemaID, 1) else { return nil }
            g_settings_schema_unref(schema)
            let settings = g_settings_new(schemaID)
            defer { g_object_unref(UnsafeMutableRawPointer(settings)) }
            return (g_settings_get_boolean(settings, key) != 0) == onWhen
        case .makoMode(let mode):
            guard let reply = call(connection, name, "/fr/emersion/Mako", "fr.emersion.Mako", "ListModes", expecting: "(as)") else { return nil }
            defer { g_variant_unref(reply) }
            return Variant.strings(in: reply, at: 0).contains(mode)
        case .xfconf(let channel, let property):
            // No such property: it has never been turned on.
            guard let reply = call(connection, "org.xfce.Xfconf", "/org/xfce/Xfconf", "org.xfce.Xfconf", "GetProperty", expecting: "(v)",
                                   Variant.tuple([g_variant_new_string(channel), g_variant_new_string(property)])) else { return false }
            defer { g_variant_unref(reply) }
            return bool(inVariantOf: reply) ?? false
        }
    }

    /// A blocking call (2 s at most); the reply if it has `type`, else `nil`.
    private static func call(_ connection: OpaquePointer, _ destination: String, _ path: String, _ interface: String, _ method: String,
                             expecting type: String, _ arguments: OpaquePointer? = nil) -> OpaquePointer? {
        // No server, one that does not answer, or one answering otherwise: nothing to report
        // but the absence.
        try? BusCall.waitingForReply(connection, destination: destination, path: path, interface: interface, method: method, arguments: arguments,
                                     replyType: type, flags: G_DBUS_CALL_FLAGS_NO_AUTO_START, timeoutMilliseconds: 2000).get()
    }

    /// The boolean in a checked `(v)` reply, if that is what it holds.
    private static func bool(inVariantOf reply: OpaquePointer) -> Bool? {
        if case .bool(let flag) = Variant.boxedValue(in: reply, at: 0) { return flag }
        return nil
    }
}
