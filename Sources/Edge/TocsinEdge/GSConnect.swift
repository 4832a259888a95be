import CGLib
import GLibSupport
import TocsinCore

/// GSConnect's daemon (`org.gnome.Shell.Extensions.GSConnect`): its ObjectManager lists the
/// devices with `Connected` and `Paired`; each device's GActions (`org.gtk.Actions.Activate`)
/// include `ring` (find-my-phone) and `ping(s)` while it is connected and has those plugins.
public final class GSConnectLink: PhoneLink {
    public let service = PhoneReach.Service.gsConnect
    /// The most objects of the daemon's that are read: a device each, and people pair a few.
    static let objectLimit = 64

    /// The link to the daemon on the bus the calls are given.
    public init() {}

    public func findPhones(on connection: OpaquePointer, completion: @escaping (PhoneReach.Answer) -> Void) {
        PhoneLinkCall.start(connection, GSConnectService.busName, GSConnectService.objectPath, "org.freedesktop.DBus.ObjectManager",
                            "GetManagedObjects", nil, replyType: "(a{oa{sa{sv}}})") { result in
            switch result {
            case .success(let reply):
                let devices = GSConnectService.devices(inManagedObjects: Variant.managedObjects(in: reply, limit: Self.objectLimit))
                let phones = devices.filter { $0.isPaired && $0.isConnected }.prefix(PhoneLinkCall.phoneLimit).map {
                    PhoneReach.Phone(service: .gsConnect, id: $0.id.utf8Prefix(maxBytes: PhoneLinkCall.textLimit),
                                     name: $0.name.utf8Prefix(maxBytes: PhoneLinkCall.textLimit), objectPath: $0.path)
                }
                completion(.phones(Array(phones)))
            case .failure(let failure):
                completion(.noAnswer(failure.description))
            }
        }
    }

    public func ring(_ phone: PhoneReach.Phone, on connection: OpaquePointer, completion: @escaping (String?) -> Void) {
        activate("ring", parameters: [], on: phone, connection) { error in
            completion(error.map { "\($0) (is its find-my-phone plugin on?)" })
        }
    }

    public func ping(_ phone: PhoneReach.Phone, message: String, on connection: OpaquePointer, completion: @escaping (String?) -> Void) {
        activate("ping", parameters: [g_variant_new_variant(g_variant_new_string(message))], on: phone, connection, completion: completion)
    }

    /// Activates the device's action `name` with `parameters` (each a `v`; none or one).
    private func activate(_ name: String, parameters: [OpaquePointer], on phone: PhoneReach.Phone, _ connection: OpaquePointer,
                          completion: @escaping (String?) -> Void) {
        let children: [OpaquePointer?] = parameters
        let parameterList = children.withUnsafeBufferPointer { g_variant_new_array(Variant.type("v"), $0.baseAddress, gsize($0.count)) }
        let platformData = g_variant_new_array(Variant.type("{sv}"), nil, 0)
        PhoneLinkCall.start(connection, GSConnectService.busName, phone.objectPath, "org.gtk.Actions",
                            "Activate", Variant.tuple([g_variant_new_string(name), parameterList!, platformData!]), replyType: "()") { result in
            completion(PhoneLinkCall.failure(of: result))
        }
    }
}
