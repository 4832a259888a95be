import FoundationEssentials

/// What a locked screen shows of the alarms, for the surfaces that draw Tocsin's own content
/// there (the GNOME Shell extension in its `unlock-dialog` mode, through the agent's
/// `io.github.tocsin.LockScreen1` interface): every alarm that rings, then every countdown, each
/// with its title (or only its kind, `LockScreenSettings`), its time and its buttons.
///
/// A person woken on a locked machine sees first what rings — the one ringing longest on top,
/// the one that woke them — then what counts down, the soonest end first, then what is paused.
/// A countdown carries its end, not its seconds, so the content changes only when an alarm does
/// and the lock screen counts the seconds itself; the text of its time left is written when the
/// content is sent (`timeText(of:at:)`).
public struct LockScreenContent: Sendable, Equatable {
    /// One alarm as the lock screen shows it.
    public struct Entry: Sendable, Equatable {
        /// What the alarm is doing, and what its time is measured from.
        public enum Phase: Sendable, Equatable {
            /// Ringing since `since`; `time` is the time of day it started.
            case ringing(since: Date)
            /// Counting down to `end`.
            case counting(end: Date)
            /// Paused with `remaining` seconds (whole, as shown).
            case paused(remaining: Int)

            /// Its name on the wire ("ringing", "counting", "paused").
            public var name: String {
                switch self {
                case .ringing: "ringing"
                case .counting: "counting"
                case .paused: "paused"
                }
            }
        }

        /// A button: the intent it performs, and its label.
        public struct Button: Sendable, Equatable {
            public var intent: AlarmIntent
            public var label: String
        }

        public var id: UUID
        /// The alarm's title, or "Alarm"/"Timer" when titles are hidden.
        public var title: String
        public var phase: Phase
        /// The time shown beside the title where it does not count: the time of day a ringing
        /// alarm started ("07:00"); a paused countdown's time left ("4:59"). Empty while it counts.
        public var time: String
        /// Its buttons, in order: Stop and its second button while it rings; Pause and Cancel,
        /// or Resume and Cancel, while it counts down or is paused.
        public var buttons: [Button]
    }

    /// The entries, in the order they are drawn.
    public var entries: [Entry]

    /// Whether nothing is shown.
    public var isEmpty: Bool { entries.isEmpty }

    /// The content for `alarms` (any of the book's: those on screen are shown), named as
    /// `settings` allows, times of day written by `timeOfDay`.
    public init(alarms: some Sequence<Alarm>, settings: LockScreenSettings, timeOfDay: (Date) -> String) {
        var ringing: [(Alarm, Date)] = []
        var counting: [(Alarm, Date)] = []
        var paused: [(Alarm, Int)] = []
        for alarm in alarms {
            switch alarm.state {
            case .alerting(let since): ringing.append((alarm, since))
            case .countdown(let phase): counting.append((alarm, phase.fireDate))
            case .paused(let phase): paused.append((alarm, CountdownClock.displayedSeconds(remaining: phase.remaining)))
            case .scheduled: break
            }
        }
        // Ties in time (two alarms set for 7:00) fall to the book's order, so the order never flickers.
        ringing.sort { $0.1 != $1.1 ? $0.1 < $1.1 : AlarmBook.oldestFirst($0.0, $1.0) }
        counting.sort { $0.1 != $1.1 ? $0.1 < $1.1 : AlarmBook.oldestFirst($0.0, $1.0) }
        paused.sort { AlarmBook.oldestFirst($0.0, $1.0) }
        entries = ringing.map { alarm, since in
            var buttons = [Entry.Button(intent: .stop, label: "Stop")]
            if let second = alarm.secondaryButton { buttons.append(Entry.Button(intent: .secondary, label: second.label)) }
            return Entry(id: alarm.id, title: settings.title(of: alarm), phase: .ringing(since: since), time: timeOfDay(since), buttons: buttons)
        } + counting.map { alarm, end in
            Entry(id: alarm.id, title: settings.title(of: alarm), phase: .counting(end: end), time: "",
                  buttons: [Entry.Button(intent: .pause, label: "Pause"), Entry.Button(intent: .cancel, label: "Cancel")])
        } + paused.map { alarm, remaining in
            Entry(id: alarm.id, title: settings.title(of: alarm), phase: .paused(remaining: remaining), time: DurationFormat.clock(seconds: remaining),
                  buttons: [Entry.Button(intent: .resume, label: "Resume"), Entry.Button(intent: .cancel, label: "Cancel")])
        }
    }

    /// The time `entry` shows at `now`: its `time`, or, while it counts down, the time left as
    /// its notification shows it ("4:59").
    public static func timeText(of entry: Entry, at now: Date) -> String {
        guard case .counting(let end) = entry.phase else { return entry.time }
        return DurationFormat.clock(seconds: CountdownClock.displayedSeconds(remaining: max(0, end.timeIntervalSince(now))))
    }

    /// The intent a lock screen's press of button `key` (an intent's name, as the entry's
    /// buttons give it) performs on entry `id`, if the content shows that button there; `nil`
    /// for a button it does not show (the alarm moved on since it was drawn, or the key is unknown).
    public func intent(pressing key: String, on id: UUID) -> AlarmIntent? {
        guard let entry = entries.first(where: { $0.id == id }) else { return nil }
        return entry.buttons.first { $0.intent.rawValue == key }?.intent
    }
}
