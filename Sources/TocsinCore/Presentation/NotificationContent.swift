import FoundationEssentials

/// What a desktop notification for an alarm shows, independent of any notification library.
public struct NotificationContent: Sendable, Equatable {
    /// How insistently the notification server should show it.
    public enum Urgency: Int, Sendable {
        case low = 0, normal = 1, critical = 2
    }

    /// What a notification is for: servers differ in how each is best shown
    /// (`NotificationServerProfile`), and each has its `category` hint.
    public enum Role: String, Sendable {
        /// A live countdown, updated every second.
        case countdown
        /// A paused countdown.
        case paused
        /// A ringing alarm.
        case alert
        /// A one-off notice (missed, not acknowledged, agent news).
        case notice
        /// The question whether an application may set alarms.
        case consent
    }

    /// A button: `key` is what the server reports back when it is pressed, `label` what it shows.
    public struct Action: Sendable, Equatable {
        /// Reported back when pressed; Tocsin's keys are `AlarmIntent` raw values.
        public let key: String
        /// The button's text.
        public let label: String

        /// Creates a button.
        public init(key: String, label: String) {
            self.key = key
            self.label = label
        }

        /// The button that performs `intent`.
        public init(_ intent: AlarmIntent, label: String) {
            self.init(key: intent.rawValue, label: label)
        }
    }

    /// What it is for.
    public var role: Role
    /// The first line, in bold on most servers.
    public var summary: String
    /// The text below it (plain text: the presenter escapes it where the server reads markup).
    public var body: String
    /// The `value` hint, percent elapsed, shown as a progress bar by servers that support it.
    public var progress: Int?
    /// The buttons, in order.
    public var actions: [Action]
    /// How insistently it is shown.
    public var urgency: Urgency
    /// Stays on screen until Tocsin removes it (never expires, `resident` set).
    public var isPersistent: Bool
    /// Whether a locked screen may show its title and body: GNOME Shell shows them on its lock
    /// screen when every notification of the application carries the `x-gnome-privacy-scope`
    /// hint "system" (and only the application's name otherwise). Set by the writer as the user's
    /// `LockScreenSettings` say; by default, as they are by default, it may.
    public var showsOnLockScreen = LockScreenSettings.standard.showsTitles
    /// What to type instead of pressing the buttons, as a sentence ("Type tocsin stop to
    /// stop."), shown by servers that draw no buttons.
    public var commandLineHint: String?
    /// What a click on the notification itself does (the `default` action), if anything: the
    /// one way to act on servers without buttons (mako) and in GNOME's message list.
    public var defaultIntent: AlarmIntent?

    /// The action key the specification gives a click on the notification itself.
    public static let defaultActionKey = "default"

    /// Creates a notification's content.
    public init(role: Role, summary: String, body: String, progress: Int? = nil, actions: [Action] = [], urgency: Urgency = .normal,
                isPersistent: Bool, commandLineHint: String? = nil, defaultIntent: AlarmIntent? = nil) {
        self.role = role
        self.summary = summary
        self.body = body
        self.progress = progress
        self.actions = actions
        self.urgency = urgency
        self.isPersistent = isPersistent
        self.commandLineHint = commandLineHint
        self.defaultIntent = defaultIntent
    }
}

/// Writes the notifications a user sees for an alarm: the live activity (counting down, paused,
/// ringing) and the notice for a ring nobody answered.
public struct NotificationContentWriter: Sendable {
    /// The zone in which end times are shown.
    public var timeZone: TimeZoneRules
    /// The locale for times of day (12- or 24-hour clock), as the environment names it: "en_US.UTF-8".
    public var localeIdentifier: String
    /// Why no sound can be played right now, if so: ringing notifications say it, so a user who
    /// sees the alert knows it is silent.
    public var soundProblem: String?
    /// Why a ringing alarm may not be heard though it plays (the output is muted or nearly
    /// silent, and no ringing alarm raises it), if so: ringing notifications say it.
    public var outputWarning: String?
    /// Whether a locked screen may show alarms' titles (`LockScreenSettings`): the notifications
    /// then let GNOME Shell show theirs there (`NotificationContent.showsOnLockScreen`).
    public var showsTitlesWhenLocked = LockScreenSettings.standard.showsTitles

    /// Creates a writer for times in `timeZone`, written for the locale `localeIdentifier`
    /// (`environmentLocale(_:)` finds the user's).
    public init(timeZone: TimeZoneRules = .utc, localeIdentifier: String) {
        self.timeZone = timeZone
        self.localeIdentifier = localeIdentifier
    }

