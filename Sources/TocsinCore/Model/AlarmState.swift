import FoundationEssentials

/// Where an alarm is in its life, with the instants that state needs.
///
/// Instants are absolute wall-clock dates so a countdown survives an agent restart: the agent reloads
/// the saved state and the fire date is still right.
public enum AlarmState: Sendable, Equatable, Codable {
    /// Waiting for a fixed instant without showing a countdown (scheduled alarms; timers never use it).
    case scheduled(fireDate: Date)
    /// Counting down, shown as a live activity, ringing at `fireDate`.
    case countdown(CountdownPhase)
    /// A countdown on hold, keeping what remained when it was paused.
    case paused(PausedPhase)
    /// Ringing since `since`, until stopped, snoozed, cancelled or the ring limit runs out.
    case alerting(since: Date)

    /// The state's name, as shown to users and sent over D-Bus.
    public var name: AlarmStateName {
        switch self {
        case .scheduled: .scheduled
        case .countdown: .countdown
        case .paused: .paused
        case .alerting: .alerting
        }
    }
}

/// The names of the alarm states, with AlarmKit's meaning.
public enum AlarmStateName: String, Sendable, Codable, CaseIterable {
    case scheduled, countdown, paused, alerting
}

/// A running countdown: it ends at `fireDate` and lasts `duration` in all (for the progress value).
public struct CountdownPhase: Sendable, Equatable, Codable {
    /// The instant the countdown reaches zero and the alarm rings.
    public var fireDate: Date
    /// The whole length of this countdown (the timer's duration, or the snooze duration after a snooze).
    public var duration: TimeInterval
    /// True for an alarm's pre-alert, which ends at a wall-clock occurrence ("07:00"): it stays put
    /// when the system clock is set, and moves with the time zone. False for timers, snoozes and
    /// resumed countdowns, which measure elapsed time: a clock change shifts their end with it.
    public var followsWallClock: Bool

    /// Creates a countdown that ends at `fireDate` and lasts `duration` in all.
    public init(fireDate: Date, duration: TimeInterval, followsWallClock: Bool = false) {
        self.fireDate = fireDate
        self.duration = duration
        self.followsWallClock = followsWallClock
    }

    /// Time left at `now`, never negative.
    public func remaining(at now: Date) -> TimeInterval {
        max(0, fireDate.timeIntervalSince(now))
    }
}

/// A paused countdown: what remained when it was paused, out of `duration`.
public struct PausedPhase: Sendable, Equatable, Codable {
    /// Time left when the countdown was paused; resuming counts down from here.
    public var remaining: TimeInterval
    /// The whole length of the countdown that was paused.
    public var duration: TimeInterval

    /// Creates a paused countdown with `remaining` left out of `duration`.
    public init(remaining: TimeInterval, duration: TimeInterval) {
        self.remaining = remaining
        self.duration = duration
    }
}
