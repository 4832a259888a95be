import Foundation

/// The arithmetic of a live countdown: what it shows at an instant, and when the display next changes.
///
/// The display shows whole seconds rounded up, so a 3-minute timer shows `3:00` when it starts,
/// `2:59` one second later and `0:01` in its last second; it changes exactly on whole seconds of
/// the remaining time, which is when the agent updates the notification.
public enum CountdownClock {
    /// The whole seconds shown for `remaining` time: rounded up, never negative.
    public static func displayedSeconds(remaining: TimeInterval) -> Int {
        // A wake-up a few microseconds after a boundary must still show the new value: round away
        // the float noise of subtracting two dates before rounding up.
        let cleaned = (remaining * 1000).rounded() / 1000
        return max(0, Int(cleaned.rounded(.up)))
    }

    /// Percentage of the countdown elapsed, 0–100, rounded down (100 only at the end).
    public static func percentElapsed(remaining: TimeInterval, duration: TimeInterval) -> Int {
        guard duration > 0 else { return 100 }
        // Round away float noise first: 29 s of 100 elapsed must read 29 %, not 28.999…
        let percent = ((duration - remaining) / duration * 100 * 1e6).rounded() / 1e6
        // Clamp as a Double: NaN or a remaining time far beyond the duration (the clock was set
        // back) must not reach Int(), which traps.
        guard percent.isFinite else { return 0 }
        return Int(min(100, max(0, percent)).rounded(.down))
    }

    /// The next instant after `now` at which the displayed seconds of a countdown ending at
    /// `fireDate` change; `fireDate` itself when the last second is showing.
    public static func nextDisplayChange(fireDate: Date, after now: Date) -> Date {
        let shown = displayedSeconds(remaining: fireDate.timeIntervalSince(now))
        return fireDate.addingTimeInterval(-TimeInterval(max(0, shown - 1)))
    }
}

extension Alarm {
    /// The remaining time at `now` of a counting-down or paused alarm; `nil` in other states.
    public func remaining(at now: Date) -> TimeInterval? {
        switch state {
        case .countdown(let phase): phase.remaining(at: now)
        case .paused(let phase): phase.remaining
        case .scheduled, .alerting: nil
        }
    }

    /// Percentage elapsed of the current countdown at `now`; `nil` when not counting down or paused.
    public func percentElapsed(at now: Date) -> Int? {
        switch state {
        case .countdown(let phase):
            CountdownClock.percentElapsed(remaining: phase.remaining(at: now), duration: phase.duration)
        case .paused(let phase):
            CountdownClock.percentElapsed(remaining: phase.remaining, duration: phase.duration)
        case .scheduled, .alerting:
            nil
        }
    }
}
