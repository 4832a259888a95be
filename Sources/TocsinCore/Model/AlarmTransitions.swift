import FoundationEssentials

/// The alarm state machine: which intent is allowed in which state, and what it leads to.
///
/// Pure: time comes in as `now` and the zone as `timeZone` (for the next occurrence of a
/// repeating alarm); nothing is stored or shown here. The result is the event that happened,
/// carrying the alarm as it is afterwards.
extension Alarm {
    /// Applies `intent` at `now`, or explains why the current state does not allow it.
    public func applying(_ intent: AlarmIntent, at now: Date, in timeZone: TimeZoneRules = .utc) throws(AlarmError) -> AlarmEvent {
        switch intent {
        case .pause:
            guard case .countdown(let phase) = state else {
                throw refusal(intent, requirement: "only a countdown can be paused")
            }
            return AlarmEvent(.paused, with(state: .paused(PausedPhase(remaining: phase.remaining(at: now), duration: phase.duration))))
        case .resume:
            guard case .paused(let phase) = state else {
                throw refusal(intent, requirement: "only a paused countdown can be resumed")
            }
            // From here on it measures elapsed time, like a timer, even if it was an alarm's pre-alert.
            let fireDate = now.addingTimeInterval(phase.remaining)
            return AlarmEvent(.resumed, with(state: .countdown(CountdownPhase(fireDate: fireDate, duration: phase.duration))))
        case .cancel:
            return AlarmEvent(.cancelled, self, removesAlarm: true)
        case .stop:
            guard case .alerting = state else {
                throw refusal(intent, requirement: "only a ringing alarm can be stopped (use cancel to remove it)")
            }
            return ended(.stopped, at: now, in: timeZone)
        case .countdown:
            guard case .alerting = state else {
                throw refusal(intent, requirement: "only a ringing alarm can be snoozed")
            }
            guard let snoozeDuration else {
                throw refusal(intent, requirement: "it was set without a snooze duration, so it can only be stopped")
            }
            return snoozed(for: snoozeDuration, at: now)
        case .secondary:
            guard case .alerting = state else {
                throw refusal(intent, requirement: "its second button exists only while it rings")
            }
            switch secondaryButton?.behavior {
            case .countdown?:
                guard let snoozeDuration else {
                    throw refusal(intent, requirement: "it has no snooze duration")
                }
                return snoozed(for: snoozeDuration, at: now)
            case .custom?:
                return ended(.secondary, at: now, in: timeZone)
            case nil:
                throw refusal(intent, requirement: "it was set without a second button")
            }
        }
    }

    /// What time alone does to the alarm at `now`: an alarm's pre-alert countdown starts, a due
    /// alarm rings (or is missed when it is later than its late limit), a ringing alarm past its
    /// ring limit ends unacknowledged. `nil` when nothing is due.
    public func advanced(to now: Date, in timeZone: TimeZoneRules = .utc) -> AlarmEvent? {
        switch state {
        case .scheduled(let fireDate):
            if fireDate <= now {
                return cameDue(at: fireDate, now: now, in: timeZone)
            }
            if isInPreAlert(until: fireDate, at: now) {
                return AlarmEvent(.preAlert, with(state: waitingState(until: fireDate, now: now)))
            }
            return nil
        case .countdown(let phase) where phase.fireDate <= now:
            return cameDue(at: phase.fireDate, now: now, in: timeZone)
        case .alerting(let since) where since.addingTimeInterval(ringLimit) <= now:
            return ended(.unacknowledged, at: now, in: timeZone)
        default:
            return nil
        }
    }

    /// The next instant at which time alone changes this alarm (`advanced(to:)` returns an event), if any.
    public var nextDeadline: Date? {
        switch state {
        case .countdown(let phase): phase.fireDate
        case .scheduled(let fireDate): countdownDuration > 0 ? fireDate.addingTimeInterval(-countdownDuration) : fireDate
        case .alerting(let since): since.addingTimeInterval(ringLimit)
        case .paused: nil
        }
    }

