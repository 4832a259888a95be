import Foundation

/// The alarm state machine: which intent is allowed in which state, and what it leads to.
///
/// Pure: time comes in as `now`, nothing is stored or shown here. The result is the event that
/// happened, carrying the alarm as it is afterwards.
extension Alarm {
    /// Applies `intent` at `now`, or explains why the current state does not allow it.
    public func applying(_ intent: AlarmIntent, at now: Date) throws(AlarmError) -> AlarmEvent {
        switch intent {
        case .pause:
            guard case .countdown(let phase) = state else {
                throw refusal(intent, requirement: "only a timer that is counting down can be paused")
            }
            return AlarmEvent(.paused, with(state: .paused(PausedPhase(remaining: phase.remaining(at: now), duration: phase.duration))))
        case .resume:
            guard case .paused(let phase) = state else {
                throw refusal(intent, requirement: "only a paused timer can be resumed")
            }
            let fireDate = now.addingTimeInterval(phase.remaining)
            return AlarmEvent(.resumed, with(state: .countdown(CountdownPhase(fireDate: fireDate, duration: phase.duration))))
        case .cancel:
            return AlarmEvent(.cancelled, self)
        case .stop:
            guard case .alerting = state else {
                throw refusal(intent, requirement: "only a ringing alarm can be stopped (use cancel to remove it)")
            }
            return AlarmEvent(.stopped, self)
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
                return AlarmEvent(.secondary, self)
            case nil:
                throw refusal(intent, requirement: "it was set without a second button")
            }
        }
    }

    /// What time alone does to the alarm at `now`: a due countdown starts ringing, a ringing alarm
    /// past its ring limit ends unacknowledged. `nil` when nothing is due.
    public func advanced(to now: Date) -> AlarmEvent? {
        switch state {
        case .countdown(let phase) where phase.fireDate <= now:
            return AlarmEvent(.fired, with(state: .alerting(since: phase.fireDate)))
        case .scheduled(let fireDate) where fireDate <= now:
            return AlarmEvent(.fired, with(state: .alerting(since: fireDate)))
        case .alerting(let since) where since.addingTimeInterval(ringLimit) <= now:
            return AlarmEvent(.unacknowledged, self)
        default:
            return nil
        }
    }

    /// The next instant at which time alone changes this alarm (`advanced(to:)` returns an event), if any.
    public var nextDeadline: Date? {
        switch state {
        case .countdown(let phase): phase.fireDate
        case .scheduled(let fireDate): fireDate
        case .alerting(let since): since.addingTimeInterval(ringLimit)
        case .paused: nil
        }
    }

    private func snoozed(for snoozeDuration: TimeInterval, at now: Date) -> AlarmEvent {
        let phase = CountdownPhase(fireDate: now.addingTimeInterval(snoozeDuration), duration: snoozeDuration)
        return AlarmEvent(.snoozed, with(state: .countdown(phase)))
    }

    private func with(state newState: AlarmState) -> Alarm {
        var copy = self
        copy.state = newState
        return copy
    }

    private func refusal(_ intent: AlarmIntent, requirement: String) -> AlarmError {
        .invalidState(intent: intent, title: title, state: state.name, requirement: requirement)
    }
}
