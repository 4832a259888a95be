import CGLib
import Synchronization

/// Says when a large message came in on a bus connection, so that the memory it took can be
/// handed back once it is freed.
///
/// Any program on the bus can send a reply or a signal of megabytes (a 10,000-element array of
/// 100 kB strings), which GDBus reads in whole before anyone checks it. The memory is freed
/// after, but glibc keeps it: in the neighbour fuzzer the agent's resident memory stepped from
/// 42 to 60 MB at one such message and stayed there, and a `malloc_trim` gave back 29 MB.
/// The check is a GDBus filter on the connection's worker thread that reads each incoming
/// message's size; `onLarge` runs on the main context that was the thread-default where the
/// watch was made, at most once until it has run.
public final class LargeMessageWatch: @unchecked Sendable {
    // @unchecked: `onLarge` is only called on `back`'s context; the filter's thread reads only
    // `threshold` and the atomic flag.
    private let connection: OpaquePointer
    private let threshold: Int
    private let back = ReturnContext()
    private let onLarge: () -> Void
    private let posted = Atomic<Bool>(false)
    private var filter: guint = 0

    /// Watches `connection` for incoming messages whose body takes more than `threshold` bytes.
    public init(on connection: OpaquePointer, threshold: Int = 256 * 1024, onLarge: @escaping () -> Void) {
        self.connection = connection
        self.threshold = threshold
        self.onLarge = onLarge
        g_object_ref(UnsafeMutableRawPointer(connection))
        filter = g_dbus_connection_add_filter(connection, { _, message, incoming, userData in
            let watch = Unmanaged<LargeMessageWatch>.fromOpaque(userData!).takeUnretainedValue()
            if incoming != 0, let message, let body = g_dbus_message_get_body(message), Int(g_variant_get_size(body)) > watch.threshold {
                watch.noteLargeMessage()
            }
            return message
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    deinit {
        g_dbus_connection_remove_filter(connection, filter)
        g_object_unref(UnsafeMutableRawPointer(connection))
    }

    private func noteLargeMessage() {
        guard !posted.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let watch = Unmanaged.passRetained(self)
        back.post {
            let watch = watch.takeRetainedValue()
            watch.posted.store(false, ordering: .releasing)
            watch.onLarge()
        }
    }
}
