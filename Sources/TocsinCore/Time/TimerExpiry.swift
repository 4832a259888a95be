import FoundationEssentials

/// How an instant becomes a `timespec` for an absolute timer: whole seconds since the epoch and
/// nanoseconds. Kept here, pure, so the fuzz targets exercise the very conversion the agent's
/// timerfd uses.
public enum TimerExpiry {
    /// `date` as (seconds, nanoseconds), clamped so a date read from a damaged or hostile state
    /// file (NaN, 1e300, before the epoch) can never trap: such a timer simply fires at once or
    /// never. Never all zeros, which would disarm the timer; the epoch itself is long past anyway.
    public static func parts(of date: Date) -> (seconds: Int, nanoseconds: Int) {
        let interval = date.timeIntervalSince1970
        let clamped = interval.isNaN ? 0 : min(max(interval, 0), 1e17)
        let seconds = clamped.rounded(.down)
        return (Int(seconds), min(999_999_999, max(1, Int((clamped - seconds) * 1_000_000_000))))
    }
}
