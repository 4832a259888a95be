import CGLib
import FoundationEssentials
import GLibSupport
import TocsinCore

/// How the agent is set up; `tocsind`'s command line fills it in.
public struct AgentConfiguration: Sendable {
    /// Where the alarms are saved.
    public var stateDirectory: URL
    /// How long a hook may run before it is killed, in seconds.
    public var hookTimeLimit: Double
    /// The most alarms one application other than the user's command line may hold.
    public var alarmsPerApplication: Int = 100
    /// Where log lines go.
    public var log: AgentLog

    /// The usual set-up: state in `$XDG_STATE_HOME/tocsin`, hooks limited to a minute, log on stderr.
    public init(stateDirectory: URL = AlarmStore.defaultDirectory(), hookTimeLimit: Double = 60, log: AgentLog = .standardError) {
        self.stateDirectory = stateDirectory
        self.hookTimeLimit = hookTimeLimit
        self.log = log
    }
}

/// The agent: keeps the alarm book and turns each of its events into effects — saved state,
/// notifications, sound, hooks and D-Bus signals — on one GLib main loop.
///
/// It wakes only when something must happen: at the next deadline (a countdown ending, a ring
/// limit), on each whole second of the clock while countdowns are on screen (all updated in that
/// one wake-up), and when a D-Bus call, a button press or a signal arrives.
public final class Agent {
    let configuration: AgentConfiguration
    var log: AgentLog { configuration.log }
    let store: AlarmPersistence
    var book = AlarmBook()
    private let loop = MainLoop()
    var contentWriter = NotificationContentWriter()
    /// The wall clock's distance from the boot clock when last looked at; see `clockWasSet()`.
    private var wallClockOffset = WallClockOffset.now()
    var service: AlarmsService!
    var presenter: NotificationPresenter!
    var ringer: Ringer!
    private var hookRunner: HookRunner!
    private var deadlineTimer: DeadlineTimer!
    var wakeTimer: WakeTimer!
    private var timeZoneWatcher: TimeZoneWatcher!
    private var sleepWatcher: SleepWatcher!
    var serverMonitor: NotificationServerMonitor!
    private var mediaPlayers: MediaPlayerPauser!
    var callers: CallerIdentifier!
    var authorizationDesk: AuthorizationDesk!
    /// The copies of sandboxed apps' sound files.
    var soundCopies: SandboxedSoundCopies!
    /// The watchers of the agent's signals.
    var audience: SignalAudience!
    /// How long the signals of the start-up wait for watchers to register, in seconds.
    static let startupSignalHold = 0.5
    var isReady = false
    private var exitStatus: Int32 = 0
    /// Returns the heap left over from loading the book and from large replies.
    let memory = MemoryReturner()
    /// The seconds each countdown notification shows, so it is updated only when they change.
    private var shownSeconds: [UUID: Int] = [:]
    /// Countdowns whose notification the user closed: not updated again until their next change.
    private var dismissedCountdowns: Set<UUID> = []
    /// The whole second at which the countdowns on screen are next updated; `nil` while none is.
    private var nextCountdownTick: Date?

    /// An agent set up by `configuration`; nothing starts before `run()`.
    public init(configuration: AgentConfiguration) {
        self.configuration = configuration
        self.store = AlarmPersistence(directory: configuration.stateDirectory)
    }

    /// Connects to the session bus, takes the agent's name and serves until a termination signal
    /// or the loss of the bus. Returns the process exit status.
    public func run() -> Int32 {
        do {
            deadlineTimer = try DeadlineTimer(
                onExpiry: { [unowned self] in letTimePass() },
                onClockChange: { [unowned self] in clockWasSet() })
        } catch {
            log.error("Cannot create the wall-clock timer: \(error.message)")
            return 1
        }
        wakeTimer = WakeTimer(log: log, onWake: { [unowned self] in letTimePass() })
        service = AlarmsService(
            handler: self, log: log,
            onReady: { [unowned self] in becomeReady() },
            onLost: { [unowned self] loss in lost(loss) })
        loop.quitOnTerminationSignals { [unowned self] signal in
            // Every change is already on disk; folding the journal in leaves one tidy file.
            if isReady && store.isWritable { try? store.saveAll(book.alarms, timeZone: book.timeZone) }
            log.info("Received \(signal); exiting. Alarms are saved and will ring when the agent runs again.")
        }
        service.start()
        loop.run()
        return exitStatus
    }

    // MARK: Start-up

