import FoundationEssentials

// What the screen shows of the alarms: live activities, their per-second updates, what the user
// closed and what went away on its own, and the tray.
extension AgentState {
    /// Shows `alarm` as it is at `now` — or takes its notification away while it waits for a
    /// later occurrence; `isTick` for a countdown's per-second update.
    mutating func present(_ alarm: Alarm, now: Date, isTick: Bool = false) -> [AgentEffect] {
        guard let content = contentWriter.liveActivity(for: alarm, at: now) else {
            screen.shownSeconds[alarm.id] = nil
            return [.withdraw(alarm.id)]
        }
        if case .countdown(let phase) = alarm.state {
            screen.shownSeconds[alarm.id] = CountdownClock.displayedSeconds(remaining: phase.remaining(at: now))
        } else {
            screen.shownSeconds[alarm.id] = nil
        }
        return [.show(alarm.id, content, isTick: isTick)]
    }

    /// What a start shows: every alarm with a live activity as it is (those in `changed`, which
    /// time changed while the agent was away, excepted: their events show them), and what was
    /// ringing rings again. Alarms waiting for their time show nothing, and nothing is on screen
    /// yet to take away.
    mutating func resume(except changed: Set<UUID>, now: Date, into plan: inout EffectPlan) {
        for alarm in book.onScreenOldestFirst where !changed.contains(alarm.id) {
            plan.add(present(alarm, now: now), to: .notification)
            if case .alerting(let since) = alarm.state {
                startSound(of: alarm, AlarmRing(of: alarm, now: now), into: &plan)
                // Rung again after a restart: the phones are rung if their time is still to come
                // (after it, they were rung before the restart, or should not be rung twice).
                if let due = phones.settings.phoneRingDate(for: alarm.phone, ringingSince: since), due > now { phones.due[alarm.id] = due }
            }
        }
    }

    /// The per-second update of the countdowns on screen at `now`: those whose displayed
    /// seconds changed, once `now` has reached the tick. The tick is taken: the next one is set
    /// with the timers at the end of the decision (`arm`), so time passing twice in one decision
    /// (a zone change) updates the countdowns once.
    mutating func tick(now: Date) -> [AgentEffect] {
        guard let tick = screen.nextCountdownTick, now >= tick else { return [] }
        screen.nextCountdownTick = nil
        // Shown as at the whole second, not at the moment the agent woke a few milliseconds
        // after it: every panel computes the same second, so all show the same time left.
        let second = CountdownClock.wholeSecond(atOrBefore: now)
        var effects: [AgentEffect] = []
        for alarm in book.countingDown.sorted(by: AlarmBook.oldestFirst) where !screen.dismissedCountdowns.contains(alarm.id) {
            guard let remaining = alarm.remaining(at: second) else { continue }
            if screen.shownSeconds[alarm.id] != CountdownClock.displayedSeconds(remaining: remaining) {
                effects += present(alarm, now: second, isTick: true)
            }
        }
        return effects
    }

    /// The user closed the notification of alarm `id` at `now`.
    mutating func notificationClosed(_ id: UUID, now: Date, into plan: inout EffectPlan) {
        guard let alarm = book[id] else { return }
        switch alarm.state {
        case .alerting:
            // Closing the banner does not answer the alarm: shown again, so Stop stays at hand.
            plan.add(.log(.info, "The notification of ringing “\(alarm.title)” was closed; showing it again."), to: .notification)
            plan.add(present(alarm, now: now), to: .notification)
        case .countdown:
            screen.dismissedCountdowns.insert(alarm.id)
            screen.shownSeconds[alarm.id] = nil
        case .paused, .scheduled:
            break
        }
        // A closed countdown needs no more per-second updates.
        plan.armTimers()
    }

    /// The notification of alarm `id` went away though the user did not close it: what the
    /// alarm shows now is shown anew (the effects of a button came first).
    mutating func notificationLost(_ id: UUID, _ why: NotificationLoss, now: Date) -> [AgentEffect] {
        guard let alarm = book[id], alarm.state.name != .scheduled else { return [] }
        var effects: [AgentEffect] = []
        if case .redrawnUnderPress(let server) = why {
            effects.append(.log(.info, "\(server) closed the notification of “\(alarm.title)” as it redrew its buttons, most likely under a press that it lost; showing it again."))
        }
        return effects + present(alarm, now: now)
    }

    /// Shows again every alarm on screen that matches `condition`, after something about
    /// showing changed (the server, a sound problem).
    mutating func showAgain(now: Date, where condition: (Alarm) -> Bool) -> [AgentEffect] {
        var effects: [AgentEffect] = []
        for alarm in book.onScreenOldestFirst where condition(alarm) {
            effects += present(alarm, now: now)
        }
        return effects
    }

    /// What the tray shows, as at `now` (the whole second, after time passed, so it shows what
    /// the notifications show); nothing while no panel shows the tray.
    func tray(at now: Date) -> [AgentEffect] {
        guard screen.panelIsShown else { return [] }
        return [.showTray(TrayContent(alarms: book.onScreen, now: now, timeOfDay: contentWriter.timeOfDay))]
    }
}
