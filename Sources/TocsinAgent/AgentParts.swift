import FoundationEssentials
import TocsinCore

// The parts a running agent carries out its effects with, each behind a protocol small enough
// for TocsinAgentTests to put a recording fake in its place (Tests/TocsinAgentTests/Fakes).

/// Where the agent reads the time: the system clock, or a test's hand.
protocol AgentClock: AnyObject {
    /// The wall-clock time now.
    var now: Date { get }
}

/// Shows alarms as notifications (`NotificationPresenter`).
protocol AlarmNotifications: AnyObject {
    /// Called with the notification's key and the action key when a button is pressed.
    var onAction: (UUID, String) -> Void { get set }
    /// Called when the user closed a notification.
    var onDismissed: (UUID) -> Void { get set }
    /// Called when the server closed a notification right after one of its buttons was pressed:
    /// it is gone, but the user did not dismiss it.
    var onClosedAfterButton: (UUID) -> Void { get set }
    /// Called when the server closed a notification as dismissed just after an update, most
    /// likely on a press it lost to the update: the user did not dismiss it either.
    var onPressLostToUpdate: (UUID) -> Void { get set }
    /// Called when the server let a notification's banner go and took the notification with it
    /// (GNOME Shell 48's transient first showing): the user did not dismiss it.
    var onBannerGone: (UUID) -> Void { get set }
    /// How the server is best shown to.
    var serverProfile: NotificationServerProfile { get set }
    /// Shows `content` as key `id`'s notification, replacing what it showed.
    func show(_ content: NotificationContent, for id: UUID)
    /// Shows a countdown's per-second `content`.
    func showCountdown(_ content: NotificationContent, for id: UUID)
    /// Takes key `id`'s notification off the screen.
    func withdraw(_ id: UUID)
    /// Shows a one-off notice.
    func announce(_ content: NotificationContent)
}

/// Plays the alarm sound (`Ringer`).
protocol AlarmSounds: AnyObject {
    /// The alarms ringing, oldest first.
    var ringingAlarms: [UUID] { get }
    /// Why no sound can be played right now, if so.
    var soundProblem: String? { get }
    /// Called when `soundProblem` appears or clears.
    var onSoundProblemChange: () -> Void { get set }
    /// Starts ringing alarm `id`.
    func ring(_ id: UUID, _ ring: AlarmRing)
    /// Stops ringing alarm `id`.
    func silence(_ id: UUID)
}

/// Reads and sets the sound server's outputs (`SoundOutputLink`).
protocol SoundOutputs: AnyObject {
    /// Called with what the server says of its outputs whenever it changes (`nil`: no server).
    var onReport: (SoundOutputReport?) -> Void { get set }
    /// Sets output `sink`'s mute and every channel's volume.
    func set(sink: String, levels: OutputLevels)
    /// Sets the agent's own stream `index` (its mute and every channel's volume).
    func setStream(_ index: UInt32, levels: OutputLevels)
}

extension SoundOutputLink: SoundOutputs {}

/// Runs hooks (`HookRunner`).
protocol AlarmHooksRunning: AnyObject {
    /// Starts `command` for `event` of `alarm`, due at `fireTime`; returns at once.
    func run(_ command: String, event: HookEvent, alarm: Alarm, fireTime: Date?)
}

/// Tells the watchers (`AudienceSignals`, over `SignalAudience`).
protocol AgentSignals: AnyObject {
    /// `Changed` or `Removed` for `event`, to the watchers that may see its alarm.
    func announce(_ event: AlarmEvent)
    /// `AuthorizationChanged` for `app`, to its watchers and the command line's.
    func announceAuthorization(_ state: AuthorizationState, of app: String)
    /// Adds the bus connection `sender` to the watchers.
    func watch(from sender: String)
    /// Removes `sender`, which left the bus.
    func forget(_ sender: String)
    /// Sends what was held since start-up, and every later signal at once.
    func open()
    /// How many connections are watching.
    var watcherCount: Int { get }
}

