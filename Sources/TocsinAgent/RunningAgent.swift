import FoundationEssentials
import TocsinCore

/// The agent once it owns its bus name and has read its state: the alarm book, the planner that
/// decides what each change means, and the parts that carry it out.
///
/// It decides nothing itself. A change comes from a client, a button or time; the book turns it
/// into events; `AgentPlanner` turns events into `AgentEffect`s; `carryOut` hands each to its
/// part. Every part is a `let` behind a small protocol (AgentParts.swift) and the time is read
/// from `clock`, so TocsinAgentTests run the whole agent in-process with recording fakes and a
/// hand-driven clock. `Agent` starts it (bus name, state, the real parts) and feeds it the
/// outside world's news: timers expiring, the clock set, the zone changed, the machine resumed.
final class RunningAgent {
    /// The parts a running agent works with.
    struct Parts {
        let clock: AgentClock
        let notifications: AlarmNotifications
        let sounds: AlarmSounds
        let hooks: AlarmHooksRunning
        let appIntents: AppIntentsDelivering
        let signals: AgentSignals
        /// The tray item; `nil` for none.
        var tray: TrayShowing? = nil
        /// The paired phones; `nil` for none.
        var phones: PhoneRinging? = nil
        let deadline: InstantTimer
        let wake: InstantTimer
        /// Whether `wake` can wake a suspended machine, for `tocsin status`.
        let wakeAvailability: WakeTimer.Availability
        let server: NotificationServerWatch
        let callers: CallerIdentifier
    }

    let configuration: AgentConfiguration
    var log: AgentLog { configuration.log }
    let store: AlarmPersistence
    private(set) var book: AlarmBook
    private(set) var planner: AgentPlanner
    let clock: AgentClock
    let notifications: AlarmNotifications
    let sounds: AlarmSounds
    let hooks: AlarmHooksRunning
    let appIntents: AppIntentsDelivering
    let signals: AgentSignals
    /// The tray item, if the agent shows one.
    let tray: TrayShowing?
    /// The paired phones, if the agent may ring any.
    let phones: PhoneRinging?
    private let deadline: InstantTimer
    private let wake: InstantTimer
    let wakeAvailability: WakeTimer.Availability
    let server: NotificationServerWatch
    let callers: CallerIdentifier
    let authorizationDesk: AuthorizationDesk
    /// The copies of sandboxed apps' sound files.
    let soundCopies: SandboxedSoundCopies
    /// Returns the heap left over from large replies.
    let memory = MemoryReturner()

    /// A running agent with `book` (as loaded), the answers in `authorizations` (saved with
    /// `authorizationStore`), the sound copies in `soundCopies` and `parts`. Nothing happens
    /// before `start(in:)`.
    init(configuration: AgentConfiguration, store: AlarmPersistence, book: AlarmBook, authorizations: AppAuthorizations,
         authorizationStore: AuthorizationStore?, soundCopies: SandboxedSoundCopies, parts: Parts) {
        self.configuration = configuration
        self.store = store
        self.book = book
        clock = parts.clock
        notifications = parts.notifications
        sounds = parts.sounds
        hooks = parts.hooks
        appIntents = parts.appIntents
        signals = parts.signals
        tray = parts.tray
        phones = parts.phones
        deadline = parts.deadline
        wake = parts.wake
        wakeAvailability = parts.wakeAvailability
        server = parts.server
        callers = parts.callers
        self.soundCopies = soundCopies
        planner = AgentPlanner(contentWriter: NotificationContentWriter(timeZone: book.timeZone))
        authorizationDesk = AuthorizationDesk(authorizations: authorizations, presenter: parts.notifications, log: configuration.log,
                                              alarmLimit: configuration.alarmsPerApplication)
        connectParts(savingAuthorizationsTo: authorizationStore)
    }

