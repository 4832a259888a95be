import FoundationEssentials

/// Decides what the agent does about what happened: each alarm event, each whole second of a
/// countdown on screen, a notification the user closed, a restart. Pure — the clock is an input
/// and the result is a list of `AgentEffect`s, which the agent carries out in order.
///
/// The order of the effects is a rule of its own, kept here and tested:
/// - sound first (ring or silence), so nothing the agent does next delays the ring or its end;
/// - then the D-Bus signal, which clients time the transition by;
/// - then the notification, which waits for nobody (another thread shows it) but is not what
///   tells a client the state changed;
/// - then the follow-ups: the do-not-disturb check of a fired alarm, the notices, hooks;
/// - then, for what time changed, the save (an fsync must not delay the ring, and the change
///   happens whether or not it can be saved);
/// - last, the timers for what comes next.
///
/// It holds what the agent shows of each countdown (the seconds on screen, so a countdown is
/// updated only when they change; the countdowns the user closed, left alone until their next
/// change) and when the countdowns on screen are next updated.
public struct AgentPlanner: Sendable {
    /// Writes what notifications say: the zone and locale of end times, a sound problem.
    public var contentWriter: NotificationContentWriter
    /// The whole second at which the countdowns on screen are next updated; `nil` while none is.
    public private(set) var nextCountdownTick: Date?
    /// The seconds each countdown notification shows.
    private var shownSeconds: [UUID: Int] = [:]
    /// Countdowns whose notification the user closed: not updated again until their next change.
    private var dismissedCountdowns: Set<UUID> = []
    /// Whether a panel (the tray item) shows every countdown: then the clock's whole seconds are
    /// woken for even when no countdown notification is on screen.
    public var panelShowsCountdowns = false
    /// Whether and when ringing alarms ring the paired phones too (`tocsin phone`); `adopt` changes it.
    public private(set) var phoneRings = PhoneRingSettings.off
    /// When each ringing alarm rings the phones, if nobody answers at the desk first.
    public private(set) var phoneRingsDue: [UUID: Date] = [:]

    /// A planner writing notifications with `contentWriter`.
    public init(contentWriter: NotificationContentWriter) {
        self.contentWriter = contentWriter
    }

    // MARK: Events

    /// The effects of `events`, which happened at `now` (a client's change is saved before it is
    /// made, so there is no save among them) — through a call of the application or command line
    /// `caller` (its `Alarm.owner` id), or, with `nil`, a notification button or time.
    ///
    /// A press of a button that carries an app intent has the application perform it, unless the
    /// application made the change itself: an app's own `stop(id:)` is not a press of Stop, and
    /// an intent that stops its alarm (as AlarmKit's do) must not be performed again by it.
    public mutating func react(to events: [AlarmEvent], now: Date, causedBy caller: String? = nil) -> [AgentEffect] {
        var effects: [AgentEffect] = []
        for event in events { effects += react(to: event, now: now, causedBy: caller) }
        return effects
    }

    /// What time passing to `now` means: the effects of what it changed (`events`, from
    /// `book.advance(to: now)`), the countdown updates due, the save of those changes — after
    /// everything else, as they happen whether or not they can be saved — and the timers.
    public mutating func timePassed(_ events: [AlarmEvent], book: AlarmBook, now: Date) -> [AgentEffect] {
        var effects = react(to: events, now: now, causedBy: nil)
        effects += phonesDue(book, now: now)
        // Countdowns are updated together on the clock's whole seconds, not at other wake-ups (a
        // deadline, a clock change), so a second's updates stay one batch.
        effects += tick(book, now: now)
        if !events.isEmpty { effects.append(.save(events.map(\.journalChange))) }
        return effects + arm(book, now: now)
    }

