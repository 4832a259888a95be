import CGLib

/// A subscription to a signal another program sends, whose body is checked before it is read:
/// a body of another type than the one the signal's protocol gives is handed to `wrongBody`
/// (with its type) and never to `received`, so no reader takes a child a body lacks.
///
/// GDBus matches the sender, interface, member, path and first argument; it does not look at
/// the body's type, which any program on the bus can choose. Ends when released. Its callbacks
/// come on the thread-default main context of the thread that made it.
public final class BusSignalSubscription {
    private final class Handlers {
        let bodyType: OpaquePointer
        let bodyTypeString: String
        let received: (_ sender: String, _ path: String, _ body: OpaquePointer) -> Void
        let wrongBody: (_ sender: String, _ type: String) -> Void
        init(_ bodyType: String, received: @escaping (String, String, OpaquePointer) -> Void, wrongBody: @escaping (String, String) -> Void) {
            self.bodyType = Variant.type(bodyType)
            bodyTypeString = bodyType
            self.received = received
            self.wrongBody = wrongBody
        }
    }

    private let connection: OpaquePointer
    private let id: guint

    /// Subscribes on `connection` to `member` of `interface` (`nil`: any) from `sender` (a
    /// well-known or unique name; `nil`: anyone) at `path` (`nil`: any) whose first string
    /// argument is `arg0` (`nil`: any). `received` gets the sender's unique name, the object path
    /// and the body, which is of `bodyType` (such as `"(b)"`) and valid during the call only;
    /// `wrongBody` gets the sender and the type of a body that is not.
    public init(on connection: OpaquePointer, sender: String?, interface: String?, member: String?, path: String?, arg0: String? = nil,
                bodyType: String, received: @escaping (_ sender: String, _ path: String, _ body: OpaquePointer) -> Void,
                wrongBody: @escaping (_ sender: String, _ type: String) -> Void) {
        self.connection = connection
        g_object_ref(UnsafeMutableRawPointer(connection))
        let handlers = Unmanaged.passRetained(Handlers(bodyType, received: received, wrongBody: wrongBody)).toOpaque()
        id = g_dbus_connection_signal_subscribe(
            connection, sender, interface, member, path, arg0, G_DBUS_SIGNAL_FLAGS_NONE,
            { _, sender, path, _, _, parameters, userData in
                let handlers = Unmanaged<Handlers>.fromOpaque(userData!).takeUnretainedValue()
                let senderName = sender.map { String(cString: $0) } ?? ""
                guard let parameters, g_variant_is_of_type(parameters, handlers.bodyType) != 0 else {
                    let type = parameters.map { String(cString: g_variant_get_type_string($0)) } ?? "nothing"
                    return handlers.wrongBody(senderName, BusCallFailure.bounded(type))
                }
                handlers.received(senderName, path.map { String(cString: $0) } ?? "", parameters)
            },
            handlers,
            { userData in Unmanaged<Handlers>.fromOpaque(userData!).release() })
    }

    deinit {
        g_dbus_connection_signal_unsubscribe(connection, id)
        g_object_unref(UnsafeMutableRawPointer(connection))
    }
}
