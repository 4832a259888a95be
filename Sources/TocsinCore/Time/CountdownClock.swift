import FoundationEssentials

/// The arithmetic of a live countdown: what it shows at an instant, and when the display next changes.
///
/// The agent updates every countdown on screen together, on the clock's whole seconds (`nextTick`),
/// rather than each on the whole seconds of its own remaining time: twenty countdowns then cost
/// one wake-up a second instead of twenty. Each shows, at every tick, its remaining time rounded
/// to the nearest second, so until the next tick it is never more than half a second off; and
/// never `0:00` while time remains — a 3-minute timer shows `3:00` when it starts and `0:01` in
/// its last moments.
public enum CountdownClock {
    /// The whole seconds shown for `remaining` time: rounded to the nearest (halves up), at
    /// least 1 while any time remains, 0 once none does.
    public static func displayedSeconds(remaining: TimeInterval) -> Int {
        // Float noise of subtracting two dates must not decide: round it away first.
        let cleaned = (remaining * 1000).rounded() / 1000
        guard cleaned > 0 else { return 0 }
        // Clamped as a Double: a remaining time beyond Int's range must not reach Int(), which traps.
        return Int(min(max(1, cleaned.rounded(.toNearestOrAwayFromZero)), Double(Int.max / 2)))
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

    /// The whole second of the clock at or before `now`: what a countdown update made at `now`
    /// shows, so that every process waking at that second shows the same time left.
    public static func wholeSecond(atOrBefore now: Date) -> Date {
        let cleaned = (now.timeIntervalSince1970 * 1000).rounded() / 1000
        return Date(timeIntervalSince1970: cleaned.rounded(.down))
    }

    /// The next whole second of the clock after `now`, when countdowns on screen are updated.
    public static func nextTick(after now: Date) -> Date {
        // A wake-up a few microseconds before a whole second (float noise) counts as that second,
        // so it is not scheduled again microseconds later.
        let cleaned = (now.timeIntervalSince1970 * 1000).rounded() / 1000
        return Date(timeIntervalSince1970: cleaned.rounded(.down) + 1)
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
