import CGLib
import FoundationEssentials
import GLibSupport
import TocsinCore
import TocsinFiles

/// Reads one of the user's settings files (`tocsin phone` and `tocsin config` write them) at start
/// and again whenever it changes, through a GFileMonitor (inotify: no wake-up while nothing
/// changes). Its directory is made first: GLib watches a path whose directory is missing by
/// polling it every few seconds, which would wake an idle agent.
///
/// A file that cannot be read is said in the log, once per change, and the settings it stands
/// for fall back (no phone rung; the output raised as by default) until it can be; it is never
/// written over (the command line refuses to, too).
final class SettingsFileWatcher {
    private let file: URL
    private let what: String
    private let log: AgentLog
    private let reload: () -> Void
    private var monitor: UnsafeMutablePointer<GFileMonitor>?
    private var handler: gulong = 0

    /// Follows `file`, calling `onChange` with what `load` reads from it, or with what
    /// `unreadable` makes of the error when it cannot (`unreadable` logs why). `what` names the
    /// settings in the log ("The phone settings").
    init<Settings>(file: URL, what: String, log: AgentLog, load: @escaping () throws(StoreError) -> Settings,
                   unreadable: @escaping (StoreError) -> Settings, onChange: @escaping (Settings) -> Void) {
        self.file = file
        self.what = what
        self.log = log
        reload = {
            do throws(StoreError) {
                onChange(try load())
            } catch {
                onChange(unreadable(error))
            }
        }
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
        try? FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let gfile = g_file_new_for_path(file.path)
        defer { g_object_unref(UnsafeMutableRawPointer(gfile)) }
        do throws(GLibError) {
            monitor = try GLibError.check { g_file_monitor_file(gfile, G_FILE_MONITOR_WATCH_MOVES, nil, $0) }
        } catch {
            log.warning("\(what) in \(file.path) are read only now, not followed: \(error.message)")
        }
        if let monitor {
            let callback: @convention(c) (UnsafeMutableRawPointer?, OpaquePointer?, OpaquePointer?, GFileMonitorEvent, gpointer?) -> Void = { _, _, _, event, userData in
                let watcher = Unmanaged<SettingsFileWatcher>.fromOpaque(userData!).takeUnretainedValue()
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
}

extension SettingsFileWatcher {
    /// Follows `phone.json` (`tocsin phone`): an unreadable file rings no phone.
    static func phoneSettings(_ store: PhoneSettingsStore, log: AgentLog, onChange: @escaping (PhoneRingSettings) -> Void) -> SettingsFileWatcher {
        SettingsFileWatcher(file: store.fileURL, what: "The phone settings", log: log, load: store.load, unreadable: { error in
            log.warning("No phone will be rung: \(error.message).")
            return .off
        }, onChange: onChange)
    }

    /// Follows `output.json` (`tocsin config raise-output`, `ring-level`): with an unreadable
    /// file, alarms raise the output as by default — the safe side for an alarm clock, and what
    /// the user had before writing the file.
    static func outputRaiseSettings(_ store: OutputRaiseSettingsStore, log: AgentLog,
                                    onChange: @escaping (OutputRaiseSettings) -> Void) -> SettingsFileWatcher {
        SettingsFileWatcher(file: store.fileURL, what: "The output settings", log: log, load: store.load, unreadable: { error in
            let standard = OutputRaiseSettings.standard
            log.warning("\(error.message); until it can be read, ringing alarms raise a muted or quieter output to \(standard.levelPercent) % as by default.")
            return standard
        }, onChange: onChange)
    }

    /// Follows `lock-screen.json` (`tocsin config lock-screen-titles`): with an unreadable file,
    /// titles are kept off the lock screen — the side that shows nothing the user meant to hide.
    static func lockScreenSettings(_ store: LockScreenSettingsStore, log: AgentLog,
                                   onChange: @escaping (LockScreenSettings) -> Void) -> SettingsFileWatcher {
        SettingsFileWatcher(file: store.fileURL, what: "The lock-screen settings", log: log, load: store.load, unreadable: { error in
            log.warning("\(error.message); until it can be read, a locked screen shows “Alarm” instead of alarms' titles.")
            return LockScreenSettings(showsTitles: false)
        }, onChange: onChange)
    }
}