/// Has applications perform their own intents (`AppIntentDelivery`).
protocol AppIntentsDelivering: AnyObject {
    /// Has `alarm`'s application perform the intent of `button`, starting it if need be.
    func perform(_ button: AppIntentButtons.Button, of alarm: Alarm, mode: AppIntentButtons.Mode)
    /// The connection `sender` of `appID` takes intents from now on.
    func addReceiver(_ sender: String, appID: String)
    /// Forgets `sender`, which left the bus.
    func forget(_ sender: String)
}

/// Shows what runs in the panel's tray (`TrayItem`).
protocol TrayShowing: AnyObject {
    /// Whether a panel shows tray items now.
    var isHosted: Bool { get }
    /// Who shows the item now (`tocsin doctor` says it).
    var host: PanelReadiness.Host { get }
    /// Called when a panel's tray appears or goes.
    var onHostChange: () -> Void { get set }
    /// Called with what a click in the tray asks for.
    var onAction: (TrayContent.Action) -> Void { get set }
    /// Shows `content`, or nothing.
    func show(_ content: TrayContent?)
}

/// Shows the ringing alarm as a media player (`RingingPlayer`).
protocol RingingPlayerShowing: AnyObject {
    /// Called with the intent a control of the player performs, and the alarm it performs it on.
    var onPress: (AlarmIntent, UUID) -> Void { get set }
    /// Shows `content`, or takes the player away.
    func show(_ content: RingingPlayerContent?)
}

/// Shows the alarms on a locked screen (`LockScreenService`).
protocol LockScreenShowing: AnyObject {
    /// Called with the intent a lock screen's button performs, and the alarm it performs it on.
    var onPress: (AlarmIntent, UUID) -> Void { get set }
    /// Shows `content`.
    func show(_ content: LockScreenContent)
}

/// Wakes the display and keeps it lit while alarms ring (`DisplayWaker`).
protocol DisplayWaking: AnyObject {
    /// Wakes the display now.
    func wake()
    /// Holds the display awake (`true`) or lets it go.
    func hold(_ awake: Bool)
}

/// Rings the user's paired phones (`PairedPhones`); never waits for them.
protocol PhoneRinging: AnyObject {
    /// Called once for each `ring(for:)` that reached at least one phone.
    var onRung: (Alarm) -> Void { get set }
    /// Rings every reachable paired phone for ringing `alarm`.
    func ring(for alarm: Alarm)
}

/// A timer armed for one instant at a time (`DeadlineTimer`, `WakeTimer`).
protocol InstantTimer: AnyObject {
    /// Arms the timer for `date`, or disarms it.
    func arm(at date: Date?)
}

/// What the agent knows of the notification server (`NotificationServerMonitor`).
protocol NotificationServerWatch: AnyObject {
    /// The server now, if any.
    var server: NotificationServerMonitor.Server? { get }
    /// Its do-not-disturb state.
    var doNotDisturb: NotificationServerMonitor.DoNotDisturb { get }
    /// Called when the server or its state changed.
    var onChange: () -> Void { get set }
    /// Asks the server again, then calls `completion`.
    func refresh(then completion: @escaping () -> Void)
}

/// The system's wall clock.
final class SystemClock: AgentClock {
    var now: Date { Date() }
}

extension NotificationPresenter: AlarmNotifications {}
extension Ringer: AlarmSounds {}
extension HookRunner: AlarmHooksRunning {}
extension AppIntentDelivery: AppIntentsDelivering {}
extension TrayItem: TrayShowing {}
extension RingingPlayer: RingingPlayerShowing {}
extension LockScreenService: LockScreenShowing {}
extension DisplayWaker: DisplayWaking {}
extension DeadlineTimer: InstantTimer {}
extension WakeTimer: InstantTimer {}
extension NotificationServerMonitor: NotificationServerWatch {}
