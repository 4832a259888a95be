import CGLib
import GLibSupport

/// mako's own interface (`fr.emersion.Mako` at `/fr/emersion/Mako` on its notifications name):
/// its modes, one of which is its do-not-disturb.
public enum Mako {
    /// The object whose properties mako says changed when its modes do.
    public static let path = "/fr/emersion/Mako"
    /// How many modes are looked through: people define a handful.
    static let modeLimit = 256

    /// Whether `mode` is among mako's modes now (`ListModes`), or `nil` when it does not say.
    public static func hasMode(_ mode: String, on connection: OpaquePointer, faults: NeighbourFaults, timeoutMilliseconds: Int32,
                               _ answer: @escaping (Bool?) -> Void) {
        BusCall.start(connection, destination: FreedesktopNotifications.busName, path: path, interface: "fr.emersion.Mako", method: "ListModes",
                      arguments: nil, replyType: "(as)", flags: G_DBUS_CALL_FLAGS_NO_AUTO_START, timeoutMilliseconds: timeoutMilliseconds) { result in
            switch result {
            case .success(let reply): answer(Variant.strings(in: reply, at: 0, limit: modeLimit, maxBytes: 256).contains(mode))
            case .failure(let failure):
                faults.record(failure, from: "mako", asked: "ListModes")
                answer(nil)
            }
        }
    }
}
