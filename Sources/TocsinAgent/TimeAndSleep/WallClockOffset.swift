import Glibc

/// How far the wall clock stands from the boot clock. It changes only when someone sets the
/// system clock (suspend advances both clocks alike), so the change between two readings is
/// exactly how far the clock was set.
enum WallClockOffset {
    /// `CLOCK_REALTIME` minus `CLOCK_BOOTTIME`, in seconds.
    static func now() -> Double {
        seconds(CLOCK_REALTIME) - seconds(CLOCK_BOOTTIME)
    }

    private static func seconds(_ clock: clockid_t) -> Double {
        var time = timespec()
        clock_gettime(clock, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
    }
}
