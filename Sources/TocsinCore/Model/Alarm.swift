import FoundationEssentials

/// One alarm or timer as the agent keeps it: what it is, how it rings, and where it is in its life.
public struct Alarm: Sendable, Equatable, Codable, Identifiable {
    /// Stable identifier, chosen by the agent when the alarm is scheduled.
    public let id: UUID
    /// What the alarm is for ("Pasta"); shown as the notification's summary.
    public var title: String
    /// When an alarm rings; `nil` for a timer.
    public var schedule: AlarmSchedule?
    // Declared after `schedule`, whose 17 bytes leave room before the next 8-byte boundary:
    // Swift lays properties out in declaration order, and there the one-byte kind and
    // confinement cost nothing.
    /// Timer (counts down from the moment it is scheduled) or alarm (rings on a schedule).
    public var kind: AlarmKind
    /// Where the application that scheduled it ran then; `nil` for the command line's alarms, and
    /// for an application's alarm saved before Tocsin recorded it (state format 2), which is
    /// therefore of unknown origin.
    public var appConfinement: AppConfinement?
    /// How long the live countdown runs before it rings (AlarmKit's pre-alert duration): a timer's
    /// length, or an alarm's pre-alert countdown (0: an alarm that shows no countdown).
    public var countdownDuration: TimeInterval
    /// How long a snooze counts down before ringing again (AlarmKit's post-alert duration), if snoozing is offered.
    public var snoozeDuration: TimeInterval?
    /// How many times it was snoozed since it last rang from its own schedule or timer; `nil`
    /// when it was not (so the saved state leaves it out). A re-ring says it was snoozed.
    public var snoozes: Int?
    /// The last occurrence of its schedule that came due (rang or was missed), as the wall clock
    /// reads it: the next occurrence comes after it. "The next one after now" alone would ring
    /// 07:00 twice when the clock is set back after it rang (or during its snooze).
    public var lastOccurrence: Date?
    /// The second button while ringing, beside Stop: a snooze or a custom action. `nil`: Stop only.
    public var secondaryButton: SecondaryButton?
    /// What plays while it rings.
    public var sound: AlarmSound
    /// How loud, from just above 0 to 1 (full); `nil` is full.
    public var volume: Double?
    /// When set, the ring starts soft and rises to `volume` over this long.
    public var crescendo: TimeInterval?
    /// Whether it rings the paired phones when unanswered; `nil`: as the user's settings say.
    public var phone: PhoneRingChoice?
    /// Whether it raises a muted or turned-down output while it rings; `nil`: as the agent's
    /// settings say.
    public var outputRaise: OutputRaiseChoice?
    /// How long it rings unanswered before it gives up and is ended as not acknowledged.
    public var ringLimit: TimeInterval
    /// How late it may still ring when it came due while the machine slept or the agent was not
    /// running; later than this it is reported as missed instead of ringing stale.
    public var lateLimit: TimeInterval
    /// Shell commands run by the agent on this alarm's events.
    public var hooks: AlarmHooks
    /// Where the alarm is in its life.
    public var state: AlarmState
    /// When it was scheduled.
    public let createdAt: Date
    /// The application that scheduled it; `nil` is the user's own command line (`tocsin`).
    public var appID: String?
    /// A small JSON value the application stored with the alarm, handed back to it and to hooks.
    public var metadata: String?
    /// The buttons that run an intent of the application's own, performed in its process.
    public var appIntents: AppIntentButtons?

    /// The owner's application id, the command line's when none was recorded.
    public var owner: String { appID ?? AppAuthorizations.commandLineAppID }

    /// Whether the agent may run this alarm's hooks: for the command line's alarms and for those
    /// of an application that ran outside any sandbox. Never for a sandboxed app's alarm (the
    /// command would run outside its sandbox, with all of the user's rights), nor for an app's
    /// alarm of unknown origin: refusing hooks at `Schedule` alone would leave those saved
    /// before the refusal existed able to run.
    public var mayRunHooks: Bool { appID == nil || appConfinement == .unconfined }