    /// Routes the parts' news (presses, closes, a panel coming, the sound server) to the agent.
    /// Not in `init`: there, `book` would name the book as loaded, not the agent's own, and a
    /// callback reading it would see none of the alarms set since (the tray's host change armed
    /// the timers from the empty start-up book, so a timer set then never rang).
    private func connectParts(savingAuthorizationsTo authorizationStore: AuthorizationStore?) {
        authorizationDesk.onNoted = { [unowned self] in
            guard let authorizationStore else { return }
            do throws(StoreError) { try authorizationStore.save(authorizationDesk.authorizations) } catch { log.error(error.message) }
        }
        authorizationDesk.onChange = { [unowned self] app, state in
            authorizationDesk.onNoted()
            signals.announceAuthorization(state, of: app)
        }
        notifications.onAction = { [unowned self] id, key in
            if !authorizationDesk.buttonPressed(key, on: id) { buttonPressed(key, on: id) }
        }
        notifications.onDismissed = { [unowned self] id in
            if !authorizationDesk.dismissed(id) { notificationDismissed(id) }
        }
        notifications.onClosedAfterButton = { [unowned self] id in
            // The button's effects came first; what the alarm shows now is shown anew.
            showAnew(id)
        }
        notifications.onBannerGone = { [unowned self] id in showAnew(id) }
        notifications.onPressLostToUpdate = { [unowned self] id in
            guard let alarm = book[id], alarm.state.name != .scheduled else {
                // Not an alarm's (a question's): taken as the dismissal it says it is.
                if !authorizationDesk.dismissed(id) { notificationDismissed(id) }
                return
            }
            log.info("\(notifications.serverProfile.family.rawValue) closed the notification of “\(alarm.title)” as it redrew its buttons, most likely under a press that it lost; showing it again.")
            carryOut(planner.present(alarm, now: clock.now))
        }
        planner.panelShowsCountdowns = tray?.isHosted ?? false
        tray?.onAction = { [unowned self] action in trayClicked(action) }
        tray?.onHostChange = { [unowned self] in
            planner.panelShowsCountdowns = tray?.isHosted ?? false
            refreshTray()
            carryOut(planner.arm(book, now: clock.now))
        }
        phones?.onRung = { [unowned self] alarm in carryOut(planner.phonesRung(for: alarm)) }
        server.onChange = { [unowned self] in notificationServerChanged() }
        sounds.onSoundProblemChange = { [unowned self] in
            planner.contentWriter.soundProblem = sounds.soundProblem
            refreshAll(where: { $0.state.name == .alerting })
        }
    }

    // MARK: Start-up

    /// Starts in time zone `zone`: local alarms move if the zone changed while the agent was not
    /// running, what came due meanwhile rings (or is missed), everything else is shown again as
    /// it was, and what was ringing rings again.
    func start(in zone: TimeZoneRules) {
        let loadedZone = book.timeZone
        let now = clock.now
        // Moved before anything is shown or rung.
        let movedWhileAway = book.changeTimeZone(to: zone, now: now)
        planner.contentWriter.timeZone = zone
        if !movedWhileAway.isEmpty {
            log.info("The time zone changed while the agent was not running; \(movedWhileAway.count) alarm(s) moved to \(zone.identifier).")
        }
        let caughtUp = book.advance(to: now)
        carryOut(planner.resume(book.alarms, except: Set(caughtUp.map(\.alarm.id)), now: now))
        carryOut(planner.react(to: caughtUp, now: now))
        save(after: movedWhileAway + caughtUp, zoneChanged: loadedZone != book.timeZone)
        carryOut(planner.arm(book, now: now))
        refreshTray()
    }

    // MARK: Changes

    /// Lets time pass up to now: fires what is due, updates countdowns, arms the next wake-up.
    func letTimePass() {
        let now = clock.now
        carryOut(planner.timePassed(book.advance(to: now), book: book, now: now))
        refreshTray(atTick: true)
    }

    /// Makes a change asked for by a client or a button: saved before it takes effect, so a change
    /// that cannot be saved is refused rather than lost at the next restart. `caller` is the
    /// calling client's `Alarm.owner` id (`nil` for a button). `whenSaved` runs once the change
    /// is saved and made, before its effects (sound, notification, signal, hooks).
    @discardableResult
    func commit(_ change: (inout AlarmBook, Date) throws(AlarmError) -> AlarmEvent, causedBy caller: String? = nil,
                whenSaved: (AlarmEvent) -> Void = { _ in }) throws(TocsinError) -> AlarmEvent {
        letTimePass()
        let now = clock.now
        // Made in place and undone if it cannot be saved: a copy of the book to throw away
        // would copy every alarm on each call.
        book.beginTransaction()
        let event: AlarmEvent
        do {
            event = try change(&book, now)
        } catch {
            book.rollBackTransaction()
            throw TocsinError(error)
        }
        do {
            try store.record([event.journalChange], count: book.count, current: { [unowned self] in book.alarms }, timeZone: book.timeZone)
        } catch {
            book.rollBackTransaction()
            throw TocsinError(.storageFailed, "\(error.message) Nothing was changed.")
        }
        book.endTransaction()
        whenSaved(event)
        carryOut(planner.react(to: [event], now: now, causedBy: caller))
        carryOut(planner.arm(book, now: now))
        refreshTray()
        return event
    }

