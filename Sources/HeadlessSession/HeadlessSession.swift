import Foundation

/// A private, real, headless Linux desktop session for integration tests, demos and benchmarks:
/// its own D-Bus session bus, X server (Xvfb), notification server (dunst) and sound server
/// (PulseAudio or PipeWire, with a null sink), all under one temporary directory. Several
/// sessions can run at once without seeing each other or the user's real desktop.
///
/// Programs started with `launch`/`run` (or given `environment`) use the session's bus, display
/// and sound server. The session observes what a user would see (every notification, via a bus
/// monitor) and hear (recordings of the sink), and can act like a user (click notification
/// actions, pause notifications).
///
/// Every child is ended by its saved PID in `stop()` and in `deinit`; children of a test process
/// that crashed are reaped when the next session starts.
///
/// `@unchecked Sendable`: a test may query the session from several tasks. Everything is
/// immutable after `init` except the stopped flag, the recording counter and `keepsDirectory`,
/// which are guarded by `lock`; the components it delegates to guard their own state.
public final class HeadlessSession: @unchecked Sendable {
    /// The label given at creation (part of the directory name).
    public let label: String
    /// The session's temporary directory: HOME, XDG directories, sockets, and every child's logs
    /// (`logs/<name>-<n>.stdout|stderr`, the bus monitor's JSON lines, raw recordings).
    public let directory: URL
    /// The environment for programs in the session: this process's environment with
    /// DBUS_SESSION_BUS_ADDRESS, DISPLAY, PULSE_SERVER, HOME, XDG_RUNTIME_DIR (mode 0700),
    /// XDG_CONFIG_HOME, XDG_STATE_HOME, XDG_DATA_HOME and XDG_CACHE_HOME pointing into the session,
    /// and WAYLAND_DISPLAY, XAUTHORITY, desktop and session-manager variables removed.
    public let environment: [String: String]
    /// The X display, e.g. ":2".
    public let display: String
    /// The session bus address.
    public let busAddress: String
    /// The sound server's PulseAudio protocol address (also in `environment` as PULSE_SERVER);
    /// the same after `restartSoundServer()`.
    public let soundServerAddress: String
    /// The sound server it runs.
    public let soundServer: SoundServerKind
    /// How long `init` took to get every component ready.
    public let startupDuration: Duration
    /// The notification server it runs.
    public let notificationServer: NotificationServerKind
    /// Which sway mako runs in (`.mako` sessions).
    public let swayRelease: SwayRelease
    /// For a server on Wayland (mako in sway): WAYLAND_DISPLAY and XDG_RUNTIME_DIR of its compositor.
    let waylandEnvironment: [String: String]?
    /// What a program the user starts inside the compositor (a terminal in sway) has beside
    /// `environment`: WAYLAND_DISPLAY and XDG_RUNTIME_DIR; `nil` for a session on X alone.
    public var compositorEnvironment: [String: String]? { waylandEnvironment }

    let layout: SessionLayout
    let launcher: ChildLauncher
    let monitor: BusMonitor
    /// GNOME Shell 50's screen, which no X server shows: screenshots and the pointer go through
    /// the shell; `nil` for every other server.
    let gnomeShellScreen: GnomeShellScreen?
    /// dunst's context-menu clicker; `nil` with another server, whose buttons are clicked on screen.
    let clicker: ActionClicker?
    /// The sound server, which a test may stop and restart.
    let soundControl: SoundServerControl
    private let registry: ProcessRegistry
    private let lock = NSLock()
    private var stopped = false
    private var recordingCount = 0
    private var keepDirectoryStorage: Bool