    /// Runs once the bus name is ours: only then can no other agent be ringing the same alarms.
    private func becomeReady() {
        // Both watchers log what they find and what they lack.
        timeZoneWatcher = TimeZoneWatcher(log: log) { [unowned self] zone in adopt(timeZone: zone) }
        adopt(timeZone: timeZoneWatcher.current.timeZone)
        sleepWatcher = SleepWatcher(log: log, onResume: { [unowned self] in
            letTimePass()
            timeZoneWatcher.checkNow()
        })
        let currentZone = book.timeZone
        soundCopies = SandboxedSoundCopies(directory: configuration.stateDirectory.appendingPathComponent("sounds"))
        loadAlarms()
        memory.returnFreedMemorySoon()
        let loadedZone = book.timeZone
        // The zone may have changed while the agent was not running: move local alarms now,
        // before anything is shown or rung.
        let movedWhileAway = book.changeTimeZone(to: currentZone, now: Date())
        if !movedWhileAway.isEmpty {
            log.info("The time zone changed while the agent was not running; \(movedWhileAway.count) alarm(s) moved to \(currentZone.identifier).")
        }
        presenter = NotificationPresenter(appName: "Tocsin", log: log)
        presenter.onAction = { [unowned self] id, key in
            if !authorizationDesk.buttonPressed(key, on: id) { buttonPressed(key, on: id) }
        }
        presenter.onDismissed = { [unowned self] id in
            if !authorizationDesk.dismissed(id) { notificationDismissed(id) }
        }
        callers = CallerIdentifier(credentials: { [unowned self] sender in service.credentials(of: sender) })
        audience = SignalAudience(
            identify: { [unowned self] sender in try? callers.identify(sender) },
            send: { [unowned self] signal, arguments, destination in service.emit(signal, arguments: arguments, to: destination) })
        service.onPeerVanished = { [unowned self] sender in
            callers.forget(sender)
            audience.remove(sender)
        }
        let authorizationStore = AuthorizationStore(directory: configuration.stateDirectory)
        let (authorizations, problem) = authorizationStore.load()
        if let problem { log.warning(problem) }
        authorizationDesk = AuthorizationDesk(authorizations: authorizations, presenter: presenter, log: log, alarmLimit: configuration.alarmsPerApplication)
        authorizationDesk.onNoted = { [unowned self] in
            do throws(StoreError) { try authorizationStore.save(authorizationDesk.authorizations) } catch { log.error(error.message) }
        }
        authorizationDesk.onChange = { [unowned self] app, state in
            authorizationDesk.onNoted()
            audience.announce(.authorizationChanged, arguments: Variant.tuple([g_variant_new_string(app), g_variant_new_string(state.rawValue)]), concerning: app)
        }
        serverMonitor = NotificationServerMonitor(log: log)
        serverMonitor.onChange = { [unowned self] in notificationServerChanged() }
        ringer = Ringer(log: log)
        mediaPlayers = MediaPlayerPauser(log: log)
        ringer.onRingingChange = { [unowned self] ringing in
            // After the ring, the signal and the alert: players' D-Bus round trips must not delay them.
            MainLoop.post { [unowned self] in
                if ringing { mediaPlayers.pausePlayers() } else { mediaPlayers.resumePlayers() }
            }
        }
        ringer.onSoundProblemChange = { [unowned self] in
            contentWriter.soundProblem = ringer.soundProblem
            refreshAll(where: { $0.state.name == .alerting })
        }
        hookRunner = HookRunner(log: log, timeLimit: configuration.hookTimeLimit)
        isReady = true
        let now = Date()
        // What came due while the agent was not running rings (or is missed) through its events;
        // everything else is shown again as it was, and what was ringing rings again.
        let caughtUp = book.advance(to: now)
        let changedByCatchingUp = Set(caughtUp.map(\.alarm.id))
        for alarm in book.alarms where !changedByCatchingUp.contains(alarm.id) {
            present(alarm, now: now)
            if case .alerting = alarm.state { ringer.ring(alarm.id, ring(of: alarm)) }
        }
        perform(caughtUp, now: now)
        save(after: movedWhileAway + caughtUp, zoneChanged: loadedZone != book.timeZone)
        rearm(now: now)
        // Watchers that waited for the agent register as soon as its name appears; what happened
        // while it started (alarms missed or rung while it was away) waits for them.
        MainLoop.after(seconds: Self.startupSignalHold) { [unowned self] in audience.open() }
        log.info("Ready on the session bus as \(AlarmsInterface.busName), holding \(book.count) alarm(s); state in \(store.fileURL.path).")
    }

