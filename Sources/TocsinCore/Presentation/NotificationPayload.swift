import FoundationEssentials

/// What the notification server is sent for a piece of content, as that server should get it:
/// the decisions the presenter makes before handing a notification to libnotify, following the
/// server's `NotificationServerProfile`.
public struct NotificationPayload: Sendable, Equatable {
    /// The desktop entry every notification names (the `desktop-entry` hint): GNOME Shell and
    /// Plasma take the application's name and icon from it and list it in their settings.
    public static let desktopEntry = "io.github.tocsin.Agent"
    /// The icon, from the hicolor theme Tocsin installs (the `app_icon` argument).
    public static let iconName = "io.github.tocsin.Agent"

    /// Where the colour icon may be installed, best first, in each of `dataDirectories` (the
    /// XDG data directories, `XDGBaseDirectory.dataDirectories`): the scalable icon, then the
    /// largest bitmaps a theme may hold.
    public static func iconFileCandidates(in dataDirectories: [String]) -> [String] {
        let sizes = ["scalable/apps/\(iconName).svg", "256x256/apps/\(iconName).png", "128x128/apps/\(iconName).png",
                     "64x64/apps/\(iconName).png", "48x48/apps/\(iconName).png"]
        return dataDirectories.flatMap { directory in
            sizes.map { (directory.hasSuffix("/") ? directory : directory + "/") + "icons/hicolor/" + $0 }
        }
    }

    /// What the notification is for.
    public var role: NotificationContent.Role
    /// The summary line (never markup: the specification has it plain text).
    public var summary: String
    /// The body, escaped for a server that reads markup, with the command-line hint added for
    /// one that draws no buttons and the progress as text where the server draws no bar.
    public var body: String
    /// The buttons, in order.
    public var actions: [NotificationContent.Action]
    /// What a click on the notification does: sent as the action `default` (no server draws a
    /// button for it), reported back as this action's key; its label is the button's that does
    /// the same.
    public var defaultAction: NotificationContent.Action?
    /// The `urgency` hint.
    public var urgency: NotificationContent.Urgency
    /// The `category` hint: `x-tocsin.alarm` for a ringing alarm, `x-tocsin.timer` for a
    /// countdown, `x-tocsin.notice` and `x-tocsin.consent` for the rest.
    public var category: String
    /// When the server lets a notification go (its `expire_timeout`).
    public enum Expiry: Sendable, Equatable {
        /// It stays until Tocsin closes it (0).
        case never
        /// When the server decides (-1).
        case serverDefault
        /// After this many milliseconds, counted again from each update.
        case after(milliseconds: Int32)

        /// The `expire_timeout` the server is sent.
        public var timeout: Int32 {
            switch self {
            case .never: 0
            case .serverDefault: -1
            case .after(let milliseconds): milliseconds
            }
        }
    }

    /// The `resident` hint: a press on a button does not remove it.
    public var isPersistent: Bool
    /// When the server lets it go: a persistent notification never, except a countdown's popup
    /// on a server that must be told to let it go (`countdownPopup`).
    public var expiry: Expiry
    /// The `value` hint, percent elapsed, where the server draws it.
    public var progress: Int?
    /// The `transient` hint: the server lets the notification go with its banner (GNOME Shell
    /// 48's countdown banner, `BannerHandover`).
    public var isTransient = false
    /// The `image-path` hint: the colour icon's file, as a `file://` URI, where the server draws
    /// `app_icon` in one colour only (`NotificationServerProfile.drawsAppIconInOneColour`) and the
    /// file was found.
    public var imagePath: String?
    /// The `x-gnome-privacy-scope` hint: "system" lets GNOME Shell show the title and body on its
    /// lock screen (`NotificationContent.showsOnLockScreen`); `nil` leaves the hint out, and GNOME
    /// shows only "Tocsin" there.
    public var privacyScope: String?
    /// The `suppress-sound` hint: Tocsin rings itself through libcanberra, and a server's sound
    /// on top would ring twice. Always true.
    public let suppressesSound = true

    /// A let-go countdown's timeout once its popup has stayed its time: shorter than the second
    /// between two updates, so the popup expires between them; each update re-arms it.
    static let betweenUpdates: Int32 = 800

    /// The payload of `content` for a server of `profile`. `shownFor`: how long the notification
    /// has been on the server, which this replaces; `nil` when it is shown for the first time.
    /// `iconFile`: the installed colour icon's `file://` URI, when it was found.
    public init(_ content: NotificationContent, profile: NotificationServerProfile, shownFor: Duration? = nil, iconFile: String? = nil) {
        let isUpdate = shownFor != nil
        var body = content.body
        if profile.progress == .text, let progress = content.progress {
            body += "\n" + Self.textBar(percent: progress) + " done."
        }
        let defaultAction = !profile.takesDefaultAction ? nil
            : content.defaultIntent.flatMap { intent in content.actions.first { $0.key == intent.rawValue } }
        // Where there are no buttons, a click is the one thing to do with the mouse.
        let noButtons = !profile.drawsButtons || (profile.countdownShowsNoButtons && content.role == .countdown)
        // Sentences, as the body's own lines are, so that a server joining the lines reads
        // "…ends 21:49. Click to pause. Type tocsin pause 3f2b8c1e to pause, …".
        let click = noButtons ? defaultAction.map { "Click to \($0.label.lowercased())." } : nil
        let commands = profile.namesCommands && !content.actions.isEmpty ? content.commandLineHint : nil
        if click != nil || commands != nil {
            body += "\n" + [click, commands].compactMap { $0 }.joined(separator: " ")
        }
        role = content.role
        summary = content.summary
        self.body = profile.readsBodyMarkup ? Self.markupEscaped(body) : body
        actions = content.actions
        self.defaultAction = defaultAction
        if isUpdate, content.role == .countdown, let quieter = profile.countdownUpdateUrgency {
            urgency = quieter
        } else {
            urgency = content.urgency
        }
        category = switch content.role {
        case .alert: "x-tocsin.alarm"
        case .countdown, .paused: "x-tocsin.timer"
        case .notice: "x-tocsin.notice"
        case .consent: "x-tocsin.consent"
        }
        isPersistent = content.isPersistent
        if content.role == .countdown, let popup = profile.countdownPopup {
            let (seconds, attoseconds) = (popup - (shownFor ?? .zero)).components
            let left = seconds * 1000 + attoseconds / 1_000_000_000_000_000
            expiry = .after(milliseconds: Int32(max(left, Int64(Self.betweenUpdates))))
        } else {
            expiry = content.isPersistent ? .never : .serverDefault
        }
        progress = profile.progress == .valueHint ? content.progress : nil
        imagePath = profile.drawsAppIconInOneColour ? iconFile : nil
        privacyScope = content.showsOnLockScreen ? "system" : nil
    }

    /// Progress as ten cells, filled for each tenth elapsed: "■■■■□□□□□□ 40%".
    static func textBar(percent: Int) -> String {
        let clamped = min(100, max(0, percent))
        let filled = clamped / 10
        return String(repeating: "■", count: filled) + String(repeating: "□", count: 10 - filled) + " \(clamped)%"
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
