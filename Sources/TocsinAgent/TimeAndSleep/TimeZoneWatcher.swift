import CGLib
import FoundationEssentials
import TocsinCore
import Glibc
import GLibSupport
import TocsinEdge

/// Tells the agent as soon as the local time zone changes, so "07:00 on weekdays" moves with it.
///
/// Nothing is polled. Three things wake it, each for a way the zone can change:
/// - a GIO file monitor on the directories holding the resolver's files (`/etc`): `timedatectl`
///   replaces the `/etc/localtime` symlink by a rename, Debian's tzdata also rewrites
///   `/etc/timezone`, and a directory monitor sees both (a monitor on the old link would not);
/// - the mount table (`/proc/self/mountinfo`), for which the kernel raises POLLPRI|POLLERR when a
///   mount appears or goes: a file bind-mounted over `/etc/localtime` changes nothing inotify sees.
///   Any mount on the machine raises it (containers, sandboxes, removable disks); only one that
///   concerns the zone's files (`LocalTimeZoneResolver.mountPointsConcerningTheZone`) asks for a
///   check, so another costs one wake-up, not two and a reading of the zone;
/// - systemd-timedated's `PropertiesChanged` for `Timezone` on the system bus, where there is one.
///
/// Any of them makes it resolve the zone again after a short quiet period (one rename makes several
/// events) and call `onChange` only when the zone differs from the last one. Lives on the thread
/// and main context that are thread-default when it is made (the agent's main loop); everything it
/// attached is removed when it is released.
final class TimeZoneWatcher {
    /// The zone as last resolved, with where it came from.
    private(set) var current: ResolvedLocalTimeZone

    private let resolver: LocalTimeZoneResolver
    private let log: AgentLog
    private let faults: NeighbourFaults
    private let onChange: (TimeZoneRules) -> Void
    /// The main context every source and callback of this watcher is attached to.
    private let context: OpaquePointer
    /// One monitor per watched directory, with the file names in it that matter.
    private var directoryMonitors: [(monitor: UnsafeMutablePointer<GFileMonitor>, handler: gulong, names: Set<String>)] = []
    /// The open mount table and the source polling it for POLLPRI.
    private var mountTable: (descriptor: Int32, source: UnsafeMutablePointer<GSource>)?
    /// The mount points concerning the zone's files when the table was last read.
    private var zoneMounts: Set<String> = []
    /// The system bus connection and timedated subscription.
    private var systemBus: (connection: SystemBusConnection, subscription: BusSignalSubscription)?
    /// The quiet-period timer of a check asked for by events, if one is pending.
    private var pendingCheck: UnsafeMutablePointer<GSource>?
    /// When the first event of the pending check arrived (monotonic microseconds).
    private var firstPendingEvent: gint64 = 0

    /// How long after the last event the zone is resolved: the events of one change arrive within
    /// a few milliseconds of each other.
    static let quietPeriodMilliseconds: gint64 = 50
    /// The longest a check waits for events to stop, so a burst of unrelated mounts cannot delay it.
    static let longestDelayMilliseconds: gint64 = 250

    /// Resolves the zone now and starts watching. `onChange` gets each new zone on this thread's
    /// main loop. `systemBusAddress` is `nil` for the system bus; tests pass a private bus's address.
    init(resolver: LocalTimeZoneResolver = LocalTimeZoneResolver(), systemBusAddress: String? = nil, log: AgentLog, faults: NeighbourFaults,
         onChange: @escaping (TimeZoneRules) -> Void) {
        self.resolver = resolver
        self.log = log
        self.faults = faults
        self.onChange = onChange
        context = g_main_context_ref_thread_default()
        current = resolver.resolve()
        log.info("Local time zone: \(current).")
        watchDirectories()
        watchMountTable()
        watchTimedated(systemBusAddress)
    }

    deinit {
        if let pendingCheck { Self.discard(pendingCheck) }
        for (monitor, handler, _) in directoryMonitors {
            g_signal_handler_disconnect(monitor, handler)
            g_file_monitor_cancel(monitor)
            g_object_unref(monitor)
        }
        if let mountTable {
            Self.discard(mountTable.source)
            close(mountTable.descriptor)
        }
        g_main_context_unref(context)
    }

    /// Resolves the zone at once and calls `onChange` if it changed; for callers that know the
    /// world may have moved (a resume from sleep, the clock being set).
    func checkNow() {
        if let pendingCheck {
            Self.discard(pendingCheck)
            self.pendingCheck = nil
        }
        let resolved = resolver.resolve()
        let previous = current
        current = resolved
        // Rules are equal when their name and their transitions are: a tzdata update that changes
        // the zone's file is a change too, and alarms move to what the new rules say.
        guard resolved.timeZone != previous.timeZone else { return }
        log.info("The local time zone changed from \(previous.timeZone.identifier) to \(resolved).")
        onChange(resolved.timeZone)
    }

    // MARK: Events

