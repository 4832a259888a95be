import FoundationEssentials

/// What a client asks for when it schedules a timer or an alarm, before the agent accepts it.
///
/// `validated()` is the one place that decides what is acceptable, so the CLI, D-Bus callers and
/// apps get the same answers.
public struct AlarmRequest: Sendable, Equatable {
    /// The kind of alarm asked for.
    public var kind: AlarmKind
    /// When an alarm rings (required for alarms, absent for timers).
    public var schedule: AlarmSchedule?
    /// The title; empty or missing means "Timer" or "Alarm".
    public var title: String?
    /// How long the timer counts down; for an alarm, its pre-alert countdown (0: none).
    public var duration: TimeInterval
    /// The snooze duration: how long a snoozed alarm counts down before ringing again.
    public var snoozeDuration: TimeInterval?
    /// Whether the snooze shows as a Snooze button while the alarm rings. `false` keeps the snooze
    /// (`tocsin snooze`, an application's own call) without a button: AlarmKit's `postAlert` on an
    /// alert that has no `.countdown` button. Needs a `snoozeDuration`.
    public var snoozeButton: Bool
    /// The second button's label: relabels Snooze, or names the custom button when a `secondary` hook is set.
    public var secondaryButtonLabel: String?
    /// What plays while it rings.
    public var sound: AlarmSound
    /// Whether a sound the agent cannot find or play rings as the standard sound instead of being
    /// refused: what AlarmKit does with a sound name it cannot find. The command line leaves it
    /// `false`, so a typo in a sound's name is an error the user sees at once.
    public var soundFallback: Bool
    /// How loud, above 0 and at most 1; `nil` is full.
    public var volume: Double?
    /// A rise from soft to `volume` over this long, if wanted.
    public var crescendo: TimeInterval?
    /// Whether it rings the paired phones when unanswered; `nil`: as the user's settings say.
    public var phone: PhoneRingChoice?
    /// Whether it raises a muted or turned-down output while it rings; `nil`: as the agent's
    /// settings say.
    public var outputRaise: OutputRaiseChoice?
    /// How long it may ring unanswered; `nil` means `AlarmRequest.defaultRingLimit`.
    public var ringLimit: TimeInterval?
    /// How late it may still ring after the machine slept or the agent was away; `nil` means
    /// `AlarmRequest.defaultLateLimit`.
    public var lateLimit: TimeInterval?
    /// Shell commands for the alarm's events.
    public var hooks: AlarmHooks
    /// A small JSON value to keep with the alarm (at most `maximumMetadataSize` bytes).
    public var metadata: String?
    /// The buttons that run an intent of the application's own (TocsinKit's App Intents).
    public var appIntents: AppIntentButtons?
    /// The id the caller chose for the alarm, as AlarmKit's `schedule(id:configuration:)` lets an
    /// app do; `nil` lets the agent pick one. An id already in use is refused.
    public var id: UUID?

    /// How long an alarm rings unanswered unless told otherwise: ten minutes.
    public static let defaultRingLimit: TimeInterval = 600
    /// How late an alarm may still ring unless told otherwise: ten minutes.
    public static let defaultLateLimit: TimeInterval = 600
    /// The title of a timer that was given none.
    public static let defaultTitle = "Timer"
    /// The title of an alarm that was given none.
    public static let defaultAlarmTitle = "Alarm"
    /// The label of the snooze button unless told otherwise.
    public static let defaultSnoozeLabel = "Snooze"
    /// The longest timer accepted: a year. Longer is surely a typo.
    public static let maximumDuration: TimeInterval = 366 * 24 * 3600
    /// The longest snooze and ring limit accepted: a day.
    public static let maximumSnoozeOrRingLimit: TimeInterval = 24 * 3600
    /// How far ahead an alarm may ring: a hundred years. Further is a typo (or a fuzzer).
    public static let furthestAhead: TimeInterval = 100 * 365.25 * 86_400
    /// The longest crescendo accepted: ten minutes.
    public static let maximumCrescendo: TimeInterval = 600
    /// The longest title accepted, in characters.
    public static let maximumTitleLength = 200
    /// The longest button label accepted, in characters.
    public static let maximumLabelLength = 40
    /// The largest metadata accepted, in bytes of JSON.
    public static let maximumMetadataSize = 4096
    /// The longest hook command accepted, in bytes.
    public static let maximumHookLength = 4096

