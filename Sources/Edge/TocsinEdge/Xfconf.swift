import CGLib
import GLibSupport

/// Xfce's settings daemon (`org.xfce.Xfconf`), where xfce4-notifyd keeps its do-not-disturb:
/// `GetProperty` of a channel's property, and `PropertyChanged` when one changes.
public enum Xfconf {
    static let busName = "org.xfce.Xfconf"
    static let path = "/org/xfce/Xfconf"
    static let interface = "org.xfce.Xfconf"

    /// Whether the boolean `property` of `channel` is on: `false` when xfconf has no such
    /// property or is not running (it was never turned on), `nil` when xfconf does not say in
    /// time, or says something other than a boolean.
    public static func isOn(_ property: String, in channel: String, on connection: OpaquePointer, faults: NeighbourFaults,
                            timeoutMilliseconds: Int32, _ answer: @escaping (Bool?) -> Void) {
        BusCall.start(connection, destination: busName, path: path, interface: interface, method: "GetProperty",
                      arguments: Variant.tuple([g_variant_new_string(channel), g_variant_new_string(property)]), replyType: "(v)",
                      flags: G_DBUS_CALL_FLAGS_NO_AUTO_START, timeoutMilliseconds: timeoutMilliseconds) { result in
            switch result {
            case .success(let reply):
                guard case .bool(let flag) = Variant.boxedValue(in: reply, at: 0) else {
                    faults.record(.wrongValue(message: "a value that is not a boolean"), from: "xfconf", asked: "\(channel) \(property)")
                    return answer(nil)
                }
                answer(flag)
            case .failure(.errorReply), .failure(.absent):
                // No such property (xfconf answers with its own error), or no xfconf running to
                // have one: it was never turned on.
                answer(false)
            case .failure(let failure):
                faults.record(failure, from: "xfconf", asked: "\(channel) \(property)")
                answer(nil)
            }
        }
    }

    /// A subscription to `PropertyChanged(channel, property, value)` of `channel`, calling
    /// `changed` for each well-formed one.
    public static func followChanges(of channel: String, on connection: OpaquePointer, faults: NeighbourFaults,
                                     _ changed: @escaping () -> Void) -> BusSignalSubscription {
        BusSignalSubscription(
            on: connection, sender: busName, interface: interface, member: "PropertyChanged", path: path, arg0: channel, bodyType: "(ssv)",
            received: { _, _, _ in changed() },
            wrongBody: { _, type in faults.recordWrongSignal(from: "xfconf", signal: "PropertyChanged", type: type, expected: "(ssv)") })
    }
}