    private func loadAlarms() {
        let loaded = store.load(now: Date())
        if let note = loaded.journalNote { log.warning(note) }
        switch loaded.outcome {
        case .empty:
            discardUnusedSoundCopies()
        case .loaded(let alarms):
            book = AlarmBook(alarms: alarms, timeZone: loaded.timeZone ?? book.timeZone)
            discardUnusedSoundCopies()
        case .migrated(let alarms, let version):
            book = AlarmBook(alarms: alarms, timeZone: loaded.timeZone ?? book.timeZone)
            log.info("Read the saved alarms from format version \(version); they will be saved in version \(AlarmStore.formatVersion).")
            discardUnusedSoundCopies()
        case .setAside(let reason, let movedTo):
            log.warning("The saved alarms in \(store.fileURL.path) could not be used: \(reason). The file was kept as \(movedTo.path); starting with no alarms.")
        case .unusable(let reason):
            log.error("The saved alarms in \(store.fileURL.path) could not be used: \(reason). Nothing will be saved until the file is moved away, so it is not overwritten.")
        }
        warnOfHooksThatWillNotRun()
    }

    /// Deletes the sound copies no saved alarm rings — only once the saved alarms were read: with
    /// a state file set aside or unreadable, the copies belong to alarms that may yet come back.
    private func discardUnusedSoundCopies() {
        let discarded = soundCopies.discardCopies(notAmong: book.alarms.lazy.map(\.sound))
        if discarded > 0 { log.info("Deleted \(discarded) copied sound file(s) that no alarm rings any more.") }
    }

    /// Says which saved alarms carry hooks that will not run: apps' alarms saved before Tocsin
    /// recorded where apps run (their hooks could come from a sandbox).
    private func warnOfHooksThatWillNotRun() {
        let unknownOrigin = book.alarms.filter { !$0.hooks.isEmpty && !$0.mayRunHooks }
        if !unknownOrigin.isEmpty {
            log.warning("\(unknownOrigin.count) alarm(s) of applications were saved before Tocsin recorded whether the application runs in a sandbox; their hooks will not run (the application can schedule them again): \(unknownOrigin.map { "“\($0.title)” of \($0.owner)" }.joined(separator: ", ")).")
        }
    }

    /// Resolves local times in `zone` from now on: the book moves waiting alarms, notifications
    /// show end times in the new zone.
    private func adopt(timeZone zone: TimeZoneRules) {
        // What was already due rings (or is missed) as it was, before anything moves.
        letTimePass()
        contentWriter.timeZone = zone
        let now = Date()
        let moved = book.changeTimeZone(to: zone, now: now)
        guard isReady else { return }
        log.info("The time zone is now \(zone.identifier); \(moved.count) alarm(s) moved.")
        perform(moved, now: now)
        // Every live notification shows an end time of day, which reads differently now.
        for alarm in book.alarms where alarm.state.name == .countdown || alarm.state.name == .paused {
            present(alarm, now: now)
        }
        save(after: moved, zoneChanged: true)
        letTimePass()
    }

    /// The system clock was set. Timers and snoozes measure elapsed time, so they move with it;
    /// alarms at wall-clock times stay, and whatever that made due happens now.
    private func clockWasSet() {
        let offset = WallClockOffset.now()
        let change = offset - wallClockOffset
        wallClockOffset = offset
        guard isReady else { return }
        log.info("The system clock was set \(change >= 0 ? "forward" : "back") by \(DurationFormat.spoken(abs(change))); timers keep their remaining time, alarms keep their wall-clock times.")
        book.shiftElapsedTimeCountdowns(by: change)
        saveBook()
        timeZoneWatcher.checkNow()
        for alarm in book.countingDown {
            present(alarm, now: Date())
        }
        letTimePass()
    }