    /// Creates a request; only `duration` is required.
    public init(
        kind: AlarmKind = .timer, schedule: AlarmSchedule? = nil, title: String? = nil, duration: TimeInterval,
        snoozeDuration: TimeInterval? = nil, snoozeButton: Bool = true, secondaryButtonLabel: String? = nil,
        sound: AlarmSound = .standard, soundFallback: Bool = false, volume: Double? = nil, crescendo: TimeInterval? = nil, phone: PhoneRingChoice? = nil,
        outputRaise: OutputRaiseChoice? = nil, ringLimit: TimeInterval? = nil, lateLimit: TimeInterval? = nil,
        hooks: AlarmHooks = AlarmHooks(), metadata: String? = nil, appIntents: AppIntentButtons? = nil, id: UUID? = nil
    ) {
        self.kind = kind
        self.schedule = schedule
        self.title = title
        self.duration = duration
        self.snoozeDuration = snoozeDuration
        self.snoozeButton = snoozeButton
        self.secondaryButtonLabel = secondaryButtonLabel
        self.sound = sound
        self.soundFallback = soundFallback
        self.volume = volume
        self.crescendo = crescendo
        self.phone = phone
        self.outputRaise = outputRaise
        self.ringLimit = ringLimit
        self.lateLimit = lateLimit
        self.hooks = hooks
        self.metadata = metadata
        self.appIntents = appIntents
        self.id = id
    }

    /// Checks every field and builds the alarm it describes, set at `now`, with local schedules
    /// resolved in `timeZone`.
    public func makeAlarm(id: UUID, now: Date, timeZone: TimeZoneRules = .utc) throws(AlarmInputError) -> Alarm {
        let fireDate: Date
        let storedSchedule: AlarmSchedule?
        switch (kind, schedule) {
        case (.timer, nil):
            try Self.check(duration, named: "timer duration", atMost: Self.maximumDuration)
            fireDate = now.addingTimeInterval(duration)
            storedSchedule = nil
        case (.timer, _?):
            throw AlarmInputError("A timer has a duration, not a schedule; schedule an alarm instead.")
        case (.alarm, let schedule?):
            if duration != 0 {
                try Self.check(duration, named: "pre-alert countdown", atMost: Self.maximumSnoozeOrRingLimit)
            }
            // A one-shot "07:00" is tied to the day it was meant for, so neither a restart after
            // it rang nor a zone change can move it to the next day.
            storedSchedule = ScheduleCalculator.pinned(schedule, after: now, in: timeZone)
            fireDate = try ScheduleCalculator.firstFireDate(of: storedSchedule!, now: now, in: timeZone)
        case (.alarm, nil):
            throw AlarmInputError("An alarm needs a schedule: a time, a date and time, or an instant.")
        }
        guard fireDate.timeIntervalSince(now) <= Self.furthestAhead else {
            throw AlarmInputError("The alarm would ring more than \(Int(Self.furthestAhead / (365.25 * 86_400))) years from now; Tocsin keeps alarms for the next century.")
        }
        if let snoozeDuration {
            try Self.check(snoozeDuration, named: "snooze duration", atMost: Self.maximumSnoozeOrRingLimit)
        }
        let ringLimit = ringLimit ?? Self.defaultRingLimit
        try Self.check(ringLimit, named: "ring limit", atMost: Self.maximumSnoozeOrRingLimit)
        if let volume {
            guard volume.isFinite, volume > 0, volume <= 1 else {
                // A percentage only for numbers Int can hold (a fuzzer sent 1e300).
                let shown = volume.isFinite && abs(volume) < 1e12 ? "\(Int((volume * 100).rounded())) %" : "\(volume)"
                throw AlarmInputError("The volume must be above 0 % and at most 100 % (got \(shown)).")
            }
        }
        if let crescendo {
            try Self.check(crescendo, named: "crescendo", atMost: Self.maximumCrescendo)
        }
        let lateLimit = lateLimit ?? Self.defaultLateLimit
        try Self.check(lateLimit, named: "late limit", atMost: Self.maximumSnoozeOrRingLimit)
        if case .ring(let after?)? = phone {
            guard after.isFinite, after >= 0, after <= Self.maximumSnoozeOrRingLimit else {
                throw AlarmInputError("The phones' delay must be 0 or more and at most \(DurationFormat.spoken(Self.maximumSnoozeOrRingLimit)) (got \(DurationFormat.spoken(after))).")
            }
        }
        if case .raise(let percent?)? = outputRaise, !OutputRaiseSettings.levels.contains(percent) {
            throw AlarmInputError("The ring level must be from 1 % to 100 % (got \(percent) %).")
        }
        for (event, command) in hooks.commands {
            try Self.checkHook(command, event: event)
        }
        if let metadata {
            guard metadata.utf8.count <= Self.maximumMetadataSize else {
                throw AlarmInputError("The metadata is \(metadata.utf8.count) bytes of JSON; at most \(Self.maximumMetadataSize) are kept with an alarm.")
            }
            guard (try? JSONDecoder().decode(JSONValue.self, from: Data(metadata.utf8))) != nil else {
                throw AlarmInputError("The metadata is not valid JSON.")
            }
        }
        try appIntents?.validate()
        let alarm = Alarm(
            id: id,
            title: try Self.cleanedText(title, named: "title", maximumLength: Self.maximumTitleLength)
                ?? (kind == .timer ? Self.defaultTitle : Self.defaultAlarmTitle),
            kind: kind,
            schedule: storedSchedule,
            countdownDuration: duration,
            snoozeDuration: snoozeDuration,
            secondaryButton: try secondaryButton(),
            sound: sound,
            volume: volume,
            crescendo: crescendo,
            phone: phone,
            outputRaise: outputRaise,
            ringLimit: ringLimit,
            lateLimit: lateLimit,
            hooks: hooks,
            state: .scheduled(fireDate: fireDate),
            createdAt: now,
            metadata: metadata,
            appIntents: appIntents
        )
        return alarm.with(state: alarm.waitingState(until: fireDate, now: now))
    }

