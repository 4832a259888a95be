import CGLib

/// One D-Bus method call that does not wait: the agent's way of asking peers (the notification
/// server, an application, KDE Connect) that may be slow, busy or gone, without holding up
/// the main loop.
public enum AsyncBusCall {
    private final class ReplyBox {
        let completion: (OpaquePointer?, GLibError?) -> Void
        init(_ completion: @escaping (OpaquePointer?, GLibError?) -> Void) { self.completion = completion }
    }

    /// Calls `interface.method` of `destination` at `path` with `arguments` (a floating tuple,
    /// or `nil`), with `flags` and a timeout of `timeoutMilliseconds`. `completion` runs on the
    /// calling thread's main context with the reply (valid during the completion only) or the error.
    public static func start(_ connection: OpaquePointer, destination: String, path: String, interface: String, method: String,
                             arguments: OpaquePointer?, flags: GDBusCallFlags, timeoutMilliseconds: Int32,
                             completion: @escaping (_ reply: OpaquePointer?, _ error: GLibError?) -> Void) {
        g_dbus_connection_call(
            connection, destination, path, interface, method, arguments, nil, flags, timeoutMilliseconds, nil,
            { source, result, userData in
                let completion = Unmanaged<ReplyBox>.fromOpaque(userData!).takeRetainedValue().completion
                do throws(GLibError) {
                    let reply = try GLibError.check { g_dbus_connection_call_finish(OpaquePointer(source), result, $0) }
                    defer { if let reply { g_variant_unref(reply) } }
                    completion(reply, nil)
                } catch {
                    completion(nil, error)
                }
            },
            Unmanaged.passRetained(ReplyBox(completion)).toOpaque())
    }
}
