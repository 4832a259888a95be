import Foundation

/// Turns the bus monitor's JSON lines (`busctl monitor --json=short`, one message per line) into
/// what happened to notifications: Notify calls paired with the id the server returned,
/// closings, and invoked actions.
///
/// A Notify call's id only exists in the server's reply, so calls wait in `pendingCalls` until a
/// `method_return` arrives whose `reply_cookie` is the call's cookie and whose destination is the
/// caller (cookies are numbered per connection, so the pair identifies the call). A Notify sent
/// without expecting a reply (flag NO_REPLY_EXPECTED) gets none: when it replaces a notification
/// it is recorded at once under the id it replaces, which the specification says a replacement
/// keeps; otherwise its id is unknowable and it is recorded as id 0.
struct NotificationTraffic: Sendable {
    private(set) var notifications: [ObservedNotification] = []
    private(set) var closures: [NotificationClosure] = []
    private(set) var invokedActions: [InvokedAction] = []
    /// Notify calls that the server answered with an error (malformed call, no server…).
    private(set) var rejectedCalls: [String] = []

    private struct CallKey: Hashable, Sendable {
        let caller: String
        let cookie: Int64
    }

    private struct PendingNotify: Sendable {
        let arguments: [JSONValue]
        let sender: String
        let at: Date
    }

    private var pendingCalls: [CallKey: PendingNotify] = [:]

    private static let notificationsInterface = "org.freedesktop.Notifications"
    /// The D-Bus header flag of a call whose sender wants no reply.
    private static let noReplyExpected: Int64 = 0x1

    /// Consumes one line of monitor output; lines about anything else are skipped cheaply.
    mutating func consume(line: Substring) {
        // Decoding JSON costs far more than a substring check, and most bus traffic is unrelated.
        let isReply = line.contains("\"type\":\"method_return\"") || line.contains("\"type\":\"error\"")
        let mentionsNotifications = line.contains(Self.notificationsInterface)
        guard mentionsNotifications || (isReply && !pendingCalls.isEmpty) else { return }
        guard let message = try? JSONDecoder().decode(JSONValue.self, from: Data(line.utf8)) else { return }
        consume(message: message)
    }

    private mutating func consume(message: JSONValue) {
        let type = message["type"]?.string ?? ""
        let at = Self.timestamp(of: message)
        let payload = message["payload"]?["data"]?.array ?? []

        switch type {
        case "method_return", "error":
            guard let destination = message["destination"]?.string,
                  let replyCookie = message["reply_cookie"]?.int64,
                  let call = pendingCalls.removeValue(forKey: CallKey(caller: destination, cookie: replyCookie))
            else { return }
            if type == "method_return", let id = payload.first?.int64.flatMap(UInt32.init(exactly:)) {
                notifications.append(Self.notification(id: id, call: call))
            } else {
                let summary = call.arguments.count > 3 ? call.arguments[3].string ?? "" : ""
                rejectedCalls.append("\"\(summary)\": \(message["error_name"]?.string ?? type)")
            }

        case "method_call" where message["interface"]?.string == Self.notificationsInterface:
            switch message["member"]?.string {
            case "Notify":
                guard let sender = message["sender"]?.string, let cookie = message["cookie"]?.int64 else { return }
                let call = PendingNotify(arguments: payload, sender: sender, at: at)
                if (message["flags"]?.int64 ?? 0) & Self.noReplyExpected != 0 {
                    let replaced = (payload.count > 1 ? payload[1].int64 : nil).flatMap(UInt32.init(exactly:)) ?? 0
                    notifications.append(Self.notification(id: replaced, call: call))
                } else {
                    pendingCalls[CallKey(caller: sender, cookie: cookie)] = call
                }
            case "CloseNotification":
                if let id = payload.first?.int64.flatMap(UInt32.init(exactly:)) {
                    closures.append(NotificationClosure(id: id, source: .closeCall, at: at))
                }
            default:
                return
            }

        case "signal" where message["interface"]?.string == Self.notificationsInterface:
            guard let id = payload.first?.int64.flatMap(UInt32.init(exactly:)) else { return }
            switch message["member"]?.string {
            case "NotificationClosed":
                let reason = payload.count > 1 ? payload[1].int64.flatMap(UInt32.init(exactly:)) ?? 0 : 0
                closures.append(NotificationClosure(id: id, source: .closedSignal(reason: reason), at: at))
            case "ActionInvoked":
                invokedActions.append(InvokedAction(
                    notificationID: id, actionKey: payload.count > 1 ? payload[1].string ?? "" : "", at: at))
            default:
                return
            }

        default:
            return
        }
    }

    /// Builds the observation from the arguments of Notify (signature `susssasa{sv}i`).
    private static func notification(id: UInt32, call: PendingNotify) -> ObservedNotification {
        let arguments = call.arguments
        func string(_ index: Int) -> String { index < arguments.count ? arguments[index].string ?? "" : "" }

        let flatActions = (arguments.count > 5 ? arguments[5].array ?? [] : []).map { $0.string ?? "" }
        // The actions argument alternates key, label.
        let actions = stride(from: 0, to: flatActions.count - 1, by: 2).map {
            NotificationAction(key: flatActions[$0], label: flatActions[$0 + 1])
        }

        var hints: [String: String] = [:]
        var integerHints: [String: Int64] = [:]
        for (key, variant) in (arguments.count > 6 ? arguments[6].object ?? [:] : [:]) {
            hints[key] = render(variant: variant)
            if let number = variant["data"]?.int64 { integerHints[key] = number }
        }

        return ObservedNotification(
            id: id,
            replacesID: (arguments.count > 1 ? arguments[1].int64 : nil).flatMap(UInt32.init(exactly:)) ?? 0,
            appName: string(0),
            appIcon: string(2),
            summary: string(3),
            body: string(4),
            actions: actions,
            hints: hints,
            urgency: integerHints["urgency"].map { Int($0) },
            value: integerHints["value"].map { Int($0) },
            expireTimeout: (arguments.count > 7 ? arguments[7].int64 : nil).flatMap(Int32.init(exactly:)) ?? -1,
            receivedAt: call.at,
            sender: call.sender)
    }

    /// A hint variant (`{"type": "b", "data": true}`) as text.
    private static func render(variant: JSONValue) -> String {
        guard let data = variant["data"] else { return variant.jsonText }
        if case .string(let text) = data { return text }
        return data.jsonText
    }

    /// The monitor's wall-clock timestamp of the message (microseconds since 1970).
    private static func timestamp(of message: JSONValue) -> Date {
        guard let microseconds = message["timestamp-realtime"]?.int64 else { return Date() }
        return Date(timeIntervalSince1970: TimeInterval(microseconds) / 1_000_000)
    }
}
