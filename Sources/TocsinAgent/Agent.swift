import CGLib
import FoundationEssentials
import GLibSupport
import TocsinCore
import TocsinEdge
import TocsinFiles

/// How the agent is set up; `tocsind`'s command line fills it in.
public struct AgentConfiguration: Sendable {
    /// Where the alarms are saved.
    public var stateDirectory: URL
    /// How long a hook may run before it is killed, in seconds.
    public var hookTimeLimit: Double
    /// The most alarms one application other than the user's command line may hold.
    public var alarmsPerApplication: Int = 100
    /// Whether the agent shows its tray item while something runs (on unless `--no-tray`). It
    /// costs nothing while no panel is there to show it: the agent only follows the names.
    public var showsTrayItem = true
    /// Where log lines go.
    public var log: AgentLog

    /// The usual set-up: state in `$XDG_STATE_HOME/tocsin`, hooks limited to a minute, log on stderr.
    public init(stateDirectory: URL = AlarmStore.defaultDirectory(), hookTimeLimit: Double = 60, log: AgentLog = .standardError) {
        self.stateDirectory = stateDirectory
        self.hookTimeLimit = hookTimeLimit
        self.log = log
    }
}

/// The agent's start-up and its link to the outside world: it takes the bus name, reads the
/// saved state, makes the real parts (GDBus service, libnotify, libcanberra, hooks, timers,
/// watchers) and hands over to a `RunningAgent`, which keeps the state and carries out what
/// `AlarmDecider` decides. It then feeds the running agent the outside world's news: a timer
/// expiring, the clock set, the zone changed, the machine resumed, a client gone.
///
/// It wakes only when something must happen: at the next deadline (a countdown ending, a ring
/// limit), on each whole second of the clock while countdowns are on screen (all updated in that
/// one wake-up), and when a D-Bus call, a button press or a signal arrives.
public final class Agent {
    let configuration: AgentConfiguration
    var log: AgentLog { configuration.log }
    private let loop = MainLoop()
    /// The wall clock's distance from the boot clock when last looked at; see `clockWasSet()`.
    private var wallClockOffset = WallClockOffset.now()
    private var service: AlarmsService!
    private var deadlineTimer: DeadlineTimer!
    private var wakeTimer: WakeTimer!
    private var timeZoneWatcher: TimeZoneWatcher!
    private var sleepWatcher: SleepWatcher!
    private var phoneSettings: SettingsFileWatcher!
    private var outputRaiseSettings: SettingsFileWatcher!
    private var lockScreenSettings: SettingsFileWatcher!
    private var mediaPlayers: MediaPlayerPauser!
    /// What other programs answered wrongly, said once per program and kind.
    private lazy var neighbourFaults = NeighbourFaults { [log] line in log.warning(line) }
    private var plasmaLock: PlasmaLockWatcher?
    /// Hands back the memory a neighbour's large message took, once it is freed.
    private var largeMessages: LargeMessageWatch?
    /// The agent once it owns its name and has read its state.
    private var running: RunningAgent?
    /// How long the signals of the start-up wait for watchers to register, in seconds.
    static let startupSignalHold = 0.5
    private var exitStatus: Int32 = 0

    /// An agent set up by `configuration`; nothing starts before `run()`.
    public init(configuration: AgentConfiguration) {
        self.configuration = configuration
    }

    /// Connects to the session bus, takes the agent's name and serves until a termination signal
    /// or the loss of the bus. Returns the process exit status.
    public func run() -> Int32 {
        do {
            deadlineTimer = try DeadlineTimer(
                onExpiry: { [unowned self] in running?.run(.timePassed) },
                onClockChange: { [unowned self] in clockWasSet() })
        } catch {
            log.error("Cannot create the wall-clock timer: \(error.message)")
            return 1
        }
        wakeTimer = WakeTimer(log: log, onWake: { [unowned self] in running?.run(.timePassed) })
        do {
            service = try AlarmsService(
                log: log,
                onReady: { [unowned self] in becomeReady() },
                onLost: { [unowned self] loss in lost(loss) })
        } catch {
            log.error("Cannot describe the D-Bus interface to GDBus: \(error.message)")
            return 1
        }
        loop.quitOnTerminationSignals { [unowned self] signal in
            // Every change is already on disk; folding the journal in leaves one tidy file.
            running?.saveEverything()
            log.info("Received \(signal); exiting. Alarms are saved and will ring when the agent runs again.")
        }
        service.start()
        loop.run()
        return exitStatus
    }

    // MARK: Start-up

