/// What a notification server says about itself: `GetServerInformation` and `GetCapabilities`.
public struct NotificationServerIdentity: Sendable, Equatable {
    /// The server's name ("dunst", "gnome-shell", "Plasma", "Xfce Notify Daemon", "mako").
    public var name: String
    /// Its vendor ("knopwob", "GNOME", "KDE", "Xfce", "emersion").
    public var vendor: String
    /// Its version ("1.9.0").
    public var version: String
    /// What it says it can do ("actions", "body-markup", "persistence"…).
    public var capabilities: Set<String>

    /// A server's self-description.
    public init(name: String, vendor: String, version: String, capabilities: Set<String>) {
        self.name = name
        self.vendor = vendor
        self.version = version
        self.capabilities = capabilities
    }
}

/// The notification servers whose ways Tocsin knows, each tried headless on the real server
/// (docs/DESKTOPS.md has what each showed).
public enum NotificationServerFamily: String, Sendable, CaseIterable {
    case gnomeShell = "GNOME Shell"
    case plasma = "KDE Plasma"
    case xfce = "xfce4-notifyd"
    case mako
    case dunst
    /// Any other server: presented conservatively.
    case other

    /// The family `identity` belongs to, by the name (and vendor) the server gives.
    public init(_ identity: NotificationServerIdentity) {
        let name = identity.name.lowercased(), vendor = identity.vendor.lowercased()
        self = switch name {
        case "gnome-shell": .gnomeShell
        case "plasma" where vendor == "kde", "plasma": .plasma
        case "xfce notify daemon", "xfce4-notifyd": .xfce
        case "mako": .mako
        case "dunst": .dunst
        default: .other
        }
    }
}

/// How Tocsin presents alarms on one notification server: every decision that differs between
/// servers, in one table (`init(for:)`), so the presenter and `tocsin doctor` follow the same rules.
public struct NotificationServerProfile: Sendable, Equatable {
    /// How a countdown's progress is shown.
    public enum ProgressStyle: String, Sendable {
        /// The `value` hint, drawn as a bar (dunst) or a fill (mako).
        case valueHint = "bar"
        /// A bar of characters in the body: xfce4-notifyd draws a `value` notification as a bare
        /// gauge, hiding its title, text and buttons.
        case text
        /// Not shown: the server ignores `value` (GNOME Shell, Plasma) and the time left says it.
        case none
    }

    /// Where a server keeps its do-not-disturb state: what the agent and `tocsin doctor` read.
    public enum DoNotDisturbSource: Sendable, Equatable {
        /// A boolean property of the object /org/freedesktop/Notifications (dunst's `paused`,
        /// Plasma's `Inhibited`); on when true.
        case serverProperty(interface: String, name: String)
        /// A boolean GSettings key (GNOME's `show-banners`); on when it is `onWhen`.
        case setting(schema: String, key: String, onWhen: Bool)
        /// mako's modes (`ListModes` on /fr/emersion/Mako); on while `mode` is among them.
        case makoMode(String)
        /// An xfconf property (xfce4-notifyd's `/do-not-disturb`); on when true, off when unset.
        case xfconf(channel: String, property: String)
    }

    /// How the server handles do-not-disturb, for alarms.
    public struct DoNotDisturbRule: Sendable, Equatable {
        /// Where it is read.
        public let source: DoNotDisturbSource
        /// The mechanism, as `tocsin doctor` names it ("dunst is paused").
        public let name: String
        /// Even critical alerts are hidden while it is on.
        public let hidesAlerts: Bool
        /// The server announces changes (a signal or property change); where it does not (mako),
        /// the state is asked again before it is reported.
        public let announcesChanges: Bool
    }

