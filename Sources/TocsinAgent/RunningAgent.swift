import FoundationEssentials
import TocsinCore
import TocsinFiles

/// The agent once it owns its bus name and has read its state: the state `AlarmDecider` decides
/// from, and the parts that carry out what it decides.
///
/// It decides nothing itself. It turns what happens — a client's call, a button, a timer, a
/// watcher's news — into an `AgentInput`, hands it to the decider (`run`), and gives each
/// effect that comes back to its part (`carryOut`). Every part is a `let` behind a small
/// protocol (AgentParts.swift) and the time is read from `clock`, so TocsinAgentTests run the
/// whole agent in-process with recording fakes and a hand-driven clock. `Agent` starts it (bus
/// name, state, the real parts) and feeds it the outside world's news.
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
        /// The media player a ringing alarm shows as; `nil` for none.
        var player: RingingPlayerShowing? = nil
        /// What a locked screen shows; `nil` for nothing.
        var lockScreen: LockScreenShowing? = nil
        /// The display's waker; `nil` for none.
        var display: DisplayWaking? = nil
        /// The sound server's outputs; `nil` for none (the output is never raised).
        var outputs: SoundOutputs? = nil
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
    /// Every alarm and what is shown of them; changed only by `AlarmDecider`, in `run`.
    private(set) var state: AgentState
    /// Every alarm.
    var book: AlarmBook { state.book }
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
    /// The media player a ringing alarm shows as, if the agent shows one.
    let player: RingingPlayerShowing?
    /// What a locked screen shows, if the agent offers it.
    let lockScreen: LockScreenShowing?
    /// The display's waker, if the agent wakes it.
    let display: DisplayWaking?
    /// The sound server's outputs, if the agent raises them.
    let outputs: SoundOutputs?
    /// Where what the agent raised on an output is kept until it is put back; `nil`: nowhere.
    let outputRecordStore: OutputRecordStore?
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
    /// Tells whoever asked for the change being made how it ended (the `.answer` effect).
    private var answerChange: ((ChangeOutcome) -> Void)?

    /// A running agent with `book` (as loaded), the answers in `authorizations` (saved with
    /// `authorizationStore`), the sound copies in `soundCopies` and `parts`; `outputRecord`:
    /// what an earlier run raised on an output and did not put back, kept in `outputRecordStore`.
    /// Nothing happens before `run(.started(in:))`.
    init(configuration: AgentConfiguration, store: AlarmPersistence, book: AlarmBook, authorizations: AppAuthorizations,
         authorizationStore: AuthorizationStore?, soundCopies: SandboxedSoundCopies,
         outputRecord: OutputRecord? = nil, outputRecordStore: OutputRecordStore? = nil, parts: Parts) {
        self.configuration = configuration
        self.store = store
        state = AgentState(book: book, localeIdentifier: NotificationContentWriter.environmentLocale(ProcessInfo.processInfo.environment),
                           outputRecord: outputRecord)
        outputs = parts.outputs
        self.outputRecordStore = outputRecordStore
        clock = parts.clock
        notifications = parts.notifications
        sounds = parts.sounds
        hooks = parts.hooks
        appIntents = parts.appIntents
        signals = parts.signals
        tray = parts.tray
        phones = parts.phones
        player = parts.player
        lockScreen = parts.lockScreen
        display = parts.display
        deadline = parts.deadline
        wake = parts.wake
        wakeAvailability = parts.wakeAvailability
        server = parts.server
        callers = parts.callers
        self.soundCopies = soundCopies
        authorizationDesk = AuthorizationDesk(authorizations: authorizations, presenter: parts.notifications, log: configuration.log,
                                              alarmLimit: configuration.alarmsPerApplication)
        connectParts(savingAuthorizationsTo: authorizationStore)
    }

    /// Routes the parts' news (presses, closes, a panel coming, the sound server) to the agent.
    private func connectParts(savingAuthorizationsTo authorizationStore: AuthorizationStore?) {
        authorizationDesk.onNoted = { [unowned self] in
            guard let authorizationStore else { return }
            do throws(StoreError) { try authorizationStore.save(authorizationDesk.authorizations) } catch { log.error(error.message) }
        }
        authorizationDesk.onChange = { [unowned self] app, state in
            authorizationDesk.onNoted()
            signals.announceAuthorization(state, of: app)
        }
        // The authorization desk's questions are notifications too; what is not theirs is an alarm's.
        notifications.onAction = { [unowned self] id, key in
            if !authorizationDesk.buttonPressed(key, on: id) { buttonPressed(key, on: id) }
        }
        notifications.onDismissed = { [unowned self] id in
            if !authorizationDesk.dismissed(id) { run(.notificationClosed(id)) }
        }
        notifications.onClosedAfterButton = { [unowned self] id in run(.notificationLost(id, .closedAfterButton)) }
        notifications.onBannerGone = { [unowned self] id in run(.notificationLost(id, .bannerHandedOver)) }
        notifications.onPressLostToUpdate = { [unowned self] id in
            guard let alarm = book[id], alarm.state.name != .scheduled else {
                // Not an alarm's (a question's): taken as the dismissal it says it is.
                if !authorizationDesk.dismissed(id) { run(.notificationClosed(id)) }
                return
            }
            run(.notificationLost(alarm.id, .redrawnUnderPress(server: notifications.serverProfile.family.rawValue)))
        }
        tray?.onAction = { [unowned self] action in trayClicked(action) }
        tray?.onHostChange = { [unowned self] in run(.panelChanged(isShown: tray?.isHosted ?? false)) }
        phones?.onRung = { [unowned self] alarm in run(.phonesRung(alarm)) }
        player?.onPress = { [unowned self] intent, id in pressed(intent, on: id, what: "The media player's control") }
        lockScreen?.onPress = { [unowned self] intent, id in pressed(intent, on: id, what: "The lock screen's button") }
        outputs?.onReport = { [unowned self] report in run(.soundOutputChanged(report)) }
        server.onChange = { [unowned self] in
            notifications.serverProfile = server.server?.profile ?? .unknown
            run(.notificationServerChanged)
        }
        sounds.onSoundProblemChange = { [unowned self] in run(.soundProblemChanged(sounds.soundProblem)) }
    }

    // MARK: Deciding

    /// Hands `input` to the decider and carries out what it decides, in order. A commit's save
    /// is reported back to the decider at once, before anything else.
    func run(_ input: AgentInput) {
        var next: AgentInput? = input
        while let input = next {
            next = nil
            for effect in AlarmDecider.decide(&state, input, now: clock.now) {
                if let report = carryOut(effect) { next = report }
            }
        }
    }

    /// Asks for `change` on behalf of `origin`; `answer` is told how it ended as soon as that is
    /// known — once it is saved, before its effects (sound, notification, signal, hooks).
    func ask(_ change: AlarmChange, by origin: ChangeOrigin, answer: (ChangeOutcome) -> Void) {
        withoutActuallyEscaping(answer) { answer in
            answerChange = answer
            defer { answerChange = nil }
            run(.asked(change, by: origin))
        }
    }

    /// Makes `change` on behalf of `origin`, or throws why it was not made; `whenMade` runs as
    /// soon as it is saved, before its effects.
    func make(_ change: AlarmChange, by origin: ChangeOrigin, whenMade: () -> Void = {}) throws(TocsinError) {
        var outcome: ChangeOutcome?
        ask(change, by: origin) { told in
            outcome = told
            if told == .made { whenMade() }
        }
        try ChangeOutcome.check(outcome)
    }

    // MARK: Presses

    /// A click in the tray: what the same button of a notification does, a new timer (the user's
    /// own, as from the command line), or Stop for everything that rings.
    private func trayClicked(_ action: TrayContent.Action) {
        let change: AlarmChange = switch action {
        case .intent(let intent, let id): .perform(intent, on: id)
        case .newTimer(let seconds): .schedule(AlarmRequest(duration: seconds), id: UUID(), owner: nil, confinement: .unconfined, ownerLimit: nil)
        case .stopAllRinging: .stopEveryRinging
        }
        do throws(TocsinError) {
            try make(change, by: .press)
        } catch {
            log.warning("The tray's click did nothing: \(error.message)")
        }
    }

    private func buttonPressed(_ key: String, on id: UUID) {
        guard let intent = AlarmIntent(rawValue: key) else {
            log.warning("Ignoring unknown notification action “\(key)”.")
            return
        }
        pressed(intent, on: id, what: "The “\(key)” button")
    }

    /// A press of `what` (a notification's button, a control of the media player, a lock
    /// screen's button) that
    /// performs `intent` on alarm `id`; said in the log when it does nothing.
    private func pressed(_ intent: AlarmIntent, on id: UUID, what: String) {
        do throws(TocsinError) {
            try make(.perform(intent, on: id), by: .press)
        } catch {
            log.warning("\(what) of \(id.uuidString.lowercased()) did nothing: \(error.message)")
        }
    }

    // MARK: Saving

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

    /// Records `changes` in the journal; throws what kept them from being saved.
    private func record(_ changes: [JournalChange]) throws(StoreError) {
        try store.record(changes, count: book.count, current: { [unowned self] in book.alarms }, timeZone: book.timeZone)
    }

    // MARK: Effects

    /// Carries out `effect` by its part; for a commit, returns the report of its save.
    private func carryOut(_ effect: AgentEffect) -> AgentInput? {
        switch effect {
        case .log(.info, let line): log.info(line)
        case .log(.warning, let line): log.warning(line)
        case .ring(let id, let ring): sounds.ring(id, ring)
        case .silence(let id): sounds.silence(id)
        case .saveOutputRecord(let record):
            do throws(StoreError) {
                try outputRecordStore?.save(record)
            } catch {
                // The alarm must be heard all the same; only a crash would now leave the output raised.
                log.warning("\(error.message) The output is raised all the same, and put back when the alarm stops.")
            }
        case .setOutput(let sink, let levels): outputs?.set(sink: sink, levels: levels)
        case .setStream(let stream, let levels): outputs?.setStream(stream, levels: levels)
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
        case .save(let changes):
            do throws(StoreError) {
                try record(changes)
            } catch {
                log.error("\(error.message) The alarms are kept in memory; they may be lost if the agent stops.")
            }
        case .saveAll: saveEverything()
        case .commit(let changes):
            do throws(StoreError) {
                try record(changes)
                return .changeSaved
            } catch {
                return .changeNotSaved(reason: error.message)
            }
        case .answer(let outcome): answerChange?(outcome)
        case .showTray(let content): tray?.show(content)
        case .showPlayer(let content): player?.show(content)
        case .showLockScreen(let content): lockScreen?.show(content)
        case .wakeDisplay: display?.wake()
        case .holdDisplayAwake(let awake): display?.hold(awake)
        case .armDeadline(let date): deadline.arm(at: date)
        case .armWake(let date): wake.arm(at: date)
        }
        return nil
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
}

extension ChangeOutcome {
    /// Throws the D-Bus error a caller gets for a change that was not made — or whose outcome
    /// the decider never told (`nil`), which is not taken for a success.
    static func check(_ outcome: ChangeOutcome?) throws(TocsinError) {
        switch outcome {
        case .made?: return
        case .refused(let error)?: throw TocsinError(error)
        case .notSaved(let reason)?: throw TocsinError(.storageFailed, "\(reason) Nothing was changed.")
        case nil: throw TocsinError(.invalidState, "The agent could not tell whether the change was made; ask again.")
        }
    }
}