    /// Runs once the bus name is ours: only then can no other agent be ringing the same alarms.
    private func becomeReady() {
        let store = AlarmPersistence(directory: configuration.stateDirectory)
        let soundCopies = SandboxedSoundCopies(stateDirectory: configuration.stateDirectory)
        let book = loadAlarms(from: store, soundCopies: soundCopies)
        let authorizationStore = AuthorizationStore(directory: configuration.stateDirectory)
        let (authorizations, problem) = authorizationStore.load()
        if let problem { log.warning(problem) }

        let callers = CallerIdentifier(credentials: { [unowned self] sender in service.credentials(of: sender) })
        let audience = SignalAudience(
            identify: { sender in try? callers.identify(sender) },
            send: { [unowned self] signal, arguments, destination in service.emit(signal, arguments: arguments, to: destination) })
        let appIntents = AppIntentDelivery(log: log, connection: { [unowned self] in service.connection })
        let ownUser = OwnUserGate { [unowned self] sender, answer in
            service.withCredentials(of: sender) { credentials in answer(credentials?.userID == getuid()) }
        }
        let tray = TrayItem(log: log, connection: { [unowned self] in service.connection }, gate: ownUser)
        let player = RingingPlayer(log: log, connection: { [unowned self] in service.connection }, gate: ownUser)
        let lockScreen = LockScreenService(log: log, now: { Date() }, gate: ownUser)
        if let connection = service.connection { lockScreen.export(on: connection) }
        let display = DisplayWaker(log: log, connection: { [unowned self] in service.connection }, lockScreen: lockScreen)
        let ringer = Ringer(log: log)
        // Never Tocsin's own player: paused, it would stop the alarm it shows.
        mediaPlayers = MediaPlayerPauser(log: log, players: MPRISPlayers(connection: service.connection, faults: neighbourFaults),
                                         sparing: RingingPlayer.busName)
        ringer.onRingingChange = { [unowned self] ringing in
            // After the ring, the signal and the alert: players' D-Bus round trips must not delay them.
            MainLoop.post { [unowned self] in
                if ringing { mediaPlayers.pausePlayers() } else { mediaPlayers.resumePlayers() }
            }
        }
        let outputRecordStore = OutputRecordStore(directory: configuration.stateDirectory)
        let running = RunningAgent(
            configuration: configuration, store: store, book: book, authorizations: authorizations,
            authorizationStore: authorizationStore, soundCopies: soundCopies,
            outputRecord: loadOutputRecord(from: outputRecordStore), outputRecordStore: outputRecordStore,
            parts: RunningAgent.Parts(
                clock: SystemClock(), notifications: NotificationPresenter(appName: "Tocsin", log: log), sounds: ringer,
                hooks: HookRunner(log: log, timeLimit: configuration.hookTimeLimit),
                appIntents: appIntents, signals: AudienceSignals(audience: audience), tray: configuration.showsTrayItem ? tray : nil,
                phones: PairedPhones(log: log, connection: { [unowned self] in service.connection }), player: player,
                lockScreen: lockScreen, display: display, outputs: SoundOutputLink(log: log, faults: neighbourFaults),
                deadline: deadlineTimer, wake: wakeTimer, wakeAvailability: wakeTimer.availability,
                server: NotificationServerMonitor(log: log, faults: neighbourFaults), callers: callers))
        self.running = running
        service.onPeerVanished = { sender in
            callers.forget(sender)
            running.signals.forget(sender)
            running.appIntents.forget(sender)
        }
        running.memory.returnFreedMemorySoon()
        // A neighbour's message of megabytes is freed once read, but glibc keeps the memory.
        if let connection = service.connection {
            largeMessages = LargeMessageWatch(on: connection) { running.memory.returnFreedMemorySoon() }
        }
        // Both watchers log what they find and what they lack.
        timeZoneWatcher = TimeZoneWatcher(log: log, faults: neighbourFaults) { zone in running.run(.timeZoneChanged(zone)) }
        sleepWatcher = SleepWatcher(log: log, faults: neighbourFaults, onResume: { [unowned self] in
            running.run(.timePassed)
            timeZoneWatcher.checkNow()
        })
        phoneSettings = .phoneSettings(PhoneSettingsStore(), log: log) { settings in running.run(.phoneSettingsChanged(settings)) }
        phoneSettings.start()
        // Before the start, so that alarms ringing again after a restart raise the output (or
        // leave it) as the user's settings say.
        outputRaiseSettings = .outputRaiseSettings(OutputRaiseSettingsStore(), log: log) { settings in
            running.run(.outputRaiseSettingsChanged(settings))
        }
        outputRaiseSettings.start()
        // Before the start too: an alarm ringing again after a restart keeps its title private.
        lockScreenSettings = .lockScreenSettings(LockScreenSettingsStore(), log: log) { settings in
            running.run(.lockScreenSettingsChanged(settings))
        }
        lockScreenSettings.start()
        running.run(.started(in: timeZoneWatcher.current.timeZone))
        plasmaLock = PlasmaLockWatcher(log: log, faults: neighbourFaults, connection: service.connection) { isUp in running.run(.lockScreenKeepingPlayerChanged(isUp: isUp)) }
        // Follows the panel's tray from now on; the item shows once one is there.
        if configuration.showsTrayItem { tray.start() }
        service.handler = running
        // Watchers that waited for the agent register as soon as its name appears; what happened
        // while it started (alarms missed or rung while it was away) waits for them.
        MainLoop.after(seconds: Self.startupSignalHold) { running.signals.open() }
        log.info("Ready on the session bus as \(AlarmsInterface.busName), holding \(running.book.count) alarm(s); state in \(store.fileURL.path).")
    }

