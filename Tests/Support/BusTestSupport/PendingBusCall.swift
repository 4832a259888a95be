import CGLib
import GLibSupport

/// A method call made the way a real client makes it — without waiting — and what came back,
/// for tests that hold the answer back on the other side and look whether it came.
public final class PendingBusCall: CustomStringConvertible {
    /// The reply as `g_variant_print` writes it, once one came.
    public private(set) var reply: String?
    /// The error as "D-Bus error name: message", once one came.
    public private(set) var error: String?
    /// True once a reply or an error came.
    public var came: Bool { reply != nil || error != nil }
    /// What came, for a failed expectation's message.
    public var description: String { reply ?? error ?? "nothing" }

    /// Calls `interface.method` of `destination` at `path` on `connection` with `arguments` (a
    /// floating tuple); the answer is read as the calling thread's main context runs.
    public init(on connection: OpaquePointer, to destination: String, path: String, interface: String, method: String,
                arguments: OpaquePointer, timeoutMilliseconds: Int32 = 5000) {
        // Whatever comes back is printed as it is: the test is the one checking it, so no reply
        // type is stated.
        g_dbus_connection_call(connection, destination, path, interface, method, arguments, nil, G_DBUS_CALL_FLAGS_NONE,
                               timeoutMilliseconds, nil, { source, result, userData in
            let call = Unmanaged<PendingBusCall>.fromOpaque(userData!).takeRetainedValue()
            do throws(GLibError) {
                let reply = try GLibError.check { g_dbus_connection_call_finish(OpaquePointer(source), result, $0) }
                if let reply {
                    let printed = g_variant_print(reply, 0)!
                    call.reply = String(cString: printed)
                    g_free(printed)
                    g_variant_unref(reply)
                }
            } catch {
                call.error = "\(error.remoteName ?? ""): \(error.message)"
            }
        }, Unmanaged.passRetained(self).toOpaque())
    }
}
