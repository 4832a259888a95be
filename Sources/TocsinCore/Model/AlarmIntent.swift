/// What a user (or app) asks of an alarm: a button press, a D-Bus call or a CLI command.
///
/// Every way in — notification buttons, D-Bus methods, the CLI — goes through the same intents,
/// so they cannot disagree about what is allowed.
public enum AlarmIntent: String, Sendable, Codable, CaseIterable {
    /// Hold a counting-down timer, keeping its remaining time.
    case pause
    /// Continue a paused timer from where it was.
    case resume
    /// Remove the alarm, whatever its state.
    case cancel
    /// Silence a ringing alarm; a one-shot alarm is then removed.
    case stop
    /// Snooze a ringing alarm: count down its snooze duration again, then ring again.
    case countdown
    /// Press the ringing alarm's secondary button (snooze or custom action).
    case secondary

    /// The verb as a person says it ("pause", "snooze"), for messages.
    public var verb: String {
        switch self {
        case .countdown: "snooze"
        case .secondary: "press the second button of"
        default: rawValue
        }
    }
}

extension AlarmIntent {
    /// What the alarm is after the intent, for messages ("paused", "snoozed").
    public var pastParticiple: String {
        switch self {
        case .pause: "paused"
        case .resume: "resumed"
        case .cancel: "cancelled"
        case .stop: "stopped"
        case .countdown: "snoozed"
        case .secondary: "answered"
        }
    }
}

extension AlarmStateName {
    /// What a click on the alarm itself does in this state, wherever Tocsin shows one thing to
    /// click for it: the notification's `default` action and the tray menu's line for it. The
    /// button a person reaches for first: Pause while it counts down, Resume while paused,
    /// Stop while it rings; nothing while it waits.
    public var clickIntent: AlarmIntent? {
        switch self {
        case .countdown: .pause
        case .paused: .resume
        case .alerting: .stop
        case .scheduled: nil
        }
    }

    /// How the state reads in a sentence: "it is ringing".
    public var phrase: String {
        switch self {
        case .scheduled: "scheduled"
        case .countdown: "counting down"
        case .paused: "paused"
        case .alerting: "ringing"
        }
    }
}