    /// Creates an alarm; `AlarmBook.schedule` is the usual way, as it validates the request first.
    public init(
        id: UUID, title: String, kind: AlarmKind, schedule: AlarmSchedule? = nil, countdownDuration: TimeInterval,
        snoozeDuration: TimeInterval?, snoozes: Int? = nil, secondaryButton: SecondaryButton?, sound: AlarmSound,
        volume: Double? = nil, crescendo: TimeInterval? = nil, phone: PhoneRingChoice? = nil, outputRaise: OutputRaiseChoice? = nil,
        ringLimit: TimeInterval, lateLimit: TimeInterval = AlarmRequest.defaultLateLimit,
        hooks: AlarmHooks, state: AlarmState, createdAt: Date, appID: String? = nil,
        appConfinement: AppConfinement? = nil, metadata: String? = nil, appIntents: AppIntentButtons? = nil, lastOccurrence: Date? = nil
    ) {
        self.id = id
        self.title = title
        self.kind = kind
        self.schedule = schedule
        self.countdownDuration = countdownDuration
        self.snoozeDuration = snoozeDuration
        self.snoozes = snoozes
        self.secondaryButton = secondaryButton
        self.sound = sound
        self.volume = volume
        self.crescendo = crescendo
        self.phone = phone
        self.outputRaise = outputRaise
        self.ringLimit = ringLimit
        self.lateLimit = lateLimit
        self.hooks = hooks
        self.state = state
        self.createdAt = createdAt
        self.appID = appID
        self.appConfinement = appConfinement
        self.metadata = metadata
        self.appIntents = appIntents
        self.lastOccurrence = lastOccurrence
    }
}

/// The kinds of alarm, with AlarmKit's meaning.
public enum AlarmKind: String, Sendable, Codable, CaseIterable {
    /// Counts down from the moment it is set, then rings.
    case timer
    /// Rings on a schedule (an instant, a local time of day, a local date and time), optionally
    /// after a pre-alert countdown.
    case alarm
}

/// The button shown beside Stop while an alarm rings.
public struct SecondaryButton: Sendable, Equatable, Codable {
    /// What pressing it does.
    public enum Behavior: String, Sendable, Codable {
        /// Snooze: count down the snooze duration again, then ring again (AlarmKit's `.countdown`).
        case countdown
        /// Run the alarm's `secondary` hook and end the alarm (AlarmKit's `.custom`).
        case custom
    }

    /// The button's text, e.g. "Snooze", "Repeat", "Next step".
    public var label: String
    /// What pressing it does.
    public var behavior: Behavior

    /// Creates a button labelled `label` that does `behavior`.
    public init(label: String, behavior: Behavior) {
        self.label = label
        self.behavior = behavior
    }
}

/// The events an alarm can run a shell command on.
public enum HookEvent: String, Sendable, Codable, CodingKeyRepresentable, CaseIterable {
    /// The alarm starts ringing.
    case fire
    /// The user stopped the ringing alarm.
    case stop
    /// The user snoozed the ringing alarm.
    case snooze
    /// The user pressed the custom secondary button.
    case secondary
    /// The alarm was cancelled.
    case cancel
    /// The alarm came due while it could not ring (machine asleep, agent not running) and was
    /// later than its late limit, so it did not ring.
    case missed
    /// The ringing alarm rang the user's paired phones (`tocsin phone`).
    case phone
}

/// Shell commands the agent runs (`/bin/sh -c`) on an alarm's events.
///
/// The alarm's id, title and event reach the command through environment variables, never spliced
/// into the command text, so a title cannot inject shell syntax.
public struct AlarmHooks: Sendable, Equatable, Codable {
    /// The command for each event that has one.
    public var commands: [HookEvent: String]

    /// Creates hooks from a command per event.
    public init(_ commands: [HookEvent: String] = [:]) {
        self.commands = commands
    }

    /// The command to run on `event`, if any.
    public subscript(event: HookEvent) -> String? {
        get { commands[event] }
        set { commands[event] = newValue }
    }

    /// True when no event has a command.
    public var isEmpty: Bool { commands.isEmpty }
}
