import FoundationEssentials

/// What Tocsin's tray item (a StatusNotifierItem with a com.canonical.dbusmenu menu) shows while
/// something counts down, is paused or rings: its icon, label, tooltip and menu. Pure, built
/// from the same `PanelSummary` as every other panel; the agent's `TrayItem` puts it on the bus.
public struct TrayContent: Equatable, Sendable {
    /// StatusNotifierItem's `Status`.
    public enum Status: String, Sendable {
        case active = "Active"
        case needsAttention = "NeedsAttention"
    }

    /// What a menu entry does when clicked.
    public enum Action: Hashable, Sendable {
        /// An intent on an alarm, as its notification button would.
        case intent(AlarmIntent, UUID)
        /// A new timer of this many seconds.
        case newTimer(TimeInterval)
        /// Stop every alarm that rings.
        case stopAllRinging
    }

    /// One menu entry: a stable `key` (what the host's events name, through the menu's ids),
    /// its label, and what it does, or its submenu.
    public struct MenuItem: Equatable, Sendable {
        public var key: String
        public var label: String
        public var isEnabled: Bool
        public var isSeparator: Bool
        public var action: Action?
        public var children: [MenuItem]

        /// An entry.
        public init(key: String, label: String, isEnabled: Bool = true, isSeparator: Bool = false, action: Action? = nil, children: [MenuItem] = []) {
            self.key = key
            self.label = label
            self.isEnabled = isEnabled
            self.isSeparator = isSeparator
            self.action = action
            self.children = children
        }

        /// A separator line.
        public static func separator(_ key: String) -> MenuItem { MenuItem(key: key, label: "", isEnabled: false, isSeparator: true) }
    }

    /// The lengths "New timer" offers, in minutes.
    public static let newTimerMinutes = [1, 3, 5, 10, 15, 30]
    /// The icon theme names of the item's states (installed in hicolor with Tocsin).
    public static let iconNames: [PanelSummary.Status: String] = [
        .countdown: "io.github.tocsin.Agent-countdown-symbolic",
        .paused: "io.github.tocsin.Agent-paused-symbolic",
        .ringing: "io.github.tocsin.Agent-ringing-symbolic",
    ]

    public var status: Status
    public var iconName: String
    /// The item's title and the tooltip's title: what the featured alarm is doing, in words
    /// that change with its state, not each second ("Tocsin: Pasta, paused").
    public var title: String
    /// The label panels that draw one show beside the icon (`XAyatanaLabel`): "Pasta 2:59".
    public var label: String
    /// The tooltip's text: a line per alarm on screen.
    public var tooltip: String
    /// Whether a click opens the menu; not while something rings, when a click stops it.
    public var itemIsMenu: Bool
    /// The menu: for each alarm on screen its line ("Pasta: 4:25 left, ends 15:05"), which a
    /// click on does what a click on its notification does, then its buttons; New timer; Stop
    /// all ringing.
    public var menu: [MenuItem]
    /// Whether it changes with time alone (something counts down).
    public var changesWithTime: Bool

    /// The tray item for `alarms` at `now`; `nil` when nothing is on screen (no item is shown).
    /// `timeOfDay` writes the time a countdown ends, as its notification does ("15:05").
    public init?(alarms: [Alarm], now: Date, timeOfDay: (Date) -> String) {
        let summary = PanelSummary(alarms: alarms, now: now)
        guard summary.status != .idle else { return nil }
        let ringing = summary.status == .ringing
        status = ringing ? .needsAttention : .active
        iconName = Self.iconNames[summary.status] ?? "io.github.tocsin.Agent-symbolic"
        title = Self.title(of: summary, alarms: alarms)
        label = summary.text
        tooltip = summary.lines.joined(separator: "\n")
        itemIsMenu = !ringing
        changesWithTime = summary.changesWithTime
        var menu: [MenuItem] = []
        for alarm in PanelSummary.ranked(alarms, at: now) {
            let id = alarm.id.uuidString.lowercased()
            // The line is an entry like the others, drawn as plainly: greyed out (disabled) the
            // time left was barely legible in Plasma's menu. A click on it does what a click on
            // the alarm's notification does.
            let click = alarm.state.name.clickIntent
            menu.append(MenuItem(key: "alarm:\(id)", label: Self.menuLine(for: alarm, at: now, timeOfDay: timeOfDay),
                                 isEnabled: click != nil, action: click.map { .intent($0, alarm.id) }))
            for (intent, label) in Self.actions(of: alarm) {
                menu.append(MenuItem(key: "alarm:\(id):\(intent.rawValue)", label: "    " + label, action: .intent(intent, alarm.id)))
            }
            menu.append(.separator("separator:\(id)"))
        }
        menu.append(MenuItem(key: "new-timer", label: "New timer", children: Self.newTimerMinutes.map { minutes in
            MenuItem(key: "new-timer:\(minutes)", label: minutes == 1 ? "1 minute" : "\(minutes) minutes", action: .newTimer(TimeInterval(minutes * 60)))
        }))
        menu.append(MenuItem(key: "stop-all", label: "Stop all ringing", isEnabled: ringing, action: .stopAllRinging))
        self.menu = menu
    }

    /// "Tocsin: Pasta, counting down", "Tocsin: Tea, paused", "Tocsin: Pasta, ringing".
    private static func title(of summary: PanelSummary, alarms: [Alarm]) -> String {
        let featured = summary.featured.flatMap { id in alarms.first { $0.id == id } }?.title ?? ""
        let doing = switch summary.status {
        case .countdown: "counting down"
        case .paused: "paused"
        case .ringing: "ringing"
        case .idle: ""
        }
        return "Tocsin: \(featured), \(doing)"
    }

    /// The menu's line for `alarm`: what it is doing, with the time left of a countdown as its
    /// notification shows it ("Pasta: 4:25 left, ends 15:05"). Its ticking changes only the
    /// line's label, which the tray item sends on its own (`TrayMenuIDs.Change.labels`).
    static func menuLine(for alarm: Alarm, at now: Date, timeOfDay: (Date) -> String) -> String {
        switch alarm.state {
        case .alerting: "\(alarm.title): ringing"
        case .paused(let phase): "\(alarm.title): paused, \(PanelSummary.clock(phase.remaining)) left"
        case .countdown(let phase) where alarm.snoozes != nil:
            "\(alarm.title): snoozed, \(PanelSummary.clock(min(phase.remaining(at: now), phase.duration))) left, rings again at \(timeOfDay(phase.fireDate))"
        case .countdown(let phase):
            "\(alarm.title): \(PanelSummary.clock(min(phase.remaining(at: now), phase.duration))) left, ends \(timeOfDay(phase.fireDate))"
        case .scheduled: alarm.title
        }
    }

    /// The buttons `alarm` offers in its state, as its notification does.
    private static func actions(of alarm: Alarm) -> [(AlarmIntent, String)] {
        switch alarm.state {
        case .countdown: [(.pause, "Pause"), (.cancel, "Cancel")]
        case .paused: [(.resume, "Resume"), (.cancel, "Cancel")]
        case .alerting: [(.stop, "Stop")] + (alarm.secondaryButton.map { [(.secondary, $0.label)] } ?? [])
        case .scheduled: []
        }
    }
}