    private func lost(_ loss: AlarmsService.Loss) {
        switch (loss, isReady) {
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

    // MARK: Changes

    /// Lets time pass up to now: fires what is due, updates countdowns, arms the next wake-up.
    func letTimePass() {
        guard isReady else { return }
        let now = Date()
        let events = book.advance(to: now)
        // Effects first: what time changed happens whether or not it can be saved, and an
        // fsync must not delay the ring.
        perform(events, now: now)
        // Countdowns are updated together on the clock's whole seconds, not at other wake-ups (a
        // deadline, a clock change), so a second's updates stay one batch.
        if let tick = nextCountdownTick, now >= tick { refreshCountdowns(now: now) }
        save(after: events)
        rearm(now: now)
    }

    /// Makes a change asked for by a client or a button: saved before it takes effect, so a change
    /// that cannot be saved is refused rather than lost at the next restart. `whenSaved` runs once
    /// the change is saved and made, before its effects (sound, notification, signal, hooks).
    @discardableResult
    func commit(_ change: (inout AlarmBook, Date) throws(AlarmError) -> AlarmEvent,
                whenSaved: (AlarmEvent) -> Void = { _ in }) throws(ServiceError) -> AlarmEvent {
        letTimePass()
        let now = Date()
        // Made in place and undone if it cannot be saved: a copy of the book to throw away
        // would copy every alarm on each call.
        book.beginTransaction()
        let event: AlarmEvent
        do {
            event = try change(&book, now)
        } catch {
            book.rollBackTransaction()
            throw ServiceError(error)
        }
        do {
            try store.record([event.journalChange], count: book.count, current: { [unowned self] in book.alarms }, timeZone: book.timeZone)
        } catch {
            book.rollBackTransaction()
            throw ServiceError(.storageFailed, "\(error.message) Nothing was changed.")
        }
        book.endTransaction()
        whenSaved(event)
        perform([event], now: now)
        rearm(now: now)
        return event
    }

    /// Records changes that time (or the zone) made; a failure is logged, since those changes
    /// happen anyway.
    private func save(after events: [AlarmEvent], zoneChanged: Bool = false) {
        let changes = (zoneChanged ? [.zone(book.timeZone.identifier)] : []) + events.map(\.journalChange)
        guard !changes.isEmpty else { return }
        do {
            try store.record(changes, count: book.count, current: { book.alarms }, timeZone: book.timeZone)
        } catch {
            log.error("\(error.message) The alarms are kept in memory; they may be lost if the agent stops.")
        }
    }

    /// Saves the whole book, after a change that touched alarms without events (a clock set).
    private func saveBook() {
        do {
            try store.saveAll(book.alarms, timeZone: book.timeZone)
        } catch {
            log.error("\(error.message) The alarms are kept in memory; they may be lost if the agent stops.")
        }
    }

    // MARK: Effects

    private func perform(_ events: [AlarmEvent], now: Date) {
        for event in events {
            let alarm = event.alarm
            log.info("“\(alarm.title)” (\(alarm.id.uuidString.lowercased())): \(event.kind.rawValue).")
            switch event.kind {
            case .fired:
                ringer.ring(alarm.id, ring(of: alarm))
            case .snoozed, .stopped, .cancelled, .secondary, .unacknowledged, .missed:
                ringer.silence(alarm.id)
            case .scheduled, .preAlert, .rescheduled, .paused, .resumed:
                break
            }
            // Sound first, then the signal (what clients time the transition by), then the
            // notification, whose Notify call waits for the notification server.
            emitSignal(for: event)
            dismissedCountdowns.remove(alarm.id)
            if event.removesAlarm {
                shownSeconds[alarm.id] = nil
                presenter.withdraw(alarm.id)
                soundCopies.discard(alarm.sound)
            } else {
                present(alarm, now: now)
            }
            switch event.kind {
            case .fired:
                // Last: it asks the notification server about do-not-disturb, which a server
                // busy drawing the second's countdown updates answers late; the signal and the
                // alert are out by then (the warning follows when the answer comes).
                warnIfAlertIsHidden(alarm)
            case .unacknowledged:
                presenter.announce(contentWriter.unacknowledgedNotice(for: alarm))
            case .missed:
                log.warning("“\(alarm.title)” was missed: it was due at \(event.dueDate.map { contentWriter.timeOfDay($0) } ?? "?") and the agent could not ring it within its late limit.")
                presenter.announce(contentWriter.missedNotice(for: alarm, dueAt: event.dueDate ?? now))
            default:
                break
            }
            if let hookEvent = event.kind.hookEvent, let command = alarm.hooks[hookEvent] {
                if alarm.mayRunHooks {
                    hookRunner.run(command, event: hookEvent, alarm: alarm, fireTime: event.dueDate ?? alarm.fireDate)
                } else {
                    log.warning("Not running the \(hookEvent.rawValue) hook of “\(alarm.title)”: \(alarm.owner) \(alarm.appConfinement.map { "runs in a \($0.phrase)" } ?? "scheduled it before Tocsin recorded whether it runs in a sandbox"), and Tocsin runs no command that could leave one.")
                }
            }
        }
    }

    /// Shows `alarm` as it is at `now`; `isTick` for the per-second update of a countdown, which
    /// may be held back while the notification server is behind (a change of state never is).
    private func present(_ alarm: Alarm, now: Date, isTick: Bool = false) {
        guard let content = contentWriter.liveActivity(for: alarm, at: now) else {
            // Waiting for a later occurrence: nothing on screen until its pre-alert or its ring.
            presenter.withdraw(alarm.id)
            shownSeconds[alarm.id] = nil
            return
        }
        if isTick {
            presenter.showCountdown(content, for: alarm.id)
        } else {
            presenter.show(content, for: alarm.id)
        }
        if case .countdown(let phase) = alarm.state {
            shownSeconds[alarm.id] = CountdownClock.displayedSeconds(remaining: phase.remaining(at: now))
        } else {
            shownSeconds[alarm.id] = nil
        }
    }

    /// How `alarm` rings, from when it started ringing.
    private func ring(of alarm: Alarm) -> Ringer.Ring {
        var since = Date()
        if case .alerting(let start) = alarm.state { since = start }
        return Ringer.Ring(sound: alarm.sound, volume: alarm.volume, crescendo: alarm.crescendo, since: since)
    }

    /// The notification server changed, or what it can do: show everything again for it.
    private func notificationServerChanged() {
        presenter.serverCapabilities = serverMonitor.server?.capabilities ?? []
        refreshAll(where: { _ in true })
    }

    /// Shows again every alarm that matches `condition` (after something about showing changed).
    private func refreshAll(where condition: (Alarm) -> Bool) {
        guard isReady else { return }
        let now = Date()
        for alarm in book.alarms where condition(alarm) && alarm.state.name != .scheduled {
            present(alarm, now: now)
        }
    }

    /// Do-not-disturb modes that hide even critical alerts do not stop the ring; say so where the
    /// user will look, and how to stop it.
    private func warnIfAlertIsHidden(_ alarm: Alarm) {
        serverMonitor.refresh { [unowned self] in
            if case .on(true, let how) = serverMonitor.doNotDisturb {
                log.warning("“\(alarm.title)” is ringing, but its alert is hidden (\(how)). Stop it with “tocsin stop”.")
            }
        }
    }

    /// Updates every countdown whose displayed seconds changed since it was last shown.
    private func refreshCountdowns(now: Date) {
        for alarm in book.countingDown where !dismissedCountdowns.contains(alarm.id) {
            guard let remaining = alarm.remaining(at: now) else { continue }
            if shownSeconds[alarm.id] != CountdownClock.displayedSeconds(remaining: remaining) {
                present(alarm, now: now, isTick: true)
            }
        }
    }

    /// Arms the wall-clock timer for the next deadline or countdown tick, whichever is first.
    private func rearm(now: Date) {
        var next = book.nextDeadline
        let countdownsShown = book.countingDown.contains { !dismissedCountdowns.contains($0.id) }
        nextCountdownTick = countdownsShown ? CountdownClock.nextTick(after: now) : nil
        if let tick = nextCountdownTick { next = min(next ?? tick, tick) }
        deadlineTimer.arm(at: next)
        // Only alarms wake a sleeping machine; a cooking timer is not worth it.
        wakeTimer.arm(at: book.nextAlarmFireDate)
    }

    private func emitSignal(for event: AlarmEvent) {
        let signal: AlarmsSignal = event.removesAlarm ? .removed : .changed
        audience.announce(signal, arguments: Variant.tuple([
            g_variant_new_string(event.kind.rawValue),
            Variant.make(dictionary: AlarmWireFormat.encode(event.alarm)),
        ]), concerning: event.alarm.owner)
    }

    // MARK: Notification buttons

    private func buttonPressed(_ key: String, on id: UUID) {
        guard let intent = AlarmIntent(rawValue: key) else {
            log.warning("Ignoring unknown notification action “\(key)”.")
            return
        }
        do {
            try commit { book, now throws(AlarmError) in try book.perform(intent, on: id, now: now) }
        } catch {
            log.warning("The “\(key)” button of \(id.uuidString.lowercased()) did nothing: \(error.message)")
        }
    }

    private func notificationDismissed(_ id: UUID) {
        guard let alarm = book[id] else { return }
        switch alarm.state {
        case .alerting:
            // Closing the banner does not answer the alarm: show it again so Stop stays at hand.
            log.info("The notification of ringing “\(alarm.title)” was closed; showing it again.")
            present(alarm, now: Date())
        case .countdown:
            dismissedCountdowns.insert(id)
            shownSeconds[id] = nil
        case .paused, .scheduled:
            break
        }
    }
}
