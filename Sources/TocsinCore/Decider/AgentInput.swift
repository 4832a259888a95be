import FoundationEssentials

/// Everything that can change an alarm, or what the agent shows of one: the only things
/// `AlarmDecider.decide` is given. The agent's adapters turn D-Bus calls, button presses,
/// timers and watchers' news into these; nothing else reaches the alarms.
public enum AgentInput: Sendable, Equatable {
    /// The agent has read its state and starts, in time zone `zone`: what came due while it was
    /// away rings (or is missed), what was ringing rings again, everything live is shown again.
    case started(in: TimeZoneRules)
    /// Time passed: the deadline timer went off, the machine resumed from sleep, or a whole
    /// second of the countdowns on screen came.
    case timePassed
    /// Someone asks for `change`. It is made at once but saved before it takes effect: the
    /// decision ends with `.commit`, and the agent answers with `.changeSaved` or
    /// `.changeNotSaved` before anything else.
    case asked(AlarmChange, by: ChangeOrigin)
    /// The change asked for was saved: it takes effect.
    case changeSaved
    /// The change asked for could not be saved (`reason`): it is undone, as if never asked.
    case changeNotSaved(reason: String)
    /// The user closed the notification of alarm `id`.
    case notificationClosed(UUID)
    /// The notification of alarm `id` went away though the user did not close it (`why`).
    case notificationLost(UUID, NotificationLoss)
    /// The system's time zone is now `zone`.
    case timeZoneChanged(TimeZoneRules)
    /// The system clock was set by `seconds` (forward when positive).
    case clockSet(by: TimeInterval)
    /// The notification server changed, or what it can do: everything live is shown again.
    case notificationServerChanged
    /// Why no sound can be played now (`nil`: sound works again); ringing alerts say it.
    case soundProblemChanged(String?)
    /// A panel (the tray's host) appeared (`true`) or went away.
    case panelChanged(isShown: Bool)
    /// The user's settings for ringing the paired phones.
    case phoneSettingsChanged(PhoneRingSettings)
    /// The paired phones were rung for `alarm` (as it was when they were asked to ring).
    case phonesRung(Alarm)
    /// The sound server's outputs are as `report` says (`nil`: no sound server answers).
    case soundOutputChanged(SoundOutputReport?)
    /// The user's settings for raising a muted or turned-down output while an alarm rings.
    case outputRaiseSettingsChanged(OutputRaiseSettings)
    /// The user's settings for what a locked screen shows of alarms.
    case lockScreenSettingsChanged(LockScreenSettings)
    /// A lock screen that shows media players but loses sight of those that come after the last
    /// one left (Plasma 5.27's greeter) came up or is about to (`true`), or went: while it is up,
    /// Tocsin's media player stays on the bus between rings, waiting with the next alarm to ring.
    case lockScreenKeepingPlayerChanged(isUp: Bool)
}

/// A change someone asks of the alarms.
public enum AlarmChange: Sendable, Equatable {
    /// Add the alarm `request` describes as `id`, for application `owner` (`nil`: the user's
    /// command line), which runs in `confinement` and may hold at most `ownerLimit` alarms.
    case schedule(AlarmRequest, id: UUID, owner: String?, confinement: AppConfinement, ownerLimit: Int?)
    /// Apply `intent` to alarm `id`.
    case perform(AlarmIntent, on: UUID)
    /// Stop every alarm that rings (the tray's "Stop all").
    case stopEveryRinging
}

/// Who asked for a change.
public enum ChangeOrigin: Sendable, Equatable {
    /// A client's call: the application (its `Alarm.owner` id) or the command line.
    case client(String)
    /// The user's press of a notification's button or of the tray's menu.
    case press
}

/// Why a notification went away without the user closing it.
public enum NotificationLoss: Sendable, Equatable {
    /// The server closed it after a button was pressed (as servers without resident
    /// notifications do).
    case closedAfterButton
    /// Its banner was handed over to the message list (`BannerHandover`).
    case bannerHandedOver
    /// The server (named `server`) closed it while redrawing its buttons, most likely under a
    /// press that it lost.
    case redrawnUnderPress(server: String)
}

/// How a change asked for ended, as the asker is told.
public enum ChangeOutcome: Sendable, Equatable {
    /// Made and saved.
    case made
    /// Refused: nothing changed.
    case refused(AlarmError)
    /// Allowed but not saved (`reason`): nothing changed.
    case notSaved(reason: String)
}
