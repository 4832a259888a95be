import FoundationEssentials
import Glibc

/// Wakes a suspended machine for the next alarm, where the agent may: a `CLOCK_REALTIME_ALARM`
/// timer needs `CAP_WAKE_ALARM` (granted by the package's postinst) and a wake-capable RTC.
/// Without them alarms still ring on time whenever the machine is awake, and on resume.
final class WakeTimer {
    /// Whether the machine can be woken, and why not.
    enum Availability: Equatable {
        case available
        case unavailable(reason: String)
    }

    /// What this agent can do; shown by `tocsin status`.
    let availability: Availability
    private let timer: DeadlineTimer?

    /// Tries to create the wake timer, logging once if it cannot.
    init(log: AgentLog, onWake: @escaping () -> Void) {
        do {
            timer = try DeadlineTimer(wakesSystem: true, onExpiry: onWake)
            availability = .available
        } catch {
            timer = nil
            let reason = switch error.code {
            case EPERM: "tocsind lacks the CAP_WAKE_ALARM capability; grant it with “sudo setcap cap_wake_alarm+ep \(Self.executablePath)”"
            case EINVAL, ENODEV, ENOTSUP: "this kernel or machine has no wake-capable real-time clock (\(error.message))"
            default: error.message
            }
            availability = .unavailable(reason: reason)
            log.info("A suspended machine will not wake for alarms: \(reason). Alarms ring on resume instead.")
        }
    }

    /// Arms the wake-up for `date`, or disarms it.
    func arm(at date: Date?) {
        timer?.arm(at: date)
    }

    private static var executablePath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "tocsind"
    }
}
