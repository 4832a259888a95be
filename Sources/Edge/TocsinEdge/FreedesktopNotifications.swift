import CGLib
import GLibSupport
import TocsinCore

/// The notification server's own questions (`org.freedesktop.Notifications`, the Desktop
/// Notifications Specification) that the agent asks without libnotify: who the server is and
/// what it draws. Answers are checked and bounded: a server that says its name in 100 kB, or
/// lists 10,000 capabilities, is heard for 256 bytes and 64 capabilities.
public enum FreedesktopNotifications {
    /// The name every notification server owns.
    public static let busName = "org.freedesktop.Notifications"
    /// Its object.
    public static let path = "/org/freedesktop/Notifications"
    /// Its interface.
    public static let interface = "org.freedesktop.Notifications"
    /// How many bytes of the server's name, vendor and version are kept.
    static let textLimit = 256
    /// How many capabilities are read, and how many bytes of each: the specification names a
    /// dozen, each a short word.
    static let capabilityLimit = 64
    static let capabilityTextLimit = 64

    /// The server on `connection`: `GetServerInformation`, then `GetCapabilities`, each within
    /// `timeoutMilliseconds`; `nil` when it does not say who it is (a wrong answer is said once
    /// through `faults`). A server that says who it is but not what it draws is taken as drawing
    /// nothing beyond the basics.
    public static func identity(on connection: OpaquePointer, faults: NeighbourFaults, timeoutMilliseconds: Int32,
                                _ answer: @escaping (NotificationServerIdentity?) -> Void) {
        call(connection, "GetServerInformation", replyType: "(ssss)", timeoutMilliseconds) { result in
            guard case .success(let info) = result else {
                if case .failure(let failure) = result, !failure.isAbsence { faults.record(failure, from: neighbour, asked: "GetServerInformation") }
                return answer(nil)
            }
            var identity = NotificationServerIdentity(
                name: Variant.string(in: info, at: 0, maxBytes: textLimit), vendor: Variant.string(in: info, at: 1, maxBytes: textLimit),
                version: Variant.string(in: info, at: 2, maxBytes: textLimit), capabilities: [])
            call(connection, "GetCapabilities", replyType: "(as)", timeoutMilliseconds) { result in
                switch result {
                case .success(let reply):
                    identity.capabilities = Set(Variant.strings(in: reply, at: 0, limit: capabilityLimit, maxBytes: capabilityTextLimit))
                case .failure(let failure):
                    faults.record(failure, from: neighbour, asked: "GetCapabilities")
                }
                answer(identity)
            }
        }
    }

    private static let neighbour = "The notification server"

    private static func call(_ connection: OpaquePointer, _ method: String, replyType: String, _ timeoutMilliseconds: Int32,
                             _ completion: @escaping (Result<OpaquePointer, BusCallFailure>) -> Void) {
        BusCall.start(connection, destination: busName, path: path, interface: interface, method: method, arguments: nil,
                      replyType: replyType, flags: G_DBUS_CALL_FLAGS_NO_AUTO_START, timeoutMilliseconds: timeoutMilliseconds,
                      completion: completion)
    }
}

extension BusCallFailure {
    /// True when the neighbour is simply not there (yet): no fault of its own to log.
    public var isAbsence: Bool {
        if case .absent = self { return true }
        return false
    }
}
