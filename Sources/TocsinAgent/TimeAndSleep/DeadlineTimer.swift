import CGLib
import CTimerFD
import FoundationEssentials
import GLibSupport
import TocsinCore
import Glibc

/// One wall-clock alarm for the whole agent: armed only for the next thing that must happen, so the
/// agent sleeps when nothing is due.
///
/// Uses a `CLOCK_REALTIME` timerfd with an absolute expiry, because fire times are wall-clock
/// instants: a GLib timeout counts monotonic time and would drift from the wall clock across
/// suspend or a clock change. The timer is also cancelled by the kernel when the clock is set,
/// which reports the change at once (`onClockChange`) instead of at the next expiry.
///
/// With `wakesSystem`, the timer uses `CLOCK_REALTIME_ALARM`, which also wakes a suspended machine
/// at the armed instant; that needs `CAP_WAKE_ALARM` and a wake-capable real-time clock.
final class DeadlineTimer {
    private let descriptor: Int32
    private var sourceID: guint = 0
    private let onExpiry: () -> Void
    private let onClockChange: () -> Void
    private let reportsClockChanges: Bool

    /// A disarmed timer calling `onExpiry` when the armed instant passes and `onClockChange` when
    /// the system clock is set (the timer must then be armed again). Throws with errno's reason
    /// when the clock cannot be used (`EPERM`: no `CAP_WAKE_ALARM`).
    init(wakesSystem: Bool = false, onExpiry: @escaping () -> Void, onClockChange: @escaping () -> Void = {}) throws(TimerCreationError) {
        descriptor = timerfd_create(wakesSystem ? CLOCK_REALTIME_ALARM : CLOCK_REALTIME, Int32(TFD_NONBLOCK | TFD_CLOEXEC))
        guard descriptor >= 0 else {
            throw TimerCreationError(code: errno)
        }
        reportsClockChanges = !wakesSystem
        self.onExpiry = onExpiry
        self.onClockChange = onClockChange
        sourceID = g_unix_fd_add(descriptor, G_IO_IN, { _, _, userData in
            Unmanaged<DeadlineTimer>.fromOpaque(userData!).takeUnretainedValue().readExpiry()
            return SourceResult.keep
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        g_source_remove(sourceID)
        close(descriptor)
    }

    /// Arms the timer for `date` (at once if it has passed), or disarms it when `date` is `nil`.
    func arm(at date: Date?) {
        var spec = itimerspec()
        if let date {
            (spec.it_value.tv_sec, spec.it_value.tv_nsec) = TimerExpiry.parts(of: date)
        }
        let flags = date == nil ? 0 : Int32(TFD_TIMER_ABSTIME) | (reportsClockChanges ? Int32(TFD_TIMER_CANCEL_ON_SET) : 0)
        timerfd_settime(descriptor, flags, &spec, nil)
    }

    private func readExpiry() {
        var expirations: UInt64 = 0
        let result = read(descriptor, &expirations, MemoryLayout<UInt64>.size)
        if result < 0 && errno == ECANCELED {
            onClockChange()
        } else if result == MemoryLayout<UInt64>.size {
            onExpiry()
        }
    }
}

/// Why a timer could not be created: errno from `timerfd_create`.
struct TimerCreationError: Error {
    /// The errno value.
    let code: Int32

    /// errno as a sentence.
    var message: String { String(cString: strerror(code)) }
}
