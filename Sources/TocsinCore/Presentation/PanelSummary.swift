import FoundationEssentials

/// What a panel shows of the alarms at an instant — the Linux Dynamic Island: one label for the
/// alarm that matters most, a line for each alarm on screen, a state and a progress.
///
/// One rule for every panel (`tocsin watch --format waybar|i3blocks|polybar`, the tray item, the
/// GNOME Shell extension) and the same arithmetic as the notification (`CountdownClock`): at a
/// whole second of the clock, a panel and the live notification show the same time left.
///
/// The featured alarm is the one ringing (the oldest, if several), else the countdown that ends
/// first, else the paused one with the least time left. Waiting alarms show nothing.
public struct PanelSummary: Equatable, Sendable {
    /// What the featured alarm is doing; `idle` when nothing is on screen.
    public enum Status: String, Sendable, CaseIterable {
        case idle, countdown, paused, ringing
    }

    /// The state of the featured alarm.
    public var status: Status
    /// The label: "Pasta 2:59", "Pasta 2:59 +1" with another alarm on screen, "Tea 1:00
    /// paused", "Pasta ringing"; empty when idle. The state is said in words, not in a symbol
    /// the panel's font may lack: GNOME's top bar drew "⏸" and "🔔" as white boxes.
    public var text: String
    /// One line per alarm on screen, featured first: "Pasta: 2:59 left", "Tea: paused, 1:00
    /// left", "Wake up: ringing"; empty when idle.
    public var lines: [String]
    /// How much of the featured countdown has elapsed, 0–100 (100 while ringing, 0 when idle).
    public var percentage: Int
    /// The featured alarm.
    public var featured: UUID?
    /// Whether what it shows changes with time alone (something counts down): then it is
    /// worth showing again at the next whole second (`CountdownClock.nextTick`), and only then.
    public var changesWithTime: Bool

    /// The summary of `alarms` at `now`.
    public init(alarms: [Alarm], now: Date) {
        let ranked = Self.ranked(alarms, at: now)
        guard let first = ranked.first else {
            self.init(status: .idle, text: "", lines: [], percentage: 0, featured: nil, changesWithTime: false)
            return
        }
        let others = ranked.count > 1 ? " +\(ranked.count - 1)" : ""
        let status: Status
        let label: String
        switch first.state {
        case .alerting:
            status = .ringing
            label = "\(first.title) ringing"
        case .paused:
            status = .paused
            label = "\(first.title) \(Self.clock(Self.shownRemaining(of: first, at: now))) paused"
        case .countdown, .scheduled:
            status = .countdown
            label = "\(first.title) \(Self.clock(Self.shownRemaining(of: first, at: now)))"
        }
        self.init(status: status, text: label + others, lines: ranked.map { Self.line(for: $0, at: now) },
                  percentage: status == .ringing ? 100 : first.percentElapsed(at: now) ?? 0,
                  featured: first.id, changesWithTime: ranked.contains { $0.state.name == .countdown })
    }

    /// A summary of its parts.
    public init(status: Status, text: String, lines: [String], percentage: Int, featured: UUID?, changesWithTime: Bool) {
        self.status = status
        self.text = text
        self.lines = lines
        self.percentage = percentage
        self.featured = featured
        self.changesWithTime = changesWithTime
    }

    /// The alarms on screen in `alarms`, in the order panels list them: what rings (oldest
    /// first), then countdowns by time left, then paused ones by time left.
    public static func ranked(_ alarms: [Alarm], at now: Date) -> [Alarm] {
        alarms.filter { $0.state.name != .scheduled }.sorted { precedes($0, $1, at: now) }
    }

    /// The line of one alarm on screen: "Pasta: 2:59 left", "Tea: paused, 1:00 left".
    public static func line(for alarm: Alarm, at now: Date) -> String {
        switch alarm.state {
        case .alerting: "\(alarm.title): ringing"
        case .paused(let phase): "\(alarm.title): paused, \(clock(phase.remaining)) left"
        case .countdown: "\(alarm.title): \(clock(shownRemaining(of: alarm, at: now))) left"
        case .scheduled: alarm.title
        }
    }

    /// Ringing first (oldest first), then countdowns by time left, then paused ones by time left.
    private static func precedes(_ first: Alarm, _ second: Alarm, at now: Date) -> Bool {
        func rank(_ alarm: Alarm) -> Int {
            switch alarm.state.name {
            case .alerting: 0
            case .countdown: 1
            case .paused: 2
            case .scheduled: 3
            }
        }
        if rank(first) != rank(second) { return rank(first) < rank(second) }
        if case .alerting = first.state { return first.createdAt < second.createdAt }
        let left = (first.remaining(at: now) ?? 0, second.remaining(at: now) ?? 0)
        return left.0 != left.1 ? left.0 < left.1 : first.createdAt < second.createdAt
    }

    /// The time left shown at `now`, never more than the countdown's length: a panel shows the
    /// time left at the whole second before it woke, which can come before the countdown began.
    private static func shownRemaining(of alarm: Alarm, at now: Date) -> TimeInterval {
        switch alarm.state {
        case .countdown(let phase): min(phase.remaining(at: now), phase.duration)
        case .paused(let phase): phase.remaining
        case .scheduled, .alerting: 0
        }
    }

    /// `remaining` as a countdown shows it ("4:25").
    static func clock(_ remaining: TimeInterval) -> String {
        DurationFormat.clock(seconds: CountdownClock.displayedSeconds(remaining: remaining))
    }
}
