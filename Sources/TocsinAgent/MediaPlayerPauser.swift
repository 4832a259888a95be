import CGLib
import FoundationEssentials
import GLibSupport

/// Pauses media players while an alarm rings and resumes them after, as KDE's alarm clock does,
/// so music never drowns the alarm. Players are found through MPRIS on the session bus; only
/// those that were playing are paused, and only those are resumed.
final class MediaPlayerPauser {
    private let log: AgentLog
    private let connection: OpaquePointer?
    /// Players this agent paused, by bus name.
    private var paused: [String] = []

    private static let playerPath = "/org/mpris/MediaPlayer2"
    private static let playerInterface = "org.mpris.MediaPlayer2.Player"

    /// A pauser on the session bus.
    init(log: AgentLog) {
        self.log = log
        var error: UnsafeMutablePointer<GError>?
        connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error)
        if let error { g_error_free(error) }
    }

    /// Pauses every player that is playing.
    func pausePlayers() {
        for name in playerNames() where playbackStatus(of: name) == "Playing" {
            if call(name, "Pause") {
                paused.append(name)
                log.info("Paused the media player \(name) while the alarm rings.")
            }
        }
    }

    /// Resumes the players `pausePlayers` paused, if they are still paused (the user may have
    /// changed something meanwhile).
    func resumePlayers() {
        for name in paused where playbackStatus(of: name) == "Paused" {
            if call(name, "Play") { log.info("Resumed the media player \(name).") }
        }
        paused.removeAll()
    }

    private func playerNames() -> [String] {
        guard let connection, let reply = g_dbus_connection_call_sync(
            connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames",
            nil, nil, G_DBUS_CALL_FLAGS_NONE, 1000, nil, nil) else { return [] }
        defer { g_variant_unref(reply) }
        let names = Variant.child(reply, 0)
        defer { g_variant_unref(names) }
        return (0..<g_variant_n_children(names)).compactMap { index in
            let item = g_variant_get_child_value(names, index)!
            defer { g_variant_unref(item) }
            let name = String(cString: g_variant_get_string(item, nil))
            return name.hasPrefix("org.mpris.MediaPlayer2.") ? name : nil
        }
    }

    private func playbackStatus(of name: String) -> String? {
        guard let connection, let reply = g_dbus_connection_call_sync(
            connection, name, Self.playerPath, "org.freedesktop.DBus.Properties", "Get",
            Variant.tuple([g_variant_new_string(Self.playerInterface), g_variant_new_string("PlaybackStatus")]),
            nil, G_DBUS_CALL_FLAGS_NO_AUTO_START, 1000, nil, nil) else { return nil }
        defer { g_variant_unref(reply) }
        let value = Variant.child(reply, 0)
        defer { g_variant_unref(value) }
        if case .string(let status) = Variant.wireValue(value) { return status }
        return nil
    }

    /// Calls `method` on a player; a short timeout, since a hung player must not delay an alarm.
    private func call(_ name: String, _ method: String) -> Bool {
        guard let connection else { return false }
        var error: UnsafeMutablePointer<GError>?
        let reply = g_dbus_connection_call_sync(connection, name, Self.playerPath, Self.playerInterface, method,
                                                nil, nil, G_DBUS_CALL_FLAGS_NO_AUTO_START, 1000, nil, &error)
        if let error {
            log.info("The media player \(name) did not \(method.lowercased()): \(GLibError(consuming: error).message)")
            return false
        }
        if let reply { g_variant_unref(reply) }
        return true
    }
}
