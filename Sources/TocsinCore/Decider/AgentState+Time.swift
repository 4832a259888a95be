import FoundationEssentials

// What time does: the start after a time away, time passing, the time zone moving, the clock
// set, and the timers for what comes next.
extension AgentState {
    /// Starts in time zone `zone`: local alarms move if the zone changed while the agent was not
    /// running, what came due meanwhile rings (or is missed), everything else is shown again as
    /// it was, and what was ringing rings again.
    mutating func start(in zone: TimeZoneRules, now: Date) -> [AgentEffect] {
        let loadedZone = book.timeZone
        // Moved before anything is shown or rung.
        let movedWhileAway = book.changeTimeZone(to: zone, now: now)
        contentWriter.timeZone = zone
        var effects: [AgentEffect] = []
        if !movedWhileAway.isEmpty {
            effects.append(.log(.info, "The time zone changed while the agent was not running; \(movedWhileAway.count) alarm(s) moved to \(zone.identifier)."))
        }
        let caughtUp = book.advance(to: now)
        effects += resume(except: Set(caughtUp.map(\.alarm.id)), now: now)
        effects += react(to: caughtUp, now: now)
        effects += save(after: movedWhileAway + caughtUp, zoneChanged: loadedZone != book.timeZone)
        return effects + arm(now: now) + tray(at: now)
    }

    /// Lets time pass up to `now`: what came due rings, expired rings end, the phones whose time
    /// came are rung, the countdowns on screen are updated; then those changes are saved —
    /// after everything else, as they happen whether or not they can be saved — and the timers
    /// armed.
    mutating func passTime(to now: Date) -> [AgentEffect] {
        let events = book.advance(to: now)
        var effects = react(to: events, now: now)
        effects += phonesDue(now: now)
        effects += wakeDisplayAgain(now: now)
        // Countdowns are updated together on the clock's whole seconds, not at other wake-ups (a
        // deadline, a clock change), so a second's updates stay one batch.
        effects += tick(now: now)
        if !events.isEmpty { effects.append(.save(events.map(\.journalChange))) }
        return effects + arm(now: now)
    }

    /// Resolves local times in `zone` from now on: waiting alarms move, notifications show end
    /// times in the new zone.
    mutating func adopt(timeZone zone: TimeZoneRules, now: Date) -> [AgentEffect] {
        // What was already due rings (or is missed) as it was, before anything moves.
        var effects = passTime(to: now)
        contentWriter.timeZone = zone
        let moved = book.changeTimeZone(to: zone, now: now)
        effects.append(.log(.info, "The time zone is now \(zone.identifier); \(moved.count) alarm(s) moved."))
        effects += react(to: moved, now: now)
        // Every live notification shows an end time of day, which reads differently now.
        for alarm in book.onScreenOldestFirst where alarm.state.name == .countdown || alarm.state.name == .paused {
            effects += present(alarm, now: now)
        }
        effects += save(after: moved, zoneChanged: true)
        return effects + passTime(to: now) + tray(at: CountdownClock.wholeSecond(atOrBefore: now))
    }

    /// The system clock was set by `change` seconds. Timers and snoozes measure elapsed time, so
    /// they move with it; alarms at wall-clock times stay, and whatever that made due happens now.
    mutating func clockWasSet(by change: TimeInterval, now: Date) -> [AgentEffect] {
        var effects: [AgentEffect] = [.log(.info, "The system clock was set \(change >= 0 ? "forward" : "back") by \(DurationFormat.spoken(abs(change))); timers keep their remaining time, alarms keep their wall-clock times.")]
        book.shiftElapsedTimeCountdowns(by: change)
        // The moves have no events to journal.
        effects.append(.saveAll)
        for alarm in book.countingDown.sorted(by: AlarmBook.oldestFirst) {
            effects += present(alarm, now: now)
        }
        return effects + passTime(to: now) + tray(at: CountdownClock.wholeSecond(atOrBefore: now))
    }

    /// The timers for what comes next: the earliest of the book's next deadline, the phones'
    /// next ring, the display's next wake while alarms ring and, while countdowns are on screen, the clock's next whole second; and the
    /// machine's wake-up for the next alarm (a cooking timer is not worth waking a suspended
    /// machine).
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