    /// Asks for a check once events have stopped for the quiet period (at most the longest delay
    /// after the first).
    private func scheduleCheck() {
        let now = g_get_monotonic_time()
        if let pendingCheck {
            Self.discard(pendingCheck)
        } else {
            firstPendingEvent = now
        }
        let due = min(now + Self.quietPeriodMilliseconds * 1000, firstPendingEvent + Self.longestDelayMilliseconds * 1000)
        let source = g_timeout_source_new(guint(max(0, due - now) / 1000))!
        g_source_set_callback(source, { userData in
            let watcher = Unmanaged<TimeZoneWatcher>.fromOpaque(userData!).takeUnretainedValue()
            // The source is being dispatched: GLib holds it until this returns, so only our reference goes.
            if let pending = watcher.pendingCheck { g_source_unref(pending) }
            watcher.pendingCheck = nil
            watcher.checkNow()
            return SourceResult.remove
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
        g_source_attach(source, context)
        pendingCheck = source
    }

    /// A mount appeared or went somewhere; only one concerning the zone's files asks for a check.
    private func mountTableChanged() {
        let mounts = resolver.mountPointsConcerningTheZone()
        guard mounts != zoneMounts else { return }
        zoneMounts = mounts
        scheduleCheck()
    }

    /// A file in a watched directory changed; only the resolver's files matter.
    private func fileEvent(in monitor: UnsafeMutablePointer<GFileMonitor>, file: OpaquePointer?, otherFile: OpaquePointer?) {
        guard let names = directoryMonitors.first(where: { $0.monitor == monitor })?.names else { return }
        // A rename names the old file in `file` and the new one in `otherFile`.
        if [file, otherFile].compactMap(Self.baseName).contains(where: names.contains) {
            scheduleCheck()
        }
    }

    // MARK: Sources

    /// Monitors the directories holding the resolver's files, one monitor per directory.
    private func watchDirectories() {
        var namesByDirectory: [String: Set<String>] = [:]
        for path in resolver.sourceFiles {
            let url = URL(fileURLWithPath: path)
            namesByDirectory[url.deletingLastPathComponent().path, default: []].insert(url.lastPathComponent)
        }
        for (directory, names) in namesByDirectory.sorted(by: { $0.key < $1.key }) {
            let file = g_file_new_for_path(directory)
            defer { g_object_unref(UnsafeMutableRawPointer(file)) }
            let monitor: UnsafeMutablePointer<GFileMonitor>?
            do {
                monitor = try GLibError.check { g_file_monitor_directory(file, G_FILE_MONITOR_WATCH_MOVES, nil, $0) }
            } catch {
                log.warning("Cannot watch \(directory) for time zone changes (\(error.message)); a change there is noticed only when the agent restarts.")
                continue
            }
            guard let monitor else { continue }
            let changed: @convention(c) (UnsafeMutablePointer<GFileMonitor>?, OpaquePointer?, OpaquePointer?, GFileMonitorEvent, gpointer?) -> Void = { monitor, file, otherFile, _, userData in
                Unmanaged<TimeZoneWatcher>.fromOpaque(userData!).takeUnretainedValue().fileEvent(in: monitor!, file: file, otherFile: otherFile)
            }
            let handler = g_signal_connect_data(monitor, "changed", unsafeBitCast(changed, to: GCallback.self), Unmanaged.passUnretained(self).toOpaque(), nil, GConnectFlags(0))
            directoryMonitors.append((monitor, handler, names))
        }
    }

    /// Wakes on every change of the mount table the resolver reads.
    private func watchMountTable() {
        let path = resolver.mountInfoPath
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            log.info("Cannot open \(path) (\(String(cString: strerror(errno)))); a file mounted over \(resolver.localtimePath) is noticed only when the agent restarts.")
            return
        }
        // The kernel clears the event when poll() reports it, so nothing needs to be read.
        let source = g_unix_fd_source_new(descriptor, GIOCondition(G_IO_PRI.rawValue | G_IO_ERR.rawValue))!
        zoneMounts = resolver.mountPointsConcerningTheZone()
        let mountsChanged: GUnixFDSourceFunc = { _, _, userData in
            Unmanaged<TimeZoneWatcher>.fromOpaque(userData!).takeUnretainedValue().mountTableChanged()
            return SourceResult.keep
        }
        g_source_set_callback(source, unsafeBitCast(mountsChanged, to: GSourceFunc.self), Unmanaged.passUnretained(self).toOpaque(), nil)
        g_source_attach(source, context)
        mountTable = (descriptor, source)
    }

    /// Subscribes to timedated's property changes on the system bus, if there is one, reached
    /// without waiting: a hung system bus daemon must not hold up the agent's start.
    private func watchTimedated(_ address: String?) {
        SystemBus.connect(address: address) { [weak self] result in
            switch result {
            case .success(let bus):
                guard let self else { return }
                let subscription = Timedated.followTimeZone(on: bus.pointer, faults: faults) { [weak self] in self?.scheduleCheck() }
                systemBus = (bus, subscription)
            case .failure(let error):
                guard let self else { return }
                log.info("No system bus (\(error.message)); time zone changes are noticed through \(resolver.localtimePath) and the mount table alone.")
            }
        }
    }

    /// Removes a source from its context and drops this watcher's reference to it.
    private static func discard(_ source: UnsafeMutablePointer<GSource>) {
        g_source_destroy(source)
        g_source_unref(source)
    }

    /// The last component of a `GFile`'s path.
    private static func baseName(_ file: OpaquePointer?) -> String? {
        guard let file, let name = g_file_get_basename(file) else { return nil }
        defer { g_free(name) }
        return String(cString: name)
    }
}
