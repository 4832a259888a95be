import CGLib
import GLibSupport
import TocsinCore

/// KDE Connect's daemon (`org.kde.kdeconnect` on the session bus): `devices(true, true)` lists
/// the paired, reachable devices; each has a find-my-phone `ring()` and a `sendPing(s)`.
final class KDEConnectLink: PhoneLink {
    let service = PhoneReach.Service.kdeConnect

    static let daemonName = "org.kde.kdeconnect"
    static let daemonPath = "/modules/kdeconnect"

    func findPhones(on connection: OpaquePointer, completion: @escaping (PhoneReach.Answer) -> Void) {
        // devices(onlyReachable, onlyPaired): the phones that can ring now.
        PhoneLinkCall.start(connection, Self.daemonName, Self.daemonPath, "org.kde.kdeconnect.daemon", "devices",
                            Variant.tuple([g_variant_new_boolean(1), g_variant_new_boolean(1)])) { reply, error in
            guard let reply else { return completion(.noAnswer(error ?? "no reply")) }
            completion(.phones(Variant.strings(in: reply, at: 0).map { PhoneReach.Phone(service: .kdeConnect, id: $0, name: $0, objectPath: "\(Self.daemonPath)/devices/\($0)") }))
        }
    }

    func ring(_ phone: PhoneReach.Phone, on connection: OpaquePointer, completion: @escaping (String?) -> Void) {
        PhoneLinkCall.start(connection, Self.daemonName, "\(phone.objectPath)/findmyphone",
                            "org.kde.kdeconnect.device.findmyphone", "ring", nil) { reply, error in
            completion(reply == nil ? "\(error ?? "no reply") (is its find-my-phone plugin on?)" : nil)
        }
    }

    func ping(_ phone: PhoneReach.Phone, message: String, on connection: OpaquePointer, completion: @escaping (String?) -> Void) {
        PhoneLinkCall.start(connection, Self.daemonName, "\(phone.objectPath)/ping", "org.kde.kdeconnect.device.ping",
                            "sendPing", Variant.tuple([g_variant_new_string(message)])) { reply, error in
            completion(reply == nil ? error ?? "no reply" : nil)
        }
    }
}

/// The one way phone links call their service: asynchronous, never starting it (NO_AUTO_START),
/// 5 s at most; `completion` gets the reply (valid only during the call) or the error's message.
enum PhoneLinkCall {
    static let timeoutMilliseconds: Int32 = 5000

    static func start(_ connection: OpaquePointer, _ destination: String, _ path: String, _ interface: String, _ method: String,
                      _ arguments: OpaquePointer?, completion: @escaping (OpaquePointer?, String?) -> Void) {
        AsyncBusCall.start(connection, destination: destination, path: path, interface: interface, method: method, arguments: arguments,
                           flags: G_DBUS_CALL_FLAGS_NO_AUTO_START, timeoutMilliseconds: timeoutMilliseconds) { reply, error in
            completion(reply, error?.message)
        }
    }
}