    /// Starts dbus-daemon, the bus monitor, Xvfb, dunst (with a generated dunstrc) and the sound
    /// server (pulseaudio, or pipewire, wireplumber and pipewire-pulse) with the null sink
    /// "tocsin_null" (the default sink) plus a silence stream that keeps its monitor flowing.
    /// Returns when all of them answer; throws naming the component that failed, with its stderr
    /// tail, after ending whatever had started.
    /// - Parameters:
    ///   - label: a short name for the session's directory, e.g. the test's name.
    ///   - baseEnvironment: the environment the session's `environment` is derived from (its PATH
    ///     also decides which dunst, Xvfb… are run).
    ///   - notificationServer: the server to run in dunst's place, if not dunst.
    ///   - activatable: D-Bus services the session bus may start, by name: each one's service
    ///     file text (`[D-BUS Service]`, `Name=`, `Exec=`). None by default; a bus that could
    ///     start whatever is installed would start the wrong notification server.
    ///   - gnomeShellRelease: which GNOME Shell runs, with `.gnomeShell`: the system's (43),
    ///     trixie's (48) or forky's (50, on a Wayland display of its own: `environment` then has
    ///     its WAYLAND_DISPLAY and no DISPLAY, though Xvfb still runs).
    ///   - gnomeShellExtensions: extension directories (each named after its uuid) GNOME Shell
    ///     starts with, installed for the session's user and enabled.
    ///   - swayRelease: which sway mako runs in, with `.mako`: the system's (1.7, headless) or
    ///     trixie's (1.10, on the X display, so it can be clicked and gtklock can lock it).
    ///   - soundServer: the sound server to run: PulseAudio, or PipeWire with WirePlumber and
    ///     pipewire-pulse.
    public init(label: String = "session", baseEnvironment: [String: String] = ProcessInfo.processInfo.environment,
                notificationServer kind: NotificationServerKind = .dunst, activatable: [String: String] = [:],
                gnomeShellRelease: GnomeShellRelease = .system, gnomeShellExtensions: [URL] = [],
                swayRelease: SwayRelease = .system, soundServer soundKind: SoundServerKind = .pulseAudio) throws {
        let started = ContinuousClock.now
        OrphanReaper.reapAbandonedSessions()
        let layout = try SessionLayout.create(label: label)
        OrphanReaper.claim(layout)
        let registry = ProcessRegistry(layout: layout)
        let launcher = ChildLauncher(layout: layout, registry: registry)
        let keep = ProcessInfo.processInfo.environment["TOCSIN_KEEP_SESSION_DIR"] != nil
        // Marked before anything can fail, so the logs of a session that failed to start survive too.
        if keep { _ = FileManager.default.createFile(atPath: layout.keepMarker.path, contents: nil) }

        var environment = SessionEnvironment.base(layout: layout, inherited: baseEnvironment)
        if kind == .gnomeShell { environment.merge(GnomeShell.sessionVariables) { $1 } }
        do {
            let bus = try BusDaemon.start(launcher: launcher, environment: environment, sharedWithOtherUsers: kind == .mako || kind == .plasma,
                                          activatable: activatable.merging(kind == .gnomeShell ? GnomeShell.activatable : [:]) { mine, _ in mine })
            environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
            let monitor = try BusMonitor.start(launcher: launcher, environment: environment)
            // Plasma and trixie's sway run as the desktop user, on this X server.
            let xServer = try XServer.start(launcher: launcher, environment: environment,
                                            openToOtherUsers: kind == .plasma || (kind == .mako && swayRelease == .trixie))
            environment["DISPLAY"] = xServer.display
            let sound = try SoundServer.start(soundKind, launcher: launcher, environment: environment)
            self.soundControl = SoundServerControl(running: sound, launcher: launcher, environment: environment)
            environment["PULSE_SERVER"] = sound.serverAddress
            let notificationServer = try NotificationServer.start(kind, launcher: launcher, environment: environment,
                                                                  gnomeShellExtensions: gnomeShellExtensions, gnomeShellRelease: gnomeShellRelease,
                                                                  swayRelease: swayRelease)

            if notificationServer.gnomeShellScreen != nil {
                // A Wayland session, as GNOME 50's is: its programs see the shell's display, not Xvfb's.
                environment.merge(GnomeShellScreen.waylandEnvironment) { $1 }
                environment["DISPLAY"] = nil
            }
            self.gnomeShellScreen = notificationServer.gnomeShellScreen
            self.monitor = monitor
            self.clicker = notificationServer.picker.map {
                ActionClicker(picker: $0, launcher: launcher, environment: environment, monitor: monitor)
            }
            self.display = xServer.display
            self.waylandEnvironment = notificationServer.wayland
            self.busAddress = bus.address
            self.soundServerAddress = sound.serverAddress
        } catch {
            registry.terminateAll()
            if !keep { try? FileManager.default.removeItem(at: layout.root) }
            throw error
        }
        self.label = label
        self.notificationServer = kind
        self.swayRelease = swayRelease
        self.soundServer = soundKind
        self.layout = layout
        self.directory = layout.root
        self.registry = registry
        self.launcher = launcher
        self.environment = environment
        self.keepDirectoryStorage = keep
        self.startupDuration = ContinuousClock.now - started
    }

    deinit {
        stop()
        if !keepsDirectory { try? FileManager.default.removeItem(at: layout.root) }
    }

    /// Whether `directory` survives the session (for reading logs after a failure). Defaults to
    /// true when the TOCSIN_KEEP_SESSION_DIR environment variable is set; otherwise the directory
    /// is removed when the session is deallocated (not at `stop()`, so logs stay readable).
    public var keepsDirectory: Bool {
        get {
            lock.lock()
            defer { lock.unlock() }
            return keepDirectoryStorage
        }
        set {
            lock.lock()
            keepDirectoryStorage = newValue
            lock.unlock()
            if newValue {
                _ = FileManager.default.createFile(atPath: layout.keepMarker.path, contents: nil)
            } else {
                try? FileManager.default.removeItem(at: layout.keepMarker)
            }
        }
    }

    /// Ends every process of the session — its own servers and everything started with
    /// `launch`/`run` — by saved PID: SIGTERM, then SIGKILL after 2 s. Safe to call repeatedly.
    public func stop() {
        lock.lock()
        let alreadyStopped = stopped
        stopped = true
        lock.unlock()
        guard !alreadyStopped else { return }
        registry.terminateAll()
    }

    /// Whether `stop()` has been called.
    public var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    /// Every process the session started (its servers, helpers and launched programs), running or not.
    public var childProcesses: [SessionProcess] { registry.all }

    /// The session's servers and helpers that are still running.
    public var runningChildProcesses: [SessionProcess] { registry.running }

    /// The full path of a program found in PATH, e.g. `try HeadlessSession.executable("notify-send")`.
    public static func executable(_ name: String) throws -> URL {
        try ExecutableLocator.find(name)
    }

    /// Throws `sessionStopped` once the session is stopped.
    func ensureRunning() throws {
        if isStopped { throw HeadlessSessionError.sessionStopped }
    }

    /// A new number for a recording's file name.
    func nextRecordingIndex() -> Int {
        lock.lock()
        defer { lock.unlock() }
        recordingCount += 1
        return recordingCount
    }
}
