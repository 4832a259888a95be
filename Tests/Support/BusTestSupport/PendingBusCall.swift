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
        AsyncBusCall.start(connection, destination: destination, path: path, interface: interface, method: method,
                           arguments: arguments, flags: G_DBUS_CALL_FLAGS_NONE, timeoutMilliseconds: timeoutMilliseconds) { [self] reply, error in
            if let reply {
                let printed = g_variant_print(reply, 0)!
                self.reply = String(cString: printed)
                g_free(printed)
            }
            self.error = error.map { "\($0.remoteName ?? ""): \($0.message)" }
        }
    }
}
