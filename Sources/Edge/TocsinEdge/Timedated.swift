import CGLib
import GLibSupport

/// timedated (`org.freedesktop.timedate1` on the system bus), as the agent follows it: its
/// `PropertiesChanged` naming `Timezone`, changed or invalidated (it may send either form).
public enum Timedated {
    /// timedated's name.
    public static let busName = "org.freedesktop.timedate1"
    /// How many invalidated names are looked through: timedated has a dozen properties.
    static let invalidatedLimit = 64

    /// A subscription on `connection` to timedated's property changes, calling `zoneChanged`
    /// when one names `Timezone`; a body of another type is said once through `faults`.
    public static func followTimeZone(on connection: OpaquePointer, faults: NeighbourFaults,
                                      _ zoneChanged: @escaping () -> Void) -> BusSignalSubscription {
        BusSignalSubscription(
            on: connection, sender: busName, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
            path: "/org/freedesktop/timedate1", arg0: busName, bodyType: BusProperties.changedBodyType,
            received: { _, _, body in if namesTimeZone(body) { zoneChanged() } },
            wrongBody: { _, type in
                faults.recordWrongSignal(from: "timedated", signal: "PropertiesChanged", type: type, expected: BusProperties.changedBodyType)
            })
    }

    /// Whether a checked `(sa{sv}as)` body names `Timezone` among what changed or was invalidated.
    static func namesTimeZone(_ body: OpaquePointer) -> Bool {
        let changed = Variant.child(body, 1)
        defer { g_variant_unref(changed) }
        // Looked up in place: a body of 10,000 entries is not read into a dictionary.
        if let zone = g_variant_lookup_value(changed, "Timezone", nil) {
            g_variant_unref(zone)
            return true
        }
        return Variant.strings(in: body, at: 2, limit: invalidatedLimit, maxBytes: 64).contains("Timezone")
    }
}
