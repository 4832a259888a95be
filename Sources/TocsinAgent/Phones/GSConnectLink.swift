import CGLib
import GLibSupport
import TocsinCore

/// GSConnect's daemon (`org.gnome.Shell.Extensions.GSConnect`): its ObjectManager lists the
/// devices with `Connected` and `Paired`; each device's GActions (`org.gtk.Actions.Activate`)
/// include `ring` (find-my-phone) and `ping(s)` while it is connected and has those plugins.
final class GSConnectLink: PhoneLink {
    let service = PhoneReach.Service.gsConnect

    func findPhones(on connection: OpaquePointer, completion: @escaping (PhoneReach.Answer) -> Void) {
        PhoneLinkCall.start(connection, GSConnectService.busName, GSConnectService.objectPath, "org.freedesktop.DBus.ObjectManager",
                            "GetManagedObjects", nil) { reply, error in
            guard let reply else { return completion(.noAnswer(error ?? "no reply")) }
            let devices = GSConnectService.devices(inManagedObjects: Variant.managedObjects(in: reply))
            completion(.phones(devices.filter { $0.isPaired && $0.isConnected }.map { PhoneReach.Phone(service: .gsConnect, id: $0.id, name: $0.name, objectPath: $0.path) }))
        }
    }

    func ring(_ phone: PhoneReach.Phone, on connection: OpaquePointer, completion: @escaping (String?) -> Void) {
        activate("ring", parameters: [], on: phone, connection) { error in
            completion(error.map { "\($0) (is its find-my-phone plugin on?)" })
        }
    }

    func ping(_ phone: PhoneReach.Phone, message: String, on connection: OpaquePointer, completion: @escaping (String?) -> Void) {
        activate("ping", parameters: [g_variant_new_variant(g_variant_new_string(message))], on: phone, connection, completion: completion)
    }

    /// Activates the device's action `name` with `parameters` (each a `v`; none or one).
    private func activate(_ name: String, parameters: [OpaquePointer], on phone: PhoneReach.Phone, _ connection: OpaquePointer,
                          completion: @escaping (String?) -> Void) {
        let children: [OpaquePointer?] = parameters
        let parameterList = children.withUnsafeBufferPointer { g_variant_new_array(Variant.type("v"), $0.baseAddress, gsize($0.count)) }
        let platformData = g_variant_new_array(Variant.type("{sv}"), nil, 0)
        PhoneLinkCall.start(connection, GSConnectService.busName, phone.objectPath, "org.gtk.Actions",
                            "Activate", Variant.tuple([g_variant_new_string(name), parameterList!, platformData!])) { reply, error in
            completion(reply == nil ? error ?? "no reply" : nil)
        }
    }
}
