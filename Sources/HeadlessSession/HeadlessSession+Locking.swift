import Foundation

extension HeadlessSession {
    /// Locks the screen as the desktop's own lock does, and returns once the locker says the
    /// screen is locked. GNOME Shell (43 and 48): `org.gnome.ScreenSaver.Lock`, then
    /// `ActiveChanged(true)` and `GetActive` true; the lock screen then fades to black, as it
    /// does after Super+L, until something wakes it. Throws for a desktop that cannot lock here.
    public func lockScreen(timeout: Duration = .seconds(30)) throws {
        try ensureRunning()
        guard notificationServer == .gnomeShell else {
            throw HeadlessSessionError.componentFailed(component: notificationServer.rawValue, reason: "it has no lock of its own here; lock it with lockScreen(with:) and a Locker", stderrTail: "")
        }
        try GnomeLocking.lock(monitor: monitor, launcher: launcher, environment: environment, timeout: timeout)
    }

    /// Whether the screen is locked now, as the locker says: GNOME's `org.gnome.ScreenSaver.GetActive`.
    public var isScreenLocked: Bool {
        get throws {
            try ensureRunning()
            guard notificationServer == .gnomeShell else {
                throw HeadlessSessionError.componentFailed(component: notificationServer.rawValue, reason: "it has no lock of its own here; ask the ScreenLock that lockScreen(with:) returned", stderrTail: "")
            }
            return try GnomeLocking.isActive(launcher: launcher, environment: environment)
        }
    }

    /// Starts GNOME's media-key handler, `gsd-media-keys` (the system's, GNOME 43's: it works
    /// with either shell), which grabs the media keys through the shell — on the lock screen
    /// too — and sends them to the MPRIS player it picks. It runs without systemd and
    /// gnome-session here, with warnings. Returns once it owns
    /// `org.gnome.SettingsDaemon.MediaKeys`.
    @discardableResult
    public func startMediaKeys() throws -> SessionProcess {
        try ensureRunning()
        guard notificationServer == .gnomeShell else {
            throw HeadlessSessionError.componentFailed(component: "gsd-media-keys", reason: "runs only beside GNOME Shell", stderrTail: "")
        }
        let program = URL(fileURLWithPath: "/usr/libexec/gsd-media-keys")
        guard FileManager.default.isExecutableFile(atPath: program.path) else {
            throw HeadlessSessionError.componentFailed(component: "gsd-media-keys", reason: "\(program.path) is not installed (gnome-settings-daemon)", stderrTail: "")
        }
        var own = environment
        // The shell's private system bus, never the machine's (it asks logind and UPower there).
        own["DBUS_SYSTEM_BUS_ADDRESS"] = GnomeLocking.systemBusAddress(layout: layout)
        own["XDG_CURRENT_DESKTOP"] = "GNOME"
        own["XDG_SESSION_TYPE"] = "x11"
        let process = try launcher.launch(name: "gsd-media-keys", executable: program, arguments: [], environment: own)
        try NotificationServer.waitForName("org.gnome.SettingsDaemon.MediaKeys", ownedBy: process, component: "gsd-media-keys",
                                           launcher: launcher, environment: environment, timeout: .seconds(20))
        return process
    }

    /// Every signal named `member` (all of them with `nil`) seen on the session bus so far, in
    /// order: `WakeUpScreen`, the shell's word that it lit a locked screen.
    public func busSignals(named member: String?) -> [BusSignal] {
        BusSignals.read(from: monitor, member: member)
    }
}