    // MARK: Phones

    /// Follows the user's phone settings (`tocsin phone`), as read from their file.
    func adopt(phoneRings settings: PhoneRingSettings) {
        guard settings != planner.phoneRings else { return }
        planner.adopt(phoneRings: settings, book: book)
        log.info(settings.isEnabled
            ? "Alarms ring the paired phones after \(DurationFormat.spoken(settings.delay)) unanswered."
            : "Alarms ring no phone.")
        carryOut(planner.arm(book, now: clock.now))
    }

    // MARK: The tray

    /// Shows what is on screen in the tray: as at `now` after a change, as at the whole second
    /// when time passed (`atTick`, the notification's second). Nothing is worked out while no
    /// panel shows a tray.
    private func refreshTray(atTick: Bool = false) {
        guard let tray, tray.isHosted else { return }
        let now = clock.now
        tray.show(TrayContent(alarms: book.onScreen, now: atTick ? CountdownClock.wholeSecond(atOrBefore: now) : now,
                              timeOfDay: planner.contentWriter.timeOfDay))
    }

    /// A click in the tray: what the same button of a notification does, a new timer (the user's
    /// own, as from the command line), or Stop for everything that rings.
    private func trayClicked(_ action: TrayContent.Action) {
        do {
            switch action {
            case .intent(let intent, let id):
                try perform(intent, on: id)
            case .newTimer(let seconds):
                try commit { book, now throws(AlarmError) in try book.schedule(AlarmRequest(duration: seconds), now: now) }
            case .stopAllRinging:
                for alarm in book.alarms where alarm.state.name == .alerting { try perform(.stop, on: alarm.id) }
            }
        } catch {
            log.warning("The tray's click did nothing: \(error.message)")
        }
    }

    /// Resolves local times in `zone` from now on: waiting alarms move, notifications show end
    /// times in the new zone.
    func adopt(timeZone zone: TimeZoneRules) {
        // What was already due rings (or is missed) as it was, before anything moves.
        letTimePass()
        let now = clock.now
        planner.contentWriter.timeZone = zone
        let moved = book.changeTimeZone(to: zone, now: now)
        log.info("The time zone is now \(zone.identifier); \(moved.count) alarm(s) moved.")
        carryOut(planner.react(to: moved, now: now))
        // Every live notification shows an end time of day, which reads differently now.
        for alarm in book.alarms where alarm.state.name == .countdown || alarm.state.name == .paused {
            carryOut(planner.present(alarm, now: now))
        }
        save(after: moved, zoneChanged: true)
        letTimePass()
    }

    /// The system clock was set by `change` seconds. Timers and snoozes measure elapsed time, so
    /// they move with it; alarms at wall-clock times stay, and whatever that made due happens now.
    func clockWasSet(by change: TimeInterval) {
        log.info("The system clock was set \(change >= 0 ? "forward" : "back") by \(DurationFormat.spoken(abs(change))); timers keep their remaining time, alarms keep their wall-clock times.")
        book.shiftElapsedTimeCountdowns(by: change)
        saveEverything()
        let now = clock.now
        for alarm in book.countingDown {
            carryOut(planner.present(alarm, now: now))
        }
        letTimePass()
    }

    /// Writes every alarm as a new snapshot (after a change that touched alarms without events,
    /// and before the agent exits); a failure is logged.
    func saveEverything() {
        guard store.isWritable else { return }
        do {
            try store.saveAll(book.alarms, timeZone: book.timeZone)
        } catch {
            log.error("\(error.message) The alarms are kept in memory; they may be lost if the agent stops.")
        }
    }

