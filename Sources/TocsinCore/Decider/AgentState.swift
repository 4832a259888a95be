import FoundationEssentials

/// Everything the agent decides from: every alarm, what is shown of them, and the phones'
/// settings. `AlarmDecider` is the only thing that changes it; the agent reads it (to answer
/// `List`, `Get`, `GetStatus`) and carries out the effects of each change.
public struct AgentState: Sendable {
    /// Every alarm the agent holds.
    public internal(set) var book: AlarmBook
    /// Writes what notifications say: the zone and locale of end times, a sound problem.
    public internal(set) var contentWriter: NotificationContentWriter
    /// What the screen shows of the alarms.
    public internal(set) var screen = Screen()
    /// When ringing alarms ring the paired phones.
    public internal(set) var phones = Phones()
    /// The sound server's outputs, and what Tocsin raised on one so that an alarm is heard.
    public internal(set) var output = Output()
    /// A change asked for, made in `book` and waiting to be saved before it takes effect.
    var pendingChange: PendingChange?

    /// The state of an agent holding `book` (as loaded), writing times for the locale
    /// `localeIdentifier` in the book's zone. Nothing is on screen yet. `outputRecord`: what an
    /// earlier run raised on an output and did not put back (it was killed mid-ring).
    public init(book: AlarmBook, localeIdentifier: String, outputRecord: OutputRecord? = nil) {
        self.book = book
        contentWriter = NotificationContentWriter(timeZone: book.timeZone, localeIdentifier: localeIdentifier)
        output.record = outputRecord
    }

    /// What the screen shows of the alarms: which countdowns are on screen and with how many
    /// seconds, so a countdown is updated only when its seconds change; which ones the user
    /// closed; whether a panel shows them all; what the media player shows.
    public struct Screen: Sendable, Equatable {
        /// The whole second at which the countdowns on screen are next updated; `nil` while none is.
        public internal(set) var nextCountdownTick: Date?
        /// The seconds each countdown notification shows.
        var shownSeconds: [UUID: Int] = [:]
        /// Countdowns whose notification the user closed: not updated again until their next change.
        var dismissedCountdowns: Set<UUID> = []
        /// Whether a panel shows the tray, and with it every countdown: then the clock's whole
        /// seconds are woken for even when no countdown notification is on screen.
        public internal(set) var panelIsShown = false
        /// What Tocsin's media player shows: the alarm ringing longest; while none rings, the next
        /// to ring if `lockScreenKeepsPlayer`; otherwise `nil`, and there is no player.
        public internal(set) var player: RingingPlayerContent?
        /// Whether a lock screen is up that must keep seeing Tocsin's player between rings
        /// (`AgentInput.lockScreenKeepingPlayerChanged`).
        public internal(set) var lockScreenKeepsPlayer = false
        /// What the lock screen's surfaces were last given (`LockScreenContent`); `nil` before the
        /// first decision.
        public internal(set) var lockScreen: LockScreenContent?
        /// What a locked screen may show of the alarms (`tocsin config lock-screen-titles`).
        public internal(set) var lockScreenSettings = LockScreenSettings.standard
        /// The ringing alarms the display was woken for, and is held lit for while they ring.
        var displayWokenFor: Set<UUID> = []
        /// When the display is woken again while alarms ring (`AgentState.displayWakeInterval`);
        /// `nil` while none rings.
        public internal(set) var nextDisplayWake: Date?
    }

    /// When ringing alarms ring the paired phones.
    public struct Phones: Sendable, Equatable {
        /// The user's settings (`tocsin phone`).
        public internal(set) var settings = PhoneRingSettings.off
        /// When each ringing alarm rings the phones, if nobody answers at the desk first.
        public internal(set) var due: [UUID: Date] = [:]
    }

    /// A change made in the book and waiting for its save: its events, and who asked.
    struct PendingChange: Sendable {
        var events: [AlarmEvent]
        var origin: ChangeOrigin
    }
}
