import Foundation

/// A notification as the notification server received it: one `Notify` call on the session bus,
/// with the id the server returned.
public struct ObservedNotification: Sendable, Equatable, CustomStringConvertible {
    /// The id the server returned. An update sent with `replacesID` keeps the id it replaces.
    public let id: UInt32
    /// The `replaces_id` argument of the call (0 for a new notification).
    public let replacesID: UInt32
    /// The application name argument.
    public let appName: String
    /// The icon argument (a name or a path; often empty).
    public let appIcon: String
    /// The summary (title).
    public let summary: String
    /// The body text.
    public let body: String
    /// The buttons, in the order the application listed them: every action but `default`,
    /// which no server draws as a button.
    public let actions: [NotificationAction]
    /// The `default` action, what a click on the notification itself invokes, if it has one.
    public let defaultAction: NotificationAction?
    /// Every hint, rendered as text: booleans as `true`/`false`, numbers in decimal, strings as
    /// they are, anything else (e.g. image data) as compact JSON.
    public let hints: [String: String]
    /// The `urgency` hint (0 low, 1 normal, 2 critical), if present.
    public let urgency: Int?
    /// The `value` hint (progress, 0–100), if present.
    public let value: Int?
    /// The expire timeout argument in milliseconds (-1: server default, 0: never).
    public let expireTimeout: Int32
    /// When the bus monitor saw the call (the time the user would see it, within a few ms).
    public let receivedAt: Date
    /// The unique bus name of the client that sent it (e.g. ":1.7").
    public let sender: String

    /// Creates an observation (normally made by the session's bus monitor).
    public init(
        id: UInt32, replacesID: UInt32, appName: String, appIcon: String, summary: String, body: String,
        actions: [NotificationAction], hints: [String: String], urgency: Int?, value: Int?,
        expireTimeout: Int32, receivedAt: Date, sender: String
    ) {
        self.id = id
        self.replacesID = replacesID
        self.appName = appName
        self.appIcon = appIcon
        self.summary = summary
        self.body = body
        self.actions = actions.filter { $0.key != Self.defaultActionKey }
        defaultAction = actions.first { $0.key == Self.defaultActionKey }
        self.hints = hints
        self.urgency = urgency
        self.value = value
        self.expireTimeout = expireTimeout
        self.receivedAt = receivedAt
        self.sender = sender
    }

    /// The key the specification gives the click on a notification.
    public static let defaultActionKey = "default"

    /// The action with this button label, if the notification has one.
    public func action(labeled label: String) -> NotificationAction? {
        actions.first { $0.label == label }
    }

    /// Whether the boolean hint `key` is present and true (e.g. "resident", "suppress-sound").
    public func hasTrueHint(_ key: String) -> Bool { hints[key] == "true" }

    /// A one-line summary for test failure messages.
    public var description: String {
        let actionList = ((defaultAction.map { [$0] } ?? []) + actions).map { "\($0.key)=\($0.label)" }.joined(separator: ",")
        let hintList = hints.keys.sorted().map { "\($0)=\(hints[$0] ?? "")" }.joined(separator: ",")
        return "#\(id) [\(appName)] \"\(summary)\" / \"\(body)\" actions[\(actionList)] hints[\(hintList)]"
            + " timeout \(expireTimeout)" + (replacesID != 0 ? " replaces \(replacesID)" : "")
    }
}

/// One action button of a notification.
public struct NotificationAction: Sendable, Equatable, Hashable {
    /// The key sent back in `ActionInvoked` (e.g. "pause").
    public let key: String
    /// The label the user sees (e.g. "Pause").
    public let label: String

    /// Creates an action.
    public init(key: String, label: String) {
        self.key = key
        self.label = label
    }
}

/// A notification going away, as seen on the bus.
public struct NotificationClosure: Sendable, Equatable {
    /// How the closing was seen.
    public enum Source: Sendable, Equatable {
        /// A client called `CloseNotification`.
        case closeCall
        /// The server emitted `NotificationClosed` with this reason
        /// (1 expired, 2 dismissed by the user, 3 closed by a call, 4 undefined).
        case closedSignal(reason: UInt32)
    }

    /// The server id of the notification.
    public let id: UInt32
    /// Call or signal.
    public let source: Source
    /// When the bus monitor saw it.
    public let at: Date
}

/// An `ActionInvoked` signal: the server reporting that the user chose an action.
public struct InvokedAction: Sendable, Equatable {
    /// The server id of the notification.
    public let notificationID: UInt32
    /// The action key.
    public let actionKey: String
    /// When the bus monitor saw the signal.
    public let at: Date
}