    private mutating func react(to event: AlarmEvent, now: Date, causedBy caller: String?) -> [AgentEffect] {
        let alarm = event.alarm
        var effects: [AgentEffect] = [.log(.info, "“\(alarm.title)” (\(alarm.id.uuidString.lowercased())): \(event.kind.rawValue).")]
        switch event.kind {
        case .fired:
            effects.append(.ring(alarm.id, AlarmRing(of: alarm, now: now)))
            if let due = phoneRings.phoneRingDate(for: alarm.phone, ringingSince: now) { phoneRingsDue[alarm.id] = due }
        case .snoozed, .stopped, .cancelled, .secondary, .unacknowledged, .missed:
            effects.append(.silence(alarm.id))
            if phoneRingsDue.removeValue(forKey: alarm.id) != nil {
                effects.append(.log(.info, "“\(alarm.title)” was answered before the phones were rung; they are not."))
            }
        case .scheduled, .preAlert, .rescheduled, .paused, .resumed:
            break
        }
        effects.append(.signal(event))
        // A change of state shows the countdown again, even one the user had closed.
        dismissedCountdowns.remove(alarm.id)
        if event.removesAlarm {
            shownSeconds[alarm.id] = nil
            effects.append(.withdraw(alarm.id))
            effects.append(.discardSoundCopy(alarm.sound))
        } else {
            effects += present(alarm, now: now)
        }
        switch event.kind {
        case .fired:
            effects.append(.checkAlertVisibility(alarm))
        case .unacknowledged:
            effects.append(.announce(contentWriter.unacknowledgedNotice(for: alarm)))
        case .missed:
            let due = event.dueDate ?? now
            effects.append(.log(.warning, "“\(alarm.title)” was missed: it was due at \(contentWriter.timeOfDay(due)) and the agent could not ring it within its late limit."))
            effects.append(.announce(contentWriter.missedNotice(for: alarm, dueAt: due)))
        default:
            break
        }
        if let button = AppIntentButtons.button(pressedBy: event.kind), let mode = alarm.appIntents?.modes[button], caller != alarm.owner {
            effects.append(.performAppIntent(alarm: alarm, button: button, mode: mode))
        }
        if let hookEvent = event.kind.hookEvent, let command = alarm.hooks[hookEvent] {
            if alarm.mayRunHooks {
                effects.append(.runHook(command: command, event: hookEvent, alarm: alarm, fireTime: event.dueDate ?? alarm.fireDate))
            } else {
                let origin = alarm.appConfinement.map { "runs in a \($0.phrase)" } ?? "scheduled it before Tocsin recorded whether it runs in a sandbox"
                effects.append(.log(.warning, "Not running the \(hookEvent.rawValue) hook of “\(alarm.title)”: \(alarm.owner) \(origin), and Tocsin runs no command that could leave one."))
            }
        }
        return effects
    }

    // MARK: Showing

    /// Shows `alarm` as it is at `now` — or takes its notification away while it waits for a
    /// later occurrence; `isTick` for a countdown's per-second update.
    public mutating func present(_ alarm: Alarm, now: Date, isTick: Bool = false) -> [AgentEffect] {
        guard let content = contentWriter.liveActivity(for: alarm, at: now) else {
            shownSeconds[alarm.id] = nil
            return [.withdraw(alarm.id)]
        }
        if case .countdown(let phase) = alarm.state {
            shownSeconds[alarm.id] = CountdownClock.displayedSeconds(remaining: phase.remaining(at: now))
        } else {
            shownSeconds[alarm.id] = nil
        }
        return [.show(alarm.id, content, isTick: isTick)]
    }

    /// What a restart shows: every alarm with a live activity as it is (those time changed while
    /// the agent was away excepted, which their events show), and what was ringing rings again.
    /// Alarms waiting for their time show nothing, and nothing is on screen yet to take away.
    public mutating func resume(_ alarms: [Alarm], except changed: Set<UUID>, now: Date) -> [AgentEffect] {
        var effects: [AgentEffect] = []
        for alarm in alarms where !changed.contains(alarm.id) && alarm.state.name != .scheduled {
            effects += present(alarm, now: now)
            if case .alerting(let since) = alarm.state {
                effects.append(.ring(alarm.id, AlarmRing(of: alarm, now: now)))
                // Rung again after a restart: the phones are rung if their time is still to come
                // (after it, they were rung before the restart, or should not be rung twice).
                if let due = phoneRings.phoneRingDate(for: alarm.phone, ringingSince: since), due > now { phoneRingsDue[alarm.id] = due }
            }
        }
        return effects
    }