    /// Records changes that time (or the zone) made; a failure is logged, since those changes
    /// happen anyway.
    private func save(after events: [AlarmEvent], zoneChanged: Bool = false) {
        let changes = (zoneChanged ? [.zone(book.timeZone.identifier)] : []) + events.map(\.journalChange)
        guard !changes.isEmpty else { return }
        save(changes)
    }

    private func save(_ changes: [AlarmJournal.Change]) {
        do {
            try store.record(changes, count: book.count, current: { [unowned self] in book.alarms }, timeZone: book.timeZone)
        } catch {
            log.error("\(error.message) The alarms are kept in memory; they may be lost if the agent stops.")
        }
    }

    // MARK: Effects

    /// Carries out `effects`, in order, each by its part.
    private func carryOut(_ effects: [AgentEffect]) {
        for effect in effects {
            switch effect {
            case .log(.info, let line): log.info(line)
            case .log(.warning, let line): log.warning(line)
            case .ring(let id, let ring): sounds.ring(id, ring)
            case .silence(let id): sounds.silence(id)
            case .signal(let event): signals.announce(event)
            case .show(let id, let content, isTick: true): notifications.showCountdown(content, for: id)
            case .show(let id, let content, isTick: false): notifications.show(content, for: id)
            case .withdraw(let id): notifications.withdraw(id)
            case .announce(let content): notifications.announce(content)
            case .runHook(let command, let event, let alarm, let fireTime): hooks.run(command, event: event, alarm: alarm, fireTime: fireTime)
            case .performAppIntent(let alarm, let button, let mode): appIntents.perform(button, of: alarm, mode: mode)
            case .checkAlertVisibility(let alarm): warnIfAlertIsHidden(alarm)
            case .ringPhones(let alarm): phones?.ring(for: alarm)
            case .discardSoundCopy(let sound): soundCopies.discard(sound)
            case .save(let changes): save(changes)
            case .armDeadline(let date): deadline.arm(at: date)
            case .armWake(let date): wake.arm(at: date)
            }
        }
    }

    /// Do-not-disturb modes that hide even critical alerts do not stop the ring; say so where the
    /// user will look, and how to stop it. It asks the server, which a server busy drawing the
    /// second's countdown updates answers late; the signal and the alert are out by then.
    private func warnIfAlertIsHidden(_ alarm: Alarm) {
        server.refresh { [unowned self] in
            if case .on(true, let how) = server.doNotDisturb {
                log.warning("“\(alarm.title)” is ringing, but its alert is hidden (\(how)). Stop it with “tocsin stop”.")
            }
        }
    }

    /// The notification server changed, or what it can do: everything is shown again for it.
    private func notificationServerChanged() {
        notifications.serverProfile = server.server?.profile ?? .unknown
        refreshAll(where: { _ in true })
    }

    /// Shows again every alarm that matches `condition` (after something about showing changed).
    private func refreshAll(where condition: (Alarm) -> Bool) {
        let now = clock.now
        for alarm in book.alarms where condition(alarm) && alarm.state.name != .scheduled {
            carryOut(planner.present(alarm, now: now))
        }
    }

    // MARK: Notification buttons

    private func buttonPressed(_ key: String, on id: UUID) {
        guard let intent = AlarmIntent(rawValue: key) else {
            log.warning("Ignoring unknown notification action “\(key)”.")
            return
        }
        do {
            try perform(intent, on: id)
        } catch {
            log.warning("The “\(key)” button of \(id.uuidString.lowercased()) did nothing: \(error.message)")
        }
    }

    /// `intent` on alarm `id` as the user's own press (a notification's button, the tray's menu).
    private func perform(_ intent: AlarmIntent, on id: UUID) throws(TocsinError) {
        try commit { book, now throws(AlarmError) in try book.perform(intent, on: id, now: now) }
    }

    /// Shows what alarm `id` shows now in a new notification: its own is gone, though the user
    /// did not dismiss it.
    private func showAnew(_ id: UUID) {
        guard let alarm = book[id], alarm.state.name != .scheduled else { return }
        carryOut(planner.present(alarm, now: clock.now))
    }

    private func notificationDismissed(_ id: UUID) {
        guard let alarm = book[id] else { return }
        let now = clock.now
        carryOut(planner.dismissed(alarm, now: now))
        // A closed countdown needs no more per-second updates.
        carryOut(planner.arm(book, now: now))
    }
}
