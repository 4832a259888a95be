import CGLib
import GLibSupport
import TocsinEdge

/// Tells the agent when the machine goes to sleep and when it wakes, from logind's
/// `PrepareForSleep` signal on the system bus.
///
/// The wall-clock timer already fires after a resume for whatever came due during sleep; this
/// makes the agent act at the moment of resume instead of whenever the kernel gets round to the
/// timer, and lets it check again what may have changed meanwhile (the time zone of a laptop that
/// travelled). Without a system bus or without logind it logs one line and does nothing else.
/// The system bus is reached without waiting (a hung bus daemon must not delay the first ring).
/// No sleep inhibitor is taken. Lives on the thread and main context that are thread-default when
/// it is made.
final class SleepWatcher {
    private let log: AgentLog
    private let faults: NeighbourFaults
    private let onSuspend: () -> Void
    private let onResume: () -> Void
    private var bus: SystemBusConnection?
    private var subscription: BusSignalSubscription?
    private var nameWatch: guint = 0
    /// Whether logind's presence has been established, so its absence is logged once at most.
    private var logindSeen = false

    /// Starts listening, once the system bus is reached (asked without waiting). `onSuspend` runs
    /// just before the machine sleeps (logind's `true`), `onResume` just after it wakes
    /// (`false`). `systemBusAddress` is `nil` for the system bus; tests pass a private bus's
    /// address. A signal of another shape than logind's is said once through `faults`.
    init(systemBusAddress: String? = nil, log: AgentLog, faults: NeighbourFaults, onSuspend: @escaping () -> Void = {}, onResume: @escaping () -> Void) {
        self.log = log
        self.faults = faults
        self.onSuspend = onSuspend
        self.onResume = onResume
        SystemBus.connect(address: systemBusAddress) { [weak self] result in
            switch result {
            case .success(let bus): self?.follow(bus)
            case .failure(let error):
                self?.log.info("No system bus (\(error.message)); after a resume from sleep, alarms that came due ring when the wall-clock timer fires.")
            }
        }
    }

    private func follow(_ bus: SystemBusConnection) {
        self.bus = bus
        let connection = bus.pointer
        subscription = Logind.followSleep(on: connection, faults: faults) { [weak self] sleeping in self?.prepareForSleep(sleeping) }
        // Only to say in the log whether anyone will send the signal; the subscription stands either way.
        nameWatch = g_bus_watch_name_on_connection(
            connection, Logind.busName, G_BUS_NAME_WATCHER_FLAGS_NONE,
            { _, _, _, userData in
                Unmanaged<SleepWatcher>.fromOpaque(userData!).takeUnretainedValue().logindPresent(true)
            },
            { _, _, userData in
                Unmanaged<SleepWatcher>.fromOpaque(userData!).takeUnretainedValue().logindPresent(false)
            },
            Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    deinit {
        if nameWatch != 0 { g_bus_unwatch_name(nameWatch) }
    }

    /// logind's `PrepareForSleep(b start)`: `true` before sleeping, `false` after waking.
    private func prepareForSleep(_ starting: Bool) {
        if starting {
            log.info("The machine is going to sleep.")
            onSuspend()
        } else {
            log.info("The machine woke from sleep; checking every alarm.")
            onResume()
        }
    }

    /// Whether logind owns its name; says so in the log once if it does not.
    private func logindPresent(_ present: Bool) {
        switch (present, logindSeen) {
        case (true, false):
            logindSeen = true
        case (false, false):
            // Logged once: without logind there is nothing more to say, and it rarely comes later.
            logindSeen = true
            log.info("logind (\(Logind.busName)) is not on the system bus; after a resume from sleep, alarms that came due ring when the wall-clock timer fires.")
        default:
            break
        }
    }
}
