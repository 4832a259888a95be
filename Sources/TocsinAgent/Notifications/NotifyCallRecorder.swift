import CGLib
import Synchronization

/// Keeps the arguments of the last `Notify` call libnotify sent while asked to, as the session
/// bus connection sent it, so that a countdown's next second can be sent as the same call with
/// only its text changed (`NotificationTick`) — without libnotify, whose show waits for the
/// server's answer.
///
/// Why the call as sent and not one made anew from the payload: libnotify adds to what Tocsin
/// sets (the `sender-pid` hint) and sends the buttons in the order of its own hash table, not the
/// order they were added; a call made anew would differ from the full shows between ticks, and a
/// server would redraw its buttons each second. Replaying the recorded call changes nothing but
/// the parts a tick changes.
///
/// A message filter on the connection sees every message; it looks only at outgoing method
/// calls. GDBus runs filters for outgoing messages on its own worker thread, in the order the
/// messages are sent, before they are written: when libnotify's synchronous show returns, the
/// call it made has been seen.
final class NotifyCallRecorder: Sendable {
    /// A `GVariant` reference: a recorded call's arguments, immutable once sent.
    final class Arguments: @unchecked Sendable {
        let variant: OpaquePointer
        init(retaining variant: OpaquePointer) { self.variant = g_variant_ref(variant) }
        deinit { g_variant_unref(variant) }
    }

    private struct State {
        var recording = false
        var last: Arguments?
    }

    private let state = Mutex(State())

    /// Starts watching `connection`'s outgoing messages. The recorder lives as long as the
    /// connection (the agent's whole life): the filter keeps a reference to it.
    init(watching connection: OpaquePointer) {
        let filter: GDBusMessageFilterFunction = { _, message, incoming, userData in
            guard incoming == 0, let message else { return message }
            Unmanaged<NotifyCallRecorder>.fromOpaque(userData!).takeUnretainedValue().saw(message)
            return message
        }
        g_dbus_connection_add_filter(connection, filter, Unmanaged.passRetained(self).toOpaque(), nil)
    }

    /// Calls `send` (a synchronous libnotify call) and returns its result with the arguments of
    /// the last `Notify` call sent during it, if one was.
    func recording<Result>(_ send: () -> Result) -> (Result, Arguments?) {
        state.withLock { $0 = State(recording: true, last: nil) }
        let result = send()
        let arguments = state.withLock { state -> Arguments? in
            defer { state = State() }
            return state.last
        }
        return (result, arguments)
    }

    /// An outgoing message (on GDBus's worker thread).
    private func saw(_ message: OpaquePointer) {
        guard g_dbus_message_get_message_type(message) == G_DBUS_MESSAGE_TYPE_METHOD_CALL,
              let member = g_dbus_message_get_member(message), String(cString: member) == "Notify",
              let interface = g_dbus_message_get_interface(message),
              String(cString: interface) == NotificationTick.interface,
              let body = g_dbus_message_get_body(message) else { return }
        state.withLock { state in
            guard state.recording else { return }
            state.last = Arguments(retaining: body)
        }
    }
}
