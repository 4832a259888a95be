import FoundationEssentials

/// What the notification server is sent for a piece of content, as that server should get it:
/// the decisions the presenter makes before handing a notification to libnotify.
public struct NotificationPayload: Sendable, Equatable {
    /// The summary line (never markup: the specification has it plain text).
    public var summary: String
    /// The body, escaped for a server that reads markup, with the command-line hint added for
    /// one that draws no buttons.
    public var body: String
    /// The buttons, in order.
    public var actions: [NotificationContent.Action]
    /// The `urgency` hint.
    public var urgency: NotificationContent.Urgency
    /// The `category` hint: `x-tocsin.alarm` for a ringing alarm, `x-tocsin.timer` otherwise.
    public var category: String
    /// The `resident` hint and a timeout of "never": it stays until Tocsin removes it.
    public var isPersistent: Bool
    /// The `value` hint, percent elapsed.
    public var progress: Int?
    /// The `suppress-sound` hint: Tocsin rings itself through libcanberra, and a server's sound
    /// on top would ring twice. Always true.
    public let suppressesSound = true

    /// The payload of `content` for a server with `capabilities` (GetCapabilities).
    public init(_ content: NotificationContent, capabilities: Set<String>) {
        var body = content.body
        if !capabilities.contains("actions"), !content.actions.isEmpty, let hint = content.commandLineHint {
            body += "\n" + hint
        }
        self.summary = content.summary
        self.body = capabilities.contains("body-markup") ? Self.markupEscaped(body) : body
        self.actions = content.actions
        self.urgency = content.urgency
        self.category = content.urgency == .critical ? "x-tocsin.alarm" : "x-tocsin.timer"
        self.isPersistent = content.isPersistent
        self.progress = content.progress
    }

    /// `text` with the characters markup gives meaning to written as entities, so a title such as
    /// "<b>Tea</b>" is shown as written (what `g_markup_escape_text` does).
    public static func markupEscaped(_ text: String) -> String {
        var escaped = ""
        escaped.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "'": escaped += "&#39;"
            case "\"": escaped += "&quot;"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