    /// The family the table was read for.
    public let family: NotificationServerFamily
    /// The server draws buttons a person can press. mako advertises `actions` and draws none.
    public let drawsButtons: Bool
    /// How progress is shown.
    public let progress: ProgressStyle
    /// The server reads markup in bodies (`body-markup`), so text must be escaped.
    public let readsBodyMarkup: Bool
    /// The body names the commands that do what the buttons do: where no buttons are drawn, and
    /// on servers not in the table, whose buttons nobody has seen.
    public let namesCommands: Bool
    /// The urgency of a countdown's per-second updates after the first showing, when it differs
    /// from the content's. GNOME Shell re-pops or keeps up a banner for every normal update and
    /// shows none for a low one, which still updates its entry in the message list. From 48 on,
    /// where a notification must keep its urgency, `bannerHandover` decides instead.
    public let countdownUpdateUrgency: NotificationContent.Urgency?
    /// A countdown updated every second shows no buttons (GNOME Shell rebuilds a banner's buttons
    /// with every update, so it never expands on hover): the body says what a click does.
    public let countdownShowsNoButtons: Bool
    /// The server is sent the `default` action (a click on the notification itself).
    /// xfce4-notifyd draws it as one more button, beside the one that does the same.
    public let takesDefaultAction: Bool
    /// An alert must be a new notification, not a replacement of the countdown's: GNOME Shell
    /// shows a replaced notification's banner without its buttons, and a click on it does nothing.
    public let alertNeedsNewNotification: Bool
    /// How long a countdown's popup stays before it is let go into the server's history, where
    /// it goes on counting down with working buttons; `nil` where the server lets a popup go by
    /// itself. Plasma keeps a popup up for as long as it is updated (a per-second countdown was
    /// pinned for its whole run, at 18 % of a core), and lets one go when its timeout, re-armed
    /// by each update, is shorter than the time to the next.
    public let countdownPopup: Duration?
    /// How soon after an update a dismissal may be a press the server lost to it, or `nil`
    /// where updates lose none. xfce4-notifyd destroys a notification's buttons with every
    /// update and draws new ones a frame later; a press that spans the update is released on
    /// the bubble, which closes it as dismissed. Measured on a per-second countdown: 3 of 25
    /// clicks (presses held 120 ms) were lost so, each closed 20–77 ms after the server answered
    /// the update; every click it took came 147 ms or more after one. A press held longer is
    /// lost later (closed 322 ms after the update when held across it), but a person's click
    /// lasts about a tenth of a second, so its lost release comes within this window.
    public let pressesLostToUpdates: Duration?
    /// Do-not-disturb on this server, or `nil` where Tocsin cannot read it.
    public let doNotDisturb: DoNotDisturbRule?
    /// GNOME Shell 48 and later: a notification keeps the urgency it was created with, and a
    /// countdown's banner is handed over to a quiet notification in the message list once the
    /// shell lets it go, or after this long at most (`BannerHandover`); `nil` elsewhere. Its
    /// message list, grouped by application, loses an entry whose urgency changes between low and
    /// normal (48.7). The shell's own time for a banner is 4 s, longer while the pointer rests on
    /// it or the session is idle, and none with banners off; this is long enough to read one and
    /// click it, and short enough that a held-back time is not shown for long.
    public let bannerHandover: Duration?
    /// The server draws `app_icon` (and the desktop entry's icon) only in one colour, as a
    /// symbolic icon: GNOME Shell. Tocsin's symbolic icon is a plain bell, which reads as
    /// anyone's; the colour icon's file goes as the `image-path` hint, which it draws as it is.
    /// Plasma draws the desktop entry's icon in colour (an image would show it twice), xfce4-notifyd,
    /// dunst and mako draw `app_icon` in colour.
    public let drawsAppIconInOneColour: Bool

    /// The profile for `identity`'s server.
    public init(for identity: NotificationServerIdentity) {
        family = NotificationServerFamily(identity)
        let advertisesButtons = identity.capabilities.contains("actions")
        readsBodyMarkup = identity.capabilities.contains("body-markup")
        // mako advertises buttons and draws none.
        drawsButtons = advertisesButtons && family != .mako
        progress = switch family {
        case .dunst, .mako: .valueHint
        case .xfce, .other: .text
        case .gnomeShell, .plasma: .none
        }
        countdownUpdateUrgency = family == .gnomeShell ? .low : nil
        doNotDisturb = switch family {
        case .dunst:
            DoNotDisturbRule(source: .serverProperty(interface: "org.dunstproject.cmd0", name: "paused"),
                             name: "dunst is paused", hidesAlerts: true, announcesChanges: true)
        case .mako:
            DoNotDisturbRule(source: .makoMode("do-not-disturb"), name: "mako's do-not-disturb mode", hidesAlerts: true, announcesChanges: false)
        case .xfce:
            DoNotDisturbRule(source: .xfconf(channel: "xfce4-notifyd", property: "/do-not-disturb"),
                             name: "xfce4-notifyd's do not disturb", hidesAlerts: false, announcesChanges: true)
        case .gnomeShell:
            DoNotDisturbRule(source: .setting(schema: "org.gnome.desktop.notifications", key: "show-banners", onWhen: false),
                             name: "GNOME's do not disturb (banners off)", hidesAlerts: false, announcesChanges: true)
        case .plasma:
            DoNotDisturbRule(source: .serverProperty(interface: "org.freedesktop.Notifications", name: "Inhibited"),
                             name: "Plasma's do not disturb", hidesAlerts: false, announcesChanges: true)
        case .other:
            nil
        }
        namesCommands = !drawsButtons || family == .other
        countdownShowsNoButtons = family == .gnomeShell
        alertNeedsNewNotification = family == .gnomeShell
        takesDefaultAction = family != .xfce
        countdownPopup = family == .plasma ? .seconds(5) : nil
        pressesLostToUpdates = family == .xfce ? .milliseconds(250) : nil
        let major = Int(identity.version.prefix { $0.isNumber }) ?? 0
        bannerHandover = family == .gnomeShell && major >= 48 ? .seconds(10) : nil
        drawsAppIconInOneColour = family == .gnomeShell
    }

    /// The profile used until the server has answered: a server not in the table that says it
    /// draws buttons and reads markup, as most do (so the first notification's text is escaped).
    public static let unknown = NotificationServerProfile(
        for: NotificationServerIdentity(name: "", vendor: "", version: "", capabilities: ["actions", "body-markup"]))
}