    private func secondaryButton() throws(AlarmInputError) -> SecondaryButton? {
        let label = try Self.cleanedText(secondaryButtonLabel, named: "button label", maximumLength: Self.maximumLabelLength)
        // Without a snooze, an app intent on the secondary button makes it a custom button, as
        // a command does; with one, the intent runs when the alarm is snoozed.
        let hasCustomAction = hooks[.secondary] != nil || (snoozeDuration == nil && appIntents?.modes[.secondary] != nil)
        switch (hasCustomAction, snoozeDuration) {
        case (true, _?):
            throw AlarmInputError("A custom button replaces Snooze: give either a snooze duration or a custom button command, not both.")
        case (true, nil):
            guard let label else {
                throw AlarmInputError("A custom button command needs a button label.")
            }
            return SecondaryButton(label: label, behavior: .custom)
        case (false, _?) where !snoozeButton:
            // A snooze without a button (AlarmKit's postAlert beside a Stop-only alert).
            guard label == nil else {
                throw AlarmInputError("A button label needs a button: the snooze has none (“snooze-button” false).")
            }
            return nil
        case (false, _?):
            return SecondaryButton(label: label ?? Self.defaultSnoozeLabel, behavior: .countdown)
        case (false, nil):
            guard snoozeButton else {
                throw AlarmInputError("A snooze without a button (“snooze-button” false) needs a snooze duration.")
            }
            guard label == nil else {
                throw AlarmInputError("A button label needs either a snooze duration (to relabel Snooze) or a command to run.")
            }
            return nil
        }
    }

    private static func check(_ interval: TimeInterval, named name: String, atMost maximum: TimeInterval) throws(AlarmInputError) {
        guard interval.isFinite else {
            throw AlarmInputError("The \(name) must be a finite number of seconds (got \(interval)).")
        }
        guard interval > 0 else {
            throw AlarmInputError("The \(name) must be longer than zero (got \(DurationFormat.spoken(interval))).")
        }
        guard interval <= maximum else {
            throw AlarmInputError("The \(name) \(DurationFormat.spoken(interval)) is too long; at most \(DurationFormat.spoken(maximum)) is accepted.")
        }
    }

    private static func checkHook(_ command: String, event: HookEvent) throws(AlarmInputError) {
        guard !command.trimmingSpacesAndNewlines().isEmpty else {
            throw AlarmInputError("The \(event.rawValue) hook command is empty.")
        }
        guard command.utf8.count <= maximumHookLength else {
            throw AlarmInputError("The \(event.rawValue) hook command is \(command.utf8.count) bytes long; at most \(maximumHookLength) are accepted.")
        }
        guard !command.contains("\0") else {
            throw AlarmInputError("The \(event.rawValue) hook command contains a NUL character.")
        }
    }

    /// Trims text, turns control characters into spaces, and refuses text that is too long.
    /// Returns `nil` for missing or blank text.
    private static func cleanedText(_ text: String?, named name: String, maximumLength: Int) throws(AlarmInputError) -> String? {
        guard let text else { return nil }
        // Only controls and line breaks go: format characters (zero-width joiners in emoji,
        // non-joiners in Persian, soft hyphens) are part of real text.
        let cleaned = String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: " "
            default: scalar
            }
        })).trimmingSpaces()
        // Blank means nothing visible: only spaces and invisible format characters.
        guard cleaned.unicodeScalars.contains(where: { !$0.properties.isWhitespace && $0.properties.generalCategory != .format }) else {
            return nil
        }
        guard cleaned.count <= maximumLength else {
            throw AlarmInputError("The \(name) is \(cleaned.count) characters long; at most \(maximumLength) are accepted.")
        }
        return cleaned
    }
}
