import FoundationEssentials

// What time does: the start after a time away, time passing, the time zone moving, the clock
// set, and the timers for what comes next.
extension AgentState {
    /// Starts in time zone `zone`: local alarms move if the zone changed while the agent was not
    /// running, what came due meanwhile rings (or is missed), everything else is shown again as
    /// it was, and what was ringing rings again.
    mutating func start(in zone: TimeZoneRules, now: Date, into plan: inout EffectPlan) {
        let loadedZone = book.timeZone
        // Moved before anything is shown or rung.
        let movedWhileAway = book.changeTimeZone(to: zone, now: now)
        contentWriter.timeZone = zone
        if !movedWhileAway.isEmpty {
            plan.add(.log(.info, "The time zone changed while the agent was not running; \(movedWhileAway.count) alarm(s) moved to \(zone.identifier)."), to: .sound)
        }
        let caughtUp = book.advance(to: now)
        resume(except: Set(caughtUp.map(\.alarm.id)), now: now, into: &plan)
        react(to: caughtUp, now: now, into: &plan)
        plan.add(save(after: movedWhileAway + caughtUp, zoneChanged: loadedZone != book.timeZone), to: .save)
        plan.armTimers()
        plan.add(tray(at: now), to: .tray)
    }

    /// Lets time pass up to `now`: what came due rings, expired rings end, the phones whose time
    /// came are rung, the display is woken again, the countdowns on screen are updated; then those
    /// changes are saved — in the save stage, after everything the user sees or hears, as they
    /// happen whether or not they can be saved — and the timers armed.
    mutating func passTime(to now: Date, into plan: inout EffectPlan) {
        let events = book.advance(to: now)
        react(to: events, now: now, into: &plan)
        plan.add(phonesDue(now: now), to: .followUps)
        plan.add(wakeDisplayAgain(now: now), to: .followUps)
        // Countdowns are updated together on the clock's whole seconds, not at other wake-ups (a
        // deadline, a clock change), so a second's updates stay one batch.
        plan.add(tick(now: now), to: .notification)
        if !events.isEmpty { plan.add(.save(events.map(\.journalChange)), to: .save) }
        plan.armTimers()
    }

    /// Resolves local times in `zone` from now on: waiting alarms move, notifications show end
    /// times in the new zone.
    mutating func adopt(timeZone zone: TimeZoneRules, now: Date, into plan: inout EffectPlan) {
        // What was already due rings (or is missed) as it was, before anything moves.
        passTime(to: now, into: &plan)
        contentWriter.timeZone = zone
        let moved = book.changeTimeZone(to: zone, now: now)
        plan.add(.log(.info, "The time zone is now \(zone.identifier); \(moved.count) alarm(s) moved."), to: .sound)
        react(to: moved, now: now, into: &plan)
        // Every live notification shows an end time of day, which reads differently now.
        for alarm in book.onScreenOldestFirst where alarm.state.name == .countdown || alarm.state.name == .paused {
            plan.add(present(alarm, now: now), to: .notification)
        }
        plan.add(save(after: moved, zoneChanged: true), to: .save)
        passTime(to: now, into: &plan)
        plan.add(tray(at: CountdownClock.wholeSecond(atOrBefore: now)), to: .tray)
    }

    /// The system clock was set by `change` seconds. Timers and snoozes measure elapsed time, so
    /// they move with it; alarms at wall-clock times stay, and whatever that made due happens now.
    mutating func clockWasSet(by change: TimeInterval, now: Date, into plan: inout EffectPlan) {
        plan.add(.log(.info, "The system clock was set \(change >= 0 ? "forward" : "back") by \(DurationFormat.spoken(abs(change))); timers keep their remaining time, alarms keep their wall-clock times."), to: .sound)
        book.shiftElapsedTimeCountdowns(by: change)
        // The moves have no events to journal: the whole book is written, in the save stage like
        // any save of what time changed, so that its fsync delays no ring the change made due.
        plan.add(.saveAll, to: .save)
        for alarm in book.countingDown.sorted(by: AlarmBook.oldestFirst) {
            plan.add(present(alarm, now: now), to: .notification)
        }
        passTime(to: now, into: &plan)
        plan.add(tray(at: CountdownClock.wholeSecond(atOrBefore: now)), to: .tray)
    }

    /// The timers for what comes next: the earliest of the book's next deadline, the phones'
    /// next ring, the display's next wake while alarms ring and, while countdowns are on screen,
    /// the clock's next whole second; and the machine's wake-up for the next alarm (a cooking
    /// timer is not worth waking a suspended machine). Worked out once, at the end of a decision
    /// that asked for it (`follow`), from the state as the decision left it.
    mutating func arm(now: Date) -> [AgentEffect] {
        var next = book.nextDeadline
        // A countdown whose notification was closed still ticks while a panel shows it.
        let countdownsShown = book.countingDown.contains { !screen.dismissedCountdowns.contains($0.id) }
            || (screen.panelIsShown && !book.countingDown.isEmpty)
        screen.nextCountdownTick = countdownsShown ? CountdownClock.nextTick(after: now) : nil
        if let tick = screen.nextCountdownTick { next = min(next ?? tick, tick) }
        if let phones = phones.due.values.min() { next = min(next ?? phones, phones) }
        if let wake = screen.nextDisplayWake { next = min(next ?? wake, wake) }
        return [.armDeadline(next), .armWake(book.nextAlarmFireDate)]
    }

    /// The save of what time (or the zone) changed; none when nothing did.
    private func save(after events: [AlarmEvent], zoneChanged: Bool) -> [AgentEffect] {
        let changes = (zoneChanged ? [.zone(book.timeZone.identifier)] : []) + events.map(\.journalChange)
        return changes.isEmpty ? [] : [.save(changes)]
    }
}
