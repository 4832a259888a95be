import Foundation

/// What a client asks for when it schedules a timer, before the agent accepts it.
///
/// `validated()` is the one place that decides what is acceptable, so the CLI, D-Bus callers and
/// apps get the same answers.
public struct AlarmRequest: Sendable, Equatable {
    /// The kind of alarm asked for.
    public var kind: AlarmKind
    /// The title; empty or missing means "Timer".
    public var title: String?
    /// How long the timer counts down.
    public var duration: TimeInterval
    /// The snooze duration, if a Snooze button is wanted.
    public var snoozeDuration: TimeInterval?
    /// The second button's label: relabels Snooze, or names the custom button when a `secondary` hook is set.
    public var secondaryButtonLabel: String?
    /// What plays while it rings.
    public var sound: AlarmSound
    /// How long it may ring unanswered; `nil` means `AlarmRequest.defaultRingLimit`.
    public var ringLimit: TimeInterval?
    /// Shell commands for the alarm's events.
    public var hooks: AlarmHooks

    /// How long an alarm rings unanswered unless told otherwise: ten minutes.
    public static let defaultRingLimit: TimeInterval = 600
    /// The title of a timer that was given none.
    public static let defaultTitle = "Timer"
    /// The label of the snooze button unless told otherwise.
    public static let defaultSnoozeLabel = "Snooze"
    /// The longest timer accepted: a year. Longer is surely a typo.
    public static let maximumDuration: TimeInterval = 366 * 24 * 3600
    /// The longest snooze and ring limit accepted: a day.
    public static let maximumSnoozeOrRingLimit: TimeInterval = 24 * 3600
    /// The longest title accepted, in characters.
    public static let maximumTitleLength = 200
    /// The longest button label accepted, in characters.
    public static let maximumLabelLength = 40
    /// The longest hook command accepted, in bytes.
    public static let maximumHookLength = 4096

    /// Creates a request; only `duration` is required.
    public init(
        kind: AlarmKind = .timer, title: String? = nil, duration: TimeInterval,
        snoozeDuration: TimeInterval? = nil, secondaryButtonLabel: String? = nil,
        sound: AlarmSound = .standard, ringLimit: TimeInterval? = nil, hooks: AlarmHooks = AlarmHooks()
    ) {
        self.kind = kind
        self.title = title
        self.duration = duration
        self.snoozeDuration = snoozeDuration
        self.secondaryButtonLabel = secondaryButtonLabel
        self.sound = sound
        self.ringLimit = ringLimit
        self.hooks = hooks
    }

    /// Checks every field and builds the alarm it describes, counting down from `now`.
    public func makeAlarm(id: UUID, now: Date) throws(AlarmInputError) -> Alarm {
        try Self.check(duration, named: "timer duration", atMost: Self.maximumDuration)
        if let snoozeDuration {
            try Self.check(snoozeDuration, named: "snooze duration", atMost: Self.maximumSnoozeOrRingLimit)
        }
        let ringLimit = ringLimit ?? Self.defaultRingLimit
        try Self.check(ringLimit, named: "ring limit", atMost: Self.maximumSnoozeOrRingLimit)
        for (event, command) in hooks.commands {
            try Self.checkHook(command, event: event)
        }
        return Alarm(
            id: id,
            title: try Self.cleanedText(title, named: "title", maximumLength: Self.maximumTitleLength) ?? Self.defaultTitle,
            kind: kind,
            countdownDuration: duration,
            snoozeDuration: snoozeDuration,
            secondaryButton: try secondaryButton(),
            sound: sound,
            ringLimit: ringLimit,
            hooks: hooks,
            state: .countdown(CountdownPhase(fireDate: now.addingTimeInterval(duration), duration: duration)),
            createdAt: now
        )
    }

    private func secondaryButton() throws(AlarmInputError) -> SecondaryButton? {
        let label = try Self.cleanedText(secondaryButtonLabel, named: "button label", maximumLength: Self.maximumLabelLength)
        switch (hooks[.secondary], snoozeDuration) {
        case (_?, _?):
            throw AlarmInputError("A custom button replaces Snooze: give either a snooze duration or a custom button command, not both.")
        case (_?, nil):
            guard let label else {
                throw AlarmInputError("A custom button command needs a button label.")
            }
            return SecondaryButton(label: label, behavior: .custom)
        case (nil, _?):
            return SecondaryButton(label: label ?? Self.defaultSnoozeLabel, behavior: .countdown)
        case (nil, nil):
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
        guard !command.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
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
        })).trimmingCharacters(in: .whitespaces)
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
