import CGLib
import GLibSupport
import TocsinCore

/// A countdown's tick: a `Notify` call made from the one last sent in full for the same
/// notification (recorded by `NotifyCallRecorder`), with only what a second changes replaced —
/// the id it replaces, the summary, the body, the `value` hint and the expiry — and sent without
/// waiting for the answer.
///
/// libnotify's show waits for the server's answer, so with 20 countdowns on screen each second's
/// 20 updates went out one after another, the last 251 and 284 ms after its second (p99, `bench/run
/// --quick --only countdowns`, load 1.7–1.8). Ticks go out together and each answer is taken
/// when it comes. Everything else (a first showing, a change of state, an alert, a close) still
/// goes through libnotify, whose notification object keeps receiving the buttons' signals: a
/// tick keeps its id and its buttons.
enum NotificationTick {
    static let destination = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"
    static let interface = "org.freedesktop.Notifications"
    /// How long an answer may take before the tick counts as failed: GDBus's default, which
    /// libnotify's own calls use too.
    static let timeoutMilliseconds: Int32 = 25_000

    /// The arguments of `recorded` (a `Notify` call's `(susssasa{sv}i)`) with `payload`'s
    /// summary, body, progress and expiry, replacing notification `serverID`: a new floating
    /// tuple, or `nil` when `recorded` is not a `Notify` call's arguments or was for other text
    /// than `recordedPayload`'s.
    static func arguments(replaying recorded: NotifyCallRecorder.Arguments, of recordedPayload: NotificationPayload,
                          as payload: NotificationPayload, serverID: UInt32) -> OpaquePointer? {
        let call = recorded.variant
        guard String(cString: g_variant_get_type_string(call)) == "(susssasa{sv}i)",
              Variant.string(in: call, at: 3) == recordedPayload.summary,
              Variant.string(in: call, at: 4) == recordedPayload.body else { return nil }
        let appName = Variant.child(call, 0), appIcon = Variant.child(call, 2), actions = Variant.child(call, 5)
        let hints = Variant.child(call, 6)
        defer { [appName, appIcon, actions, hints].forEach { g_variant_unref($0) } }
        return Variant.tuple([
            appName, g_variant_new_uint32(serverID), appIcon,
            g_variant_new_string(payload.summary), g_variant_new_string(payload.body), actions,
            replacingProgress(in: hints, with: payload.progress), g_variant_new_int32(payload.expiry.timeout),
        ])
    }

    /// `hints` (an `a{sv}`) with the `value` hint set to `progress`, when there is one: a new
    /// floating dictionary.
    private static func replacingProgress(in hints: OpaquePointer, with progress: Int?) -> OpaquePointer {
        var entries: [OpaquePointer?] = (0..<g_variant_n_children(hints)).map { index in
            g_variant_get_child_value(hints, index)
        }
        defer { entries.forEach { g_variant_unref($0) } }
        if let progress {
            for (index, entry) in entries.enumerated() where Variant.string(in: entry!, at: 0) == "value" {
                g_variant_unref(entry)
                entries[index] = g_variant_ref_sink(
                    g_variant_new_dict_entry(g_variant_new_string("value"), g_variant_new_variant(g_variant_new_int32(Int32(progress)))))
            }
        }
        return entries.withUnsafeBufferPointer { g_variant_new_array(Variant.type("{sv}"), $0.baseAddress, gsize($0.count)) }
    }

    /// Sends a tick's `arguments` on `connection`; `answered` runs on the calling thread's
    /// context with the id the server gave it (the one it replaced, unless the server had
    /// forgotten that one) or what went wrong (a reply that is not an id among it).
    static func send(_ arguments: OpaquePointer, on connection: OpaquePointer,
                     answered: @escaping (Result<UInt32, BusCallFailure>) -> Void) {
        BusCall.start(connection, destination: destination, path: path, interface: interface, method: "Notify",
                      arguments: arguments, replyType: "(u)", flags: G_DBUS_CALL_FLAGS_NONE, timeoutMilliseconds: timeoutMilliseconds) { result in
            answered(result.flatMap { reply in
                let child = Variant.child(reply, 0)
                defer { g_variant_unref(child) }
                let id = g_variant_get_uint32(child)
                // libnotify keeps a notification's id as a non-negative int: a larger one is not
                // an id it could hold, so the next content goes through libnotify in full.
                guard id <= UInt32(Int32.max) else { return .failure(.wrongValue(message: "the notification id \(id), beyond what libnotify holds")) }
                return .success(id)
            })
        }
    }
}