    /// The locale the C library would format times in, given the process's `environment`:
    /// `LC_ALL`, else `LC_TIME`, else `LANG` (the first that is set and not empty); "C" when
    /// none is.
    ///
    /// Worked out here because FoundationEssentials' `Locale.current`, all the agent links, is
    /// always "en_001" on Linux, whatever the environment says.
    public static func environmentLocale(_ environment: [String: String]) -> String {
        ["LC_ALL", "LC_TIME", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? "C"
    }

    /// The live activity of `alarm` at `now`; `nil` in states that show none (scheduled).
    /// A snooze's countdown and the ring after it say they are a snooze's.
    ///
    /// Each line of a body is a sentence that ends in a full stop: GNOME Shell shows a banner's
    /// body on one line, and its message list, Plasma's history and others join lines with a
    /// space, so "0:37 remaining, ends 21:49." and "Click to pause." must read right as one.
    public func liveActivity(for alarm: Alarm, at now: Date) -> NotificationContent? {
        var content = liveActivityContent(for: alarm, at: now)
        content?.showsOnLockScreen = showsTitlesWhenLocked
        return content
    }

    private func liveActivityContent(for alarm: Alarm, at now: Date) -> NotificationContent? {
        let snoozed = alarm.snoozes.map(Self.times)
        switch alarm.state {
        case .countdown(let phase):
            let remaining = DurationFormat.clock(seconds: CountdownClock.displayedSeconds(remaining: phase.remaining(at: now)))
            let body = snoozed == nil
                ? "\(remaining) remaining, ends \(timeOfDay(phase.fireDate))."
                : "Snoozed: \(remaining) remaining, rings again at \(timeOfDay(phase.fireDate))."
            return NotificationContent(
                role: .countdown,
                summary: alarm.title,
                body: body,
                progress: alarm.percentElapsed(at: now),
                actions: [.init(.pause, label: "Pause"), .init(.cancel, label: "Cancel")],
                isPersistent: true,
                commandLineHint: "Type tocsin pause \(Self.shortID(alarm)) to pause, tocsin cancel \(Self.shortID(alarm)) to cancel.",
                defaultIntent: AlarmStateName.countdown.clickIntent
            )
        case .paused(let phase):
            let remaining = CountdownClock.displayedSeconds(remaining: phase.remaining)
            return NotificationContent(
                role: .paused,
                summary: alarm.title,
                body: (snoozed == nil ? "Paused" : "Snooze paused") + ", \(DurationFormat.clock(seconds: remaining)) remaining.",
                progress: alarm.percentElapsed(at: now),
                actions: [.init(.resume, label: "Resume"), .init(.cancel, label: "Cancel")],
                isPersistent: true,
                commandLineHint: "Type tocsin resume \(Self.shortID(alarm)) to resume, tocsin cancel \(Self.shortID(alarm)) to cancel.",
                defaultIntent: AlarmStateName.paused.clickIntent
            )
        case .alerting(let since):
            var actions = [NotificationContent.Action(.stop, label: "Stop")]
            if let button = alarm.secondaryButton {
                actions.append(.init(.secondary, label: button.label))
            }
            let length = DurationFormat.clock(seconds: Int(alarm.countdownDuration.rounded()))
            // A repeating alarm says when it rings again; a one-shot's time is the ring's own.
            let repeats = alarm.schedule.flatMap { $0.isRepeating ? ", set for \($0.description(in: timeZone))" : nil } ?? ""
            let body = switch (alarm.kind, snoozed) {
            case (.timer, nil): "Time’s up: \(length) timer, rang at \(timeOfDay(since))."
            case (.timer, let snoozed?): "Time’s up again: snoozed \(snoozed), rang again at \(timeOfDay(since)) (\(length) timer)."
            case (.alarm, nil): "Alarm ringing since \(timeOfDay(since))\(repeats)."
            case (.alarm, let snoozed?): "Alarm ringing again since \(timeOfDay(since)), snoozed \(snoozed)\(repeats)."
            }
            return NotificationContent(
                role: .alert,
                summary: alarm.title,
                body: soundProblem.map { body + "\n" + Self.sentence("No sound: \($0)") }
                    ?? outputWarning.map { body + "\n" + Self.sentence($0) } ?? body,
                actions: actions,
                urgency: .critical,
                isPersistent: true,
                commandLineHint: "Type tocsin stop to stop" + (alarm.secondaryButton?.behavior == .countdown ? ", tocsin snooze to snooze." : "."),
                defaultIntent: AlarmStateName.alerting.clickIntent
            )
        case .scheduled:
            return nil
        }
    }

    /// "once", "twice", "3 times".
    static func times(_ count: Int) -> String {
        switch count {
        case 1: "once"
        case 2: "twice"
        default: "\(count) times"
        }
    }

    /// The notice left when `alarm` rang for its whole ring limit and nobody stopped it.
    public func unacknowledgedNotice(for alarm: Alarm) -> NotificationContent {
        let since: String
        if case .alerting(let start) = alarm.state {
            since = " from \(timeOfDay(start))"
        } else {
            since = ""
        }
        var notice = NotificationContent(
            role: .notice,
            summary: "Not acknowledged: \(alarm.title)",
            body: "It rang for \(DurationFormat.spoken(alarm.ringLimit))\(since) and nobody stopped it.",
            isPersistent: false
        )
        notice.showsOnLockScreen = showsTitlesWhenLocked
        return notice
    }

    /// The notice left when `alarm` came due at `dueDate` but was later than its late limit, so it
    /// did not ring: "Missed: Wake up (07:00)". `alarm` is the alarm after the event (a repeating
    /// one already waits for its next occurrence, which the notice names).
    public func missedNotice(for alarm: Alarm, dueAt dueDate: Date) -> NotificationContent {
        var body = "It was due at \(timeOfDay(dueDate)) on \(dayOfMonth(dueDate)) while the computer was asleep or Tocsin was not running, and did not ring more than \(DurationFormat.spoken(alarm.lateLimit)) late."
        // A removed one-shot still carries the occurrence it missed; only a later one is "next".
        if let next = alarm.fireDate, next > dueDate {
            body += " Next: \(dayOfMonth(next)) \(timeOfDay(next))."
        }
        var notice = NotificationContent(role: .notice, summary: "Missed: \(alarm.title) (\(timeOfDay(dueDate)))", body: body, isPersistent: false)
        notice.showsOnLockScreen = showsTitlesWhenLocked
        return notice
    }

    /// The question whether `app`, which runs in `confinement`, may set alarms: what the user
    /// would grant (alarms that ring with sound through do-not-disturb, up to `alarmLimit` of
    /// them) and what the app's sandbox means for them. The buttons' keys are `allowKey` and `denyKey`.
    public static func consentQuestion(app: String, confinement: AppConfinement, alarmLimit: Int) -> NotificationContent {
        let grant = "It could keep up to \(alarmLimit) alarms and timers that ring with sound even during Do Not Disturb."
        let trust = switch confinement {
        case .flatpak: "It runs in a Flatpak sandbox: Tocsin runs no commands for it and reads only files its sandbox shows it."
        case .unconfined: "It is not sandboxed: like any program you run, it has your rights, and its alarms may run commands."
        }
        var question = NotificationContent(
            role: .consent,
            summary: "Allow “\(app)” to set alarms?",
            body: "\(grant) \(trust) You can change this later with “tocsin auth”.",
            actions: [.init(key: consentAllowKey, label: "Allow"), .init(key: consentDenyKey, label: "Don’t Allow")],
            urgency: .critical, isPersistent: true,
            commandLineHint: "Type tocsin auth grant \(app) to allow, tocsin auth revoke \(app) to refuse.")
        // It names an application, never an alarm: nothing private, and GNOME shows the details
        // of Tocsin's notifications on its lock screen only when every one of them allows it.
        question.showsOnLockScreen = true
        return question
    }

    /// The action key of the consent question's Allow button.
    public static let consentAllowKey = "allow"
    /// The action key of its Don't Allow button.
    public static let consentDenyKey = "deny"

    /// A day as "Tue 1 Dec".
    public func dayOfMonth(_ date: Date) -> String {
        let day = ScheduleCalculator.wallClock(of: date, in: timeZone).date
        return "\(day.weekday) \(day.day) \(day.monthAbbreviation)"
    }

    /// `text` as a sentence: with a full stop unless it already ends in one (or in ! or ?).
    static func sentence(_ text: String) -> String {
        text.last.map { ".!?".contains($0) } == true ? text : text + "."
    }

    private static func shortID(_ alarm: Alarm) -> String {
        String(alarm.id.uuidString.lowercased().prefix(8))
    }

    /// A time of day as the locale writes it ("14:03" or "2:03 PM").
    ///
    /// Written here rather than with `Date.FormatStyle`: that loads ICU's data into the agent,
    /// about 8 MB of memory for a clock face. The 12-hour clock is for the locales that use it.
    public func timeOfDay(_ date: Date) -> String {
        let second = ScheduleCalculator.wallClock(of: date, in: timeZone).secondOfDay
        let (hour, minute) = (second / 3600, second / 60 % 60)
        let minutes = minute < 10 ? "0\(minute)" : "\(minute)"
        guard Self.usesTwelveHourClock(localeIdentifier) else {
            return "\(hour < 10 ? "0" : "")\(hour):\(minutes)"
        }
        return "\(hour % 12 == 0 ? 12 : hour % 12):\(minutes) \(hour < 12 ? "AM" : "PM")"
    }

    /// Whether people of `localeIdentifier` ("en_US", "en-US.UTF-8") read the time on a 12-hour
    /// clock: the English-speaking Americas, Australia and New Zealand, South Asia, the Philippines
    /// and Egypt, as CLDR says.
    static func usesTwelveHourClock(_ localeIdentifier: String) -> Bool {
        let region = localeIdentifier.split(whereSeparator: { $0 == "." || $0 == "@" }).first.map(String.init) ?? ""
        let parts = region.split(whereSeparator: { $0 == "_" || $0 == "-" }).map(String.init)
        guard parts.count >= 2 else { return false }
        return ["US", "CA", "AU", "NZ", "IN", "PK", "BD", "PH", "EG", "MX", "CO"].contains(parts[1]) && parts[0] != "fr"
    }
}