    /// What an earlier run raised on an output and did not put back (it was killed mid-ring);
    /// an unreadable record is moved aside, said in the log, and not acted on.
    private func loadOutputRecord(from store: OutputRecordStore) -> OutputRecord? {
        do throws(StoreError) {
            let record = try store.load()
            if let record { log.info("Output “\(record.sink)” was raised for an alarm when the agent last stopped; it is put back once the sound server answers.") }
            return record
        } catch {
            let aside = try? store.setAside(now: Date())
            log.warning("\(error.message); the output it names is left as it is\(aside.map { " (the file is now \($0))" } ?? "").")
            return nil
        }
    }

    /// The saved alarms, and what the log should say of them; the copies in `soundCopies` no
    /// saved alarm rings go.
    private func loadAlarms(from store: AlarmPersistence, soundCopies: SandboxedSoundCopies) -> AlarmBook {
        let loaded = store.load(now: Date())
        if let note = loaded.journalNote { log.warning(note) }
        var book = AlarmBook()
        switch loaded.outcome {
        case .empty:
            break
        case .loaded(let alarms):
            book = AlarmBook(alarms: alarms, timeZone: loaded.timeZone ?? book.timeZone)
        case .migrated(let alarms, let version):
            book = AlarmBook(alarms: alarms, timeZone: loaded.timeZone ?? book.timeZone)
            log.info("Read the saved alarms from format version \(version); they will be saved in version \(AlarmStore.formatVersion).")
        case .setAside(let reason, let movedTo):
            log.warning("The saved alarms in \(store.fileURL.path) could not be used: \(reason). The file was kept as \(movedTo.path); starting with no alarms.")
        case .unusable(let reason):
            log.error("The saved alarms in \(store.fileURL.path) could not be used: \(reason). Nothing will be saved until the file is moved away, so it is not overwritten.")
        }
        switch loaded.outcome {
        case .empty, .loaded, .migrated:
            // Only once the saved alarms were read: with a state file set aside or unreadable, the
            // copies belong to alarms that may yet come back.
            let discarded = soundCopies.discardCopies(notAmong: book.unorderedAlarms.lazy.map(\.sound))
            if discarded > 0 { log.info("Deleted \(discarded) copied sound file(s) that no alarm rings any more.") }
        case .setAside, .unusable:
            break
        }
        // Apps' alarms saved before Tocsin recorded where apps run: their hooks could come from a sandbox.
        let unknownOrigin = book.unorderedAlarms.filter { !$0.hooks.isEmpty && !$0.mayRunHooks }
        if !unknownOrigin.isEmpty {
            log.warning("\(unknownOrigin.count) alarm(s) of applications were saved before Tocsin recorded whether the application runs in a sandbox; their hooks will not run (the application can schedule them again): \(unknownOrigin.map { "“\($0.title)” of \($0.owner)" }.joined(separator: ", ")).")
        }
        return book
    }

    // MARK: The outside world

    /// The system clock was set: by how much is read here, from the kernel's clocks, and the
    /// running agent moves what measures elapsed time by that much.
    private func clockWasSet() {
        let offset = WallClockOffset.now()
        let change = offset - wallClockOffset
        wallClockOffset = offset
        guard let running else { return }
        running.run(.clockSet(by: change))
        timeZoneWatcher.checkNow()
    }

    private func lost(_ loss: AlarmsService.Loss) {
        switch (loss, running != nil) {
        case (.noBus, false):
            log.error("Cannot connect to the session bus; is DBUS_SESSION_BUS_ADDRESS set?")
            exitStatus = 1
        case (.noBus, true):
            log.error("Lost the connection to the session bus; exiting (alarms are saved).")
            exitStatus = 1
        case (.nameTaken, false):
            log.info("Another Tocsin agent already serves \(AlarmsInterface.busName) on this session bus; this one exits.")
        case (.nameTaken, true):
            log.error("Lost the bus name \(AlarmsInterface.busName); exiting.")
            exitStatus = 1
        }
        loop.quit()
    }
}
