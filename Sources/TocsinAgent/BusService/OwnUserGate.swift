import CGLib
import TocsinCore

/// The one way a call to the agent's other objects (the tray item, the lock screen, the ringing
/// media player) gets to act: only the user's own programs may, and the call is answered only
/// once the bus has said who made it.
///
/// Those objects answer anyone who reads them (a panel or a lock screen may run under another
/// user on a shared bus), so each press is checked. The order matters: answered first, a
/// caller that leaves as soon as it has its answer (`gdbus call`, `playerctl`, `busctl`, a
/// script) was gone before the bus could give its credentials, and its press was taken for a
/// stranger's. That was found and mended three times, one handler at a time: the lock screen's
/// Press (the clean-clone run at 7b740dc), the media player's controls, and the tray's menu (the
/// stop's CI run at 8659f31). Here the gate holds the invocation, so no handler can answer early.
struct OwnUserGate {
    /// Asks whether `sender` is one of the user's own programs and calls `answer` when it knows,
    /// without waiting (the agent asks the bus daemon asynchronously).
    typealias Question = (_ sender: String, _ answer: @escaping (_ own: Bool) -> Void) -> Void

    /// The D-Bus error another user's program gets.
    struct Refusal {
        let errorName: String
        let message: String

        /// `org.freedesktop.DBus.Error.AccessDenied` with `message`: for interfaces that are not
        /// Tocsin's own (StatusNotifierItem, dbusmenu, MPRIS), which declare no errors.
        static func accessDenied(_ message: String) -> Refusal {
            Refusal(errorName: "org.freedesktop.DBus.Error.AccessDenied", message: message)
        }

        /// Tocsin's own `error`, for its own interfaces, whose XML names their errors.
        init(_ error: TocsinError) {
            self.init(errorName: error.dbusErrorName, message: error.message)
        }

        private init(errorName: String, message: String) {
            self.errorName = errorName
            self.message = message
        }
    }

    private let isOwnUser: Question

    /// A gate that lets through the senders `isOwnUser` accepts.
    init(isOwnUser: @escaping Question) {
        self.isOwnUser = isOwnUser
    }

    /// Answers `invocation`, made by `sender`, once the bus has said who that is. The user's own
    /// program gets `reply` (an empty reply for `nil`), and then `act` runs; any other program
    /// gets `refusal`, `refused` runs (to say so in the log), and `act` never does. The
    /// invocation is answered exactly once either way, and `reply` is taken over (a floating
    /// one is freed when it is not sent).
    func answer(_ invocation: OpaquePointer, from sender: String, with reply: OpaquePointer? = nil,
                refusing refusal: Refusal, refused: @escaping () -> Void, then act: @escaping () -> Void) {
        isOwnUser(sender) { own in
            guard own else {
                if let reply { g_variant_unref(g_variant_ref_sink(reply)) }
                refused()
                g_dbus_method_invocation_return_dbus_error(invocation, refusal.errorName, refusal.message)
                return
            }
            g_dbus_method_invocation_return_value(invocation, reply)
            act()
        }
    }
}