    /// The per-second update of the countdowns on screen at `now`: those whose displayed
    /// seconds changed, once `now` has reached the tick.
    public mutating func tick(_ book: AlarmBook, now: Date) -> [AgentEffect] {
        guard let tick = nextCountdownTick, now >= tick else { return [] }
        // Shown as at the whole second, not at the moment the agent woke a few milliseconds
        // after it: every panel computes the same second, so all show the same time left.
        let second = CountdownClock.wholeSecond(atOrBefore: now)
        var effects: [AgentEffect] = []
        for alarm in book.countingDown where !dismissedCountdowns.contains(alarm.id) {
            guard let remaining = alarm.remaining(at: second) else { continue }
            if shownSeconds[alarm.id] != CountdownClock.displayedSeconds(remaining: remaining) {
                effects += present(alarm, now: second, isTick: true)
            }
        }
        return effects
    }

    /// The user closed `alarm`'s notification at `now`.
    public mutating func dismissed(_ alarm: Alarm, now: Date) -> [AgentEffect] {
        switch alarm.state {
        case .alerting:
            // Closing the banner does not answer the alarm: shown again, so Stop stays at hand.
            return [.log(.info, "The notification of ringing “\(alarm.title)” was closed; showing it again.")] + present(alarm, now: now)
        case .countdown:
            dismissedCountdowns.insert(alarm.id)
            shownSeconds[alarm.id] = nil
            return []
        case .paused, .scheduled:
            return []
        }
    }

    // MARK: Phones

    /// Follows the user's new phone settings: alarms that fire from now on follow them; phones
    /// not yet rung for the alarms ringing now are not rung once the setting is off, unless the
    /// alarm asked for them itself (`--phone`, in `book`).
    public mutating func adopt(phoneRings settings: PhoneRingSettings, book: AlarmBook? = nil) {
        phoneRings = settings
        if !settings.isEnabled {
            phoneRingsDue = phoneRingsDue.filter { id, _ in if case .ring? = book?[id]?.phone { true } else { false } }
        }
    }

    /// What the phones having been rung for `alarm` means: its `phone` hook, if it has one.
    public func phonesRung(for alarm: Alarm) -> [AgentEffect] {
        guard let command = alarm.hooks[.phone] else { return [] }
        guard alarm.mayRunHooks else {
            return [.log(.warning, "Not running the phone hook of “\(alarm.title)”: \(alarm.owner) may run no command.")]
        }
        return [.runHook(command: command, event: .phone, alarm: alarm, fireTime: alarm.fireDate)]
    }

    /// The phones of the alarms still ringing whose time to ring them has come; an alarm no
    /// longer ringing (answered meanwhile by a change this planner did not see) is dropped.
    private mutating func phonesDue(_ book: AlarmBook, now: Date) -> [AgentEffect] {
        var effects: [AgentEffect] = []
        for (id, due) in phoneRingsDue where due <= now {
            phoneRingsDue[id] = nil
            guard let alarm = book[id], alarm.state.name == .alerting else { continue }
            // How long this alarm rang: its own delay (--phone-after), or the settings', as it was.
            var rang = phoneRings.delay
            if case .alerting(let since) = alarm.state { rang = now.timeIntervalSince(since).rounded() }
            effects.append(.log(.info, "“\(alarm.title)” has rung \(DurationFormat.spoken(rang)) unanswered; ringing the phones."))
            effects.append(.ringPhones(alarm))
        }
        return effects
    }

    // MARK: Timers

    /// The timers for what comes next: the earlier of the book's next deadline and, while
    /// countdowns are on screen, the clock's next whole second; and the machine's wake-up for
    /// the next alarm (a cooking timer is not worth waking a suspended machine).
    public mutating func arm(_ book: AlarmBook, now: Date) -> [AgentEffect] {
        var next = book.nextDeadline
        // A countdown whose notification was closed still ticks while a panel shows it.
        let countdownsShown = book.countingDown.contains { !dismissedCountdowns.contains($0.id) }
            || (panelShowsCountdowns && !book.countingDown.isEmpty)
        nextCountdownTick = countdownsShown ? CountdownClock.nextTick(after: now) : nil
        if let tick = nextCountdownTick { next = min(next ?? tick, tick) }
        if let phones = phoneRingsDue.values.min() { next = min(next ?? phones, phones) }
        return [.armDeadline(next), .armWake(book.nextAlarmFireDate)]
    }
}
