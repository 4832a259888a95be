import CGLib
import GLibSupport

/// The system bus, reached without waiting: connecting to a bus means an exchange with its
/// daemon, and a system bus daemon that hangs (or a socket no one serves) must not hold up the
/// agent's start-up, and with it the first ring.
public enum SystemBus {
    /// Connects to the system bus (`address` `nil`) or to the bus at `address` (a test's), and
    /// calls `completion` on the calling thread's thread-default main context with the
    /// connection or the error.
    public static func connect(address: String?, _ completion: @escaping (Result<SystemBusConnection, GLibError>) -> Void) {
        let box = Unmanaged.passRetained(Completion(completion, isShared: address == nil)).toOpaque()
        let finish: GAsyncReadyCallback = { _, result, userData in
            let completion = Unmanaged<Completion>.fromOpaque(userData!).takeRetainedValue()
            do throws(GLibError) {
                let connection = try GLibError.check { error in
                    completion.isShared ? g_bus_get_finish(result, error) : g_dbus_connection_new_for_address_finish(result, error)
                }
                guard let connection else { return completion.body(.failure(GLibError(message: "no connection"))) }
                completion.body(.success(SystemBusConnection(taking: connection, isShared: completion.isShared)))
            } catch {
                completion.body(.failure(error))
            }
        }
        if let address {
            let flags = GDBusConnectionFlags(G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
            g_dbus_connection_new_for_address(address, flags, nil, nil, finish, box)
        } else {
            g_bus_get(G_BUS_TYPE_SYSTEM, nil, finish, box)
        }
    }

    private final class Completion {
        let body: (Result<SystemBusConnection, GLibError>) -> Void
        let isShared: Bool
        init(_ body: @escaping (Result<SystemBusConnection, GLibError>) -> Void, isShared: Bool) {
            self.body = body
            self.isShared = isShared
        }
    }
}

/// A connection to the system bus (or a test's stand-in for it), let go when released: the
/// process's shared connection is only unreferenced, a connection of its own is also closed.
public final class SystemBusConnection {
    /// The `GDBusConnection`.
    public let pointer: OpaquePointer
    private let isShared: Bool

    init(taking pointer: OpaquePointer, isShared: Bool) {
        self.pointer = pointer
        self.isShared = isShared
        // The agent goes on without the system bus if it goes away, rather than exit with it.
        g_dbus_connection_set_exit_on_close(pointer, 0)
    }

    deinit {
        if !isShared { g_dbus_connection_close(pointer, nil, nil, nil) }
        g_object_unref(UnsafeMutableRawPointer(pointer))
    }
}