    /// The instant the alarm rings next, if it is waiting or counting down.
    public var fireDate: Date? {
        switch state {
        case .scheduled(let fireDate): fireDate
        case .countdown(let phase): phase.fireDate
        case .paused, .alerting: nil
        }
    }

    /// How an alarm waits for `fireDate` seen from `now`: counting down when its pre-alert has
    /// begun, else scheduled. A timer is always counting down.
    public func waitingState(until fireDate: Date, now: Date) -> AlarmState {
        if kind == .timer {
            return .countdown(CountdownPhase(fireDate: fireDate, duration: countdownDuration))
        }
        if isInPreAlert(until: fireDate, at: now) {
            return .countdown(CountdownPhase(fireDate: fireDate, duration: countdownDuration, followsWallClock: true))
        }
        return .scheduled(fireDate: fireDate)
    }

    /// Whether `now` lies in the pre-alert window before `fireDate`. One expression for every
    /// caller, computed like `nextDeadline`: `fireDate - countdown <= now` and
    /// `fireDate - now <= countdown` can disagree in the last bit.
    private func isInPreAlert(until fireDate: Date, at now: Date) -> Bool {
        countdownDuration > 0 && fireDate.addingTimeInterval(-countdownDuration) <= now
    }

    /// Rings, unless it is later than the late limit: then it is missed, and a stale alarm never
    /// rings after a long absence.
    private func cameDue(at dueDate: Date, now: Date, in timeZone: TimeZoneRules) -> AlarmEvent {
        var due = self
        // An occurrence of the schedule (not a snooze's or a timer's end, which measure elapsed
        // time): remembered, so the next occurrence comes after it whatever the clock does.
        if schedule != nil, case .scheduled = state { due.lastOccurrence = dueDate }
        if case .countdown(let phase) = state, phase.followsWallClock, schedule != nil { due.lastOccurrence = dueDate }
        if now.timeIntervalSince(dueDate) > due.lateLimit {
            return due.ended(.missed, at: now, in: timeZone, dueDate: dueDate)
        }
        return AlarmEvent(.fired, due.with(state: .alerting(since: now)), dueDate: dueDate)
    }

    /// The end of one ring (or missed ring): a repeating alarm waits for its next occurrence after
    /// `now` and after the one that rang, a one-shot is removed.
    private func ended(_ kind: AlarmEvent.Kind, at now: Date, in timeZone: TimeZoneRules, dueDate: Date? = nil) -> AlarmEvent {
        // After the occurrence that rang too: the clock may have been set back since it did.
        let after = max(now, lastOccurrence ?? now)
        if let schedule, schedule.isRepeating,
           let next = ScheduleCalculator.nextOccurrence(of: schedule, after: after, in: timeZone) {
            var waiting = with(state: waitingState(until: next, now: now))
            // The next occurrence rings afresh.
            waiting.snoozes = nil
            return AlarmEvent(kind, waiting, dueDate: dueDate)
        }
        return AlarmEvent(kind, self, removesAlarm: true, dueDate: dueDate)
    }

    private func snoozed(for snoozeDuration: TimeInterval, at now: Date) -> AlarmEvent {
        let phase = CountdownPhase(fireDate: now.addingTimeInterval(snoozeDuration), duration: snoozeDuration)
        var snoozedAlarm = with(state: .countdown(phase))
        snoozedAlarm.snoozes = (snoozes ?? 0) + 1
        return AlarmEvent(.snoozed, snoozedAlarm)
    }

    func with(state newState: AlarmState) -> Alarm {
        var copy = self
        copy.state = newState
        return copy
    }

    private func refusal(_ intent: AlarmIntent, requirement: String) -> AlarmError {
        .invalidState(intent: intent, title: title, state: state.name, requirement: requirement)
    }
}
