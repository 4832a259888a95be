import CGLib
import GLibSupport
import TocsinCore

/// KDE Connect's daemon (`org.kde.kdeconnect` on the session bus): `devices(true, true)` lists
/// the paired, reachable devices (`as`); each has a find-my-phone `ring()` and a `sendPing(s)`.
public final class KDEConnectLink: PhoneLink {
    public let service = PhoneReach.Service.kdeConnect

    static let daemonName = "org.kde.kdeconnect"
    static let daemonPath = "/modules/kdeconnect"
    /// What a device id may hold: it is an element of the device's object path.
    static let idCharacters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"

    /// The link to the daemon on the bus the calls are given.
    public init() {}

    public func findPhones(on connection: OpaquePointer, completion: @escaping (PhoneReach.Answer) -> Void) {
        // devices(onlyReachable, onlyPaired): the phones that can ring now.
        PhoneLinkCall.start(connection, Self.daemonName, Self.daemonPath, "org.kde.kdeconnect.daemon", "devices",
                            Variant.tuple([g_variant_new_boolean(1), g_variant_new_boolean(1)]), replyType: "(as)") { result in
            switch result {
            case .success(let reply):
                let ids = Variant.strings(in: reply, at: 0, limit: PhoneLinkCall.phoneLimit, maxBytes: PhoneLinkCall.textLimit)
                // An id names an object path below the daemon's: only what a path may hold.
                let usable = ids.filter { !$0.isEmpty && $0.consists(ofASCII: Self.idCharacters) }
                completion(.phones(usable.map { PhoneReach.Phone(service: .kdeConnect, id: $0, name: $0, objectPath: "\(Self.daemonPath)/devices/\($0)") }))
            case .failure(let failure):
                completion(.noAnswer(failure.description))
            }
        }
    }

    public func ring(_ phone: PhoneReach.Phone, on connection: OpaquePointer, completion: @escaping (String?) -> Void) {
        PhoneLinkCall.start(connection, Self.daemonName, "\(phone.objectPath)/findmyphone",
                            "org.kde.kdeconnect.device.findmyphone", "ring", nil, replyType: "()") { result in
            completion(PhoneLinkCall.failure(of: result).map { "\($0) (is its find-my-phone plugin on?)" })
        }
    }

    public func ping(_ phone: PhoneReach.Phone, message: String, on connection: OpaquePointer, completion: @escaping (String?) -> Void) {
        PhoneLinkCall.start(connection, Self.daemonName, "\(phone.objectPath)/ping", "org.kde.kdeconnect.device.ping",
                            "sendPing", Variant.tuple([g_variant_new_string(message)]), replyType: "()") { result in
            completion(PhoneLinkCall.failure(of: result))
        }
    }
}
