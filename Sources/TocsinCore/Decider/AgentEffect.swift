import FoundationEssentials

/// One thing the agent must do, decided by `AlarmDecider` and carried out by the agent's
/// adapters (notifications, sound, hooks, D-Bus, timers, the state files). Effects are values:
/// the decider's tests read them, and the agent only carries them out, in order.
public enum AgentEffect: Sendable, Equatable {
    /// A log line.
    case log(LogLevel, String)
    /// Start ringing alarm `id` as `ring` says (no change if it already rings).
    case ring(UUID, AlarmRing)
    /// Stop ringing alarm `id`.
    case silence(UUID)
    /// Save `record`, what Tocsin is about to change on an output, before it does (`nil`:
    /// forget it, the output is put back).
    case saveOutputRecord(OutputRecord?)
    /// Set output `sink` to `levels`: unmuted and raised for a ringing alarm, or put back.
    case setOutput(sink: String, levels: OutputLevels)
    /// Set the agent's own stream `index` (the alarm's sound, started muted or quieter than
    /// asked by what the sound server remembered) to `levels`.
    case setStream(UInt32, levels: OutputLevels)
    /// Tell the watchers that may see it: `Changed`, or `Removed` when the event removes the alarm.
    case signal(AlarmEvent)
    /// Show `content` as alarm `id`'s notification, replacing what it showed; `isTick` for a
    /// countdown's per-second update, which may wait behind changes.
    case show(UUID, NotificationContent, isTick: Bool)
    /// Take alarm `id`'s notification off the screen.
    case withdraw(UUID)
    /// Show a one-off notice that belongs to no alarm.
    case announce(NotificationContent)
    /// Run a hook's shell command.
    case runHook(command: String, event: HookEvent, alarm: Alarm, fireTime: Date?)
    /// Have `alarm`'s application perform the intent of its `button` in its own process —
    /// starting it if it is not running — and, for a `.foreground` intent, bring it to the front.
    case performAppIntent(alarm: Alarm, button: AppIntentButtons.Button, mode: AppIntentButtons.Mode)
    /// Ring the user's paired phones for ringing `alarm` (find-my-phone and a ping with its title).
    case ringPhones(Alarm)
    /// Ask the notification server whether do-not-disturb hides `alarm`'s alert, and say so.
    case checkAlertVisibility(Alarm)
    /// Delete the sound file the agent copied for an alarm that is gone (nothing if `sound` is
    /// not such a copy).
    case discardSoundCopy(AlarmSound)
    /// Record `changes` in the journal (time's changes, which happen whether or not they are
    /// saved: a failure is only logged).
    case save([JournalChange])
    /// Write every alarm, as the book holds them after this decision, as a new snapshot (after a
    /// change that touched alarms without events: the clock set); a failure is only logged.
    case saveAll
    /// Record `changes`, the change someone asked for, before it takes effect; the agent answers
    /// `.changeSaved`, or `.changeNotSaved` when it could not, before any other input.
    case commit([JournalChange])
    /// Tell whoever asked for the change how it ended.
    case answer(ChangeOutcome)
    /// Show `content` in the tray (`nil`: nothing runs, the item goes); only while a panel
    /// shows the tray.
    case showTray(TrayContent?)
    /// Show `content` as Tocsin's media player while alarms ring (`nil`: none rings, the player
    /// goes).
    case showPlayer(RingingPlayerContent?)
    /// Give the lock screen's surfaces (`io.github.tocsin.LockScreen1`) what they show now.
    case showLockScreen(LockScreenContent)
    /// Wake the display (and a locked screen's lock dialog) for a ringing alarm, without unlocking.
    case wakeDisplay
    /// Keep the display from going idle (`true`, from the first ring) or let it go (after the last).
    case holdDisplayAwake(Bool)
    /// Arm the wall-clock timer for `date` (`nil`: nothing to wait for).
    case armDeadline(Date?)
    /// Arm the timer that wakes a suspended machine for `date` (`nil`: disarm).
    case armWake(Date?)

    /// How serious a log line is.
    public enum LogLevel: String, Sendable, Equatable {
        case info, warning
    }
}

/// How an alarm rings: what, how loud, and whether it rises.
public struct AlarmRing: Sendable, Equatable {
    /// What plays.
    public var sound: AlarmSound
    /// How loud (`nil`: full).
    public var volume: Double?
    /// How long the ring takes to rise from soft to its volume (`nil`: it does not rise).
    public var crescendo: TimeInterval?
    /// When it started ringing, for the crescendo.
    public var since: Date

    /// A ring of `sound` at `volume`, rising over `crescendo`, ringing since `since`.
    public init(sound: AlarmSound, volume: Double?, crescendo: TimeInterval?, since: Date) {
        self.sound = sound
        self.volume = volume
        self.crescendo = crescendo
        self.since = since
    }

    /// How `alarm` rings; `since` is when it started ringing, or `now` for one that has not.
    public init(of alarm: Alarm, now: Date) {
        var since = now
        if case .alerting(let start) = alarm.state { since = start }
        self.init(sound: alarm.sound, volume: alarm.volume, crescendo: alarm.crescendo, since: since)
    }
}
