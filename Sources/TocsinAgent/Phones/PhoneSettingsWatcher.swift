import CGLib
import FoundationEssentials
import GLibSupport
import TocsinCore
import TocsinFiles

/// Reads the user's phone settings (`tocsin phone` writes them) at start and again whenever their
/// file changes, through a GFileMonitor (inotify: no wake-up while nothing changes). Its
/// directory is made first: GLib watches a path whose directory is missing by polling it every
/// few seconds, which would wake an idle agent.
///
/// A file that cannot be read rings no phone, and says why once per change; it is never
/// written over (the command line refuses to, too).
final class PhoneSettingsWatcher {
    private let store: PhoneSettingsStore
    private let log: AgentLog
    private let onChange: (PhoneRingSettings) -> Void
    private var monitor: UnsafeMutablePointer<GFileMonitor>?
    private var handler: gulong = 0

    /// Follows `store`'s file, calling `onChange` with what it says (`.off` when unreadable).
    init(store: PhoneSettingsStore, log: AgentLog, onChange: @escaping (PhoneRingSettings) -> Void) {
        self.store = store
        self.log = log
        self.onChange = onChange
    }

    deinit {
        if let monitor {
            g_signal_handler_disconnect(UnsafeMutableRawPointer(monitor), handler)
            g_file_monitor_cancel(monitor)
            g_object_unref(UnsafeMutableRawPointer(monitor))
        }
    }

    /// The settings now; then follows the file.
    func start() {
        try? FileManager.default.createDirectory(at: store.fileURL.deletingLastPathComponent(), withIntermediateDirectories: true)
        let file = g_file_new_for_path(store.fileURL.path)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        do throws(GLibError) {
            monitor = try GLibError.check { g_file_monitor_file(file, G_FILE_MONITOR_WATCH_MOVES, nil, $0) }
        } catch {
            log.warning("The phone settings in \(store.fileURL.path) are read only now, not followed: \(error.message)")
        }
        if let monitor {
            let callback: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, OpaquePointer?, GFileMonitorEvent, gpointer?) -> Void = { _, _, _, event, userData in
                let watcher = Unmanaged<PhoneSettingsWatcher>.fromOpaque(userData!).takeUnretainedValue()
                switch event {
                case G_FILE_MONITOR_EVENT_CHANGES_DONE_HINT, G_FILE_MONITOR_EVENT_CREATED, G_FILE_MONITOR_EVENT_DELETED,
                     G_FILE_MONITOR_EVENT_MOVED_IN, G_FILE_MONITOR_EVENT_MOVED_OUT, G_FILE_MONITOR_EVENT_RENAMED:
                    watcher.reload()
                default:
                    break
                }
            }
            handler = g_signal_connect_data(UnsafeMutableRawPointer(monitor), "changed", unsafeBitCast(callback, to: GCallback.self),
                                            Unmanaged.passUnretained(self).toOpaque(), nil, GConnectFlags(rawValue: 0))
        }
        reload()
    }

    private func reload() {
        do {
            onChange(try store.load())
        } catch {
            log.warning("No phone will be rung: \(error.message).")
            onChange(.off)
        }
    }
}
