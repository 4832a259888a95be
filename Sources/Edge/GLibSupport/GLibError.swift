import CGLib

/// A `GError` turned into a Swift error, keeping the D-Bus error name when it came from a peer.
///
/// The one place a `GError` becomes a Swift error: every GLib call that reports failure through
/// a `GError**` goes through `check(_:)` (or, inside this module, `init(consuming:)`), so none
/// is leaked or read by hand. What a failure means to Tocsin (a D-Bus name of the agent's, the
/// agent out of reach) is read from this by its users, e.g. TocsinKit's `TocsinError(failedCall:)`.
public struct GLibError: Error, Sendable, CustomStringConvertible {
    /// The D-Bus error name (`io.github.tocsin.Error.NotFound`, `org.freedesktop.DBus.Error.ServiceUnknown`…), if any.
    public let remoteName: String?
    /// The message, with GDBus's `GDBus.Error:name: ` prefix removed.
    public let message: String
    /// The GError domain's code.
    public let code: Int32
    /// True when the error is GIO's "timed out" (a D-Bus call that got no reply in time).
    public let isTimeout: Bool
    /// True when the error is GIO's "invalid argument", which GDBus gives a reply that is not of
    /// the type the call stated.
    public let isInvalidArgument: Bool
    /// True when the error is GIO's "closed": the connection the call went out on is gone.
    public let isClosed: Bool

    /// Takes ownership of `error` and frees it.
    public init(consuming error: UnsafeMutablePointer<GError>) {
        if let name = g_dbus_error_get_remote_error(error) {
            remoteName = String(cString: name)
            g_free(name)
            g_dbus_error_strip_remote_error(error)
        } else {
            remoteName = nil
        }
        message = error.pointee.message.map { String(cString: $0) } ?? "unknown error"
        code = error.pointee.code
        let isIOError = error.pointee.domain == g_io_error_quark()
        isTimeout = isIOError && error.pointee.code == Int32(G_IO_ERROR_TIMED_OUT.rawValue)
        isInvalidArgument = isIOError && error.pointee.code == Int32(G_IO_ERROR_INVALID_ARGUMENT.rawValue)
        isClosed = isIOError && error.pointee.code == Int32(G_IO_ERROR_CLOSED.rawValue)
        g_error_free(error)
    }

    /// An error made on the Swift side.
    public init(message: String, remoteName: String? = nil) {
        self.remoteName = remoteName
        self.message = message
        self.code = 0
        self.isTimeout = false
        self.isInvalidArgument = false
        self.isClosed = false
    }

    public var description: String { message }

    /// Calls a GLib function that reports failure through a `GError**`, throwing what it reports.
    public static func check<Result>(_ call: (UnsafeMutablePointer<UnsafeMutablePointer<GError>?>) -> Result) throws(GLibError) -> Result {
        var error: UnsafeMutablePointer<GError>?
        let result = call(&error)
        if let error { throw GLibError(consuming: error) }
        return result
    }
}
