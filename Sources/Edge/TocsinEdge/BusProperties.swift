import CGLib
import GLibSupport

/// Other programs' D-Bus properties (`org.freedesktop.DBus.Properties`), as the agent reads the
/// few it follows: a boolean by `Get`, and `PropertiesChanged` as news that something changed.
public enum BusProperties {
    /// The boolean property `name` of `interface` at `path` of `destination`, or `nil` when it
    /// is not said in time, or not as a boolean (said once through `faults`, as `neighbour`'s).
    public static func bool(_ name: String, of interface: String, at path: String, of destination: String, on connection: OpaquePointer,
                            neighbour: String, faults: NeighbourFaults, timeoutMilliseconds: Int32, _ answer: @escaping (Bool?) -> Void) {
        BusCall.start(connection, destination: destination, path: path, interface: "org.freedesktop.DBus.Properties", method: "Get",
                      arguments: Variant.tuple([g_variant_new_string(interface), g_variant_new_string(name)]), replyType: "(v)",
                      flags: G_DBUS_CALL_FLAGS_NO_AUTO_START, timeoutMilliseconds: timeoutMilliseconds) { result in
            switch result {
            case .success(let reply):
                guard case .bool(let flag) = Variant.boxedValue(in: reply, at: 0) else {
                    faults.record(.wrongValue(message: "a value that is not a boolean"), from: neighbour, asked: name)
                    return answer(nil)
                }
                answer(flag)
            case .failure(let failure):
                if !failure.isAbsence { faults.record(failure, from: neighbour, asked: name) }
                answer(nil)
            }
        }
    }

    /// The body type of `PropertiesChanged`: the interface, what changed, what was invalidated.
    public static let changedBodyType = "(sa{sv}as)"

    /// A subscription on `connection` to `PropertiesChanged` at `path` from `sender` (`nil`:
    /// anyone), calling `changed` with the interface named in each well-formed one; a malformed
    /// one is said once through `faults`.
    public static func followChanges(at path: String, from sender: String?, on connection: OpaquePointer, neighbour: String,
                                     faults: NeighbourFaults, _ changed: @escaping (_ interface: String) -> Void) -> BusSignalSubscription {
        BusSignalSubscription(
            on: connection, sender: sender, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged", path: path,
            bodyType: changedBodyType,
            received: { _, _, body in changed(Variant.string(in: body, at: 0, maxBytes: 255)) },
            wrongBody: { sender, type in
                faults.recordWrongSignal(from: "\(neighbour) (\(sender))", signal: "PropertiesChanged", type: type, expected: changedBodyType)
            })
    }
}
