import FoundationEssentials

/// What `tocsin doctor` says of the locked screen: what a ringing alarm shows there, and how it
/// can be stopped without unlocking, for the locker the session runs. Each line says what the
/// lock-screen tests found for that locker (Tests/IntegrationTests, the locked-screen suites).
public enum LockScreenReadiness {
    /// The screen locker of the session.
    public enum Locker: Equatable, Sendable {
        /// GNOME Shell's own lock screen (`org.gnome.ScreenSaver`), of major version `major` when known.
        case gnomeShell(major: Int?)
        /// Plasma's kscreenlocker (`ksmserver`).
        case plasma
        /// xfce4-screensaver.
        case xfce4Screensaver
        /// xscreensaver.
        case xscreensaver
        /// i3lock (X11), or i3lock-color.
        case i3lock
        /// swaylock, or another ext-session-lock locker on Wayland (waylock, hyprlock), named `name`.
        case waylandSessionLock(name: String)
        /// gtklock, whose playerctl module shows a media player's row while locked.
        case gtklock
        /// light-locker: LightDM's greeter on another virtual terminal.
        case lightLocker
        /// None found running or answering on the bus.
        case none
    }

    /// What the session offers beside the locker.
    public struct Situation: Equatable, Sendable {
        public var locker: Locker
        /// Whether Tocsin's GNOME Shell extension runs (it draws on GNOME's lock screen).
        public var gnomeExtension: Bool
        /// Whether titles show on the lock screen (`tocsin config lock-screen-titles`).
        public var titlesShown: Bool

        public init(locker: Locker, gnomeExtension: Bool, titlesShown: Bool) {
            self.locker = locker
            self.gnomeExtension = gnomeExtension
            self.titlesShown = titlesShown
        }
    }

    /// The report for `situation`.
    public static func report(_ situation: Situation) -> ReadinessReport {
        let title = situation.titlesShown ? "its title" : "“Alarm” (titles hidden)"
        switch situation.locker {
        case .gnomeShell(let major) where situation.gnomeExtension:
            return ReadinessReport(.ok, "GNOME Shell\(major.map { " \($0)" } ?? "")'s lock screen shows a ringing alarm with \(title), its time, Stop and Snooze (Tocsin's extension), and Tocsin keeps the display lit while it rings, even in do-not-disturb; the media key stops it too")
        case .gnomeShell(let major):
            // 49 and later draw every media player on the lock screen (tested on 50); 43 to 48 none.
            let shows = (major ?? 0) >= 49 ? "a ringing alarm in its media controls, with \(title): play/pause stops it (and a row with \(title) but no buttons)"
                : "a row with \(title) but no buttons"
            // Tocsin's extension declares 43 to 49 (scripts/gnome-shell-extension): on 50 and later
            // enabling it does nothing yet.
            let fix = (major ?? 0) >= 50
                ? "Tocsin's GNOME Shell extension does not support GNOME Shell \(major ?? 50) yet: stop it with the media controls, the media key or a phone's media remote."
                : "gnome-extensions enable tocsin@tocsin.github.io: Stop and Snooze on the lock screen, and a display kept lit while it rings."
            return ReadinessReport(.warning, "GNOME Shell\(major.map { " \($0)" } ?? "")'s lock screen shows \(shows); the display is lit for 15 s only, and not at all in do-not-disturb; the media key (play/pause) stops it",
                                   fix: fix)
        case .plasma:
            return ReadinessReport(.ok, "Plasma's lock screen shows a ringing alarm in its media row, with \(title) (move the mouse or press a key): play/pause stops it, next snoozes it, and so do the keyboard's media keys; between rings the row shows the next alarm and when it rings")
        case .xfce4Screensaver:
            return ReadinessReport(.warning, "xfce4-screensaver shows nothing of an alarm while locked; Tocsin wakes the display, and the media keys stop it where a daemon outside the locker takes them",
                                   fix: "Stop it after unlocking, with a phone's media remote (KDE Connect, GSConnect), or bind “playerctl -p tocsin play-pause” to a key your desktop passes through while locked.")
        case .xscreensaver:
            return ReadinessReport(.warning, "xscreensaver shows no controls while locked: Tocsin wakes the display and keeps it lit while the alarm rings (its password dialog), the alert may show above it but cannot be clicked, and the alarm is stopped after unlocking",
                                   fix: "Or stop it from a phone's media remote (KDE Connect, GSConnect): Tocsin is a media player while it rings.")
        case .i3lock:
            return ReadinessReport(.warning, "i3lock shows no notification and takes every key while locked: a ringing alarm is stopped after unlocking",
                                   fix: "Or stop it from a phone's media remote (KDE Connect, GSConnect): Tocsin is a media player while it rings (playerctl -p tocsin play-pause).")
        case .gtklock:
            // GtklockTests (the player says its metadata again after it appears, which the module
            // needs to fill the row it made at the lock). Whether the module is loaded cannot be
            // told from here (gtklock's configuration may load it): the fix says what without it.
            return ReadinessReport(.ok, "gtklock's media controls (its playerctl module) show a ringing alarm with \(title): play/pause stops it, next snoozes it",
                                   fix: "Without the module (gtklock -m playerctl-module) gtklock shows nothing of it: bindsym --locked XF86AudioPlay exec playerctl -p tocsin play-pause stops it on the locked screen (XF86AudioNext with next snoozes it).")
        case .waylandSessionLock(let name):
            return ReadinessReport(.warning, "\(name) shows no notification while locked; Tocsin's media player still answers playerctl",
                                   fix: "On sway: bindsym --locked XF86AudioPlay exec playerctl -p tocsin play-pause stops a ringing alarm on the locked screen; a phone's media remote (KDE Connect, GSConnect) does too.")
        case .lightLocker:
            return ReadinessReport(.warning, "light-locker switches to the login screen, which shows nothing of the session: a ringing alarm is stopped after unlocking",
                                   fix: "Or stop it from a phone's media remote (KDE Connect, GSConnect): Tocsin is a media player while it rings.")
        case .none:
            return ReadinessReport(.ok, "no screen locker is running now; when one locks, Tocsin wakes the display for a ringing alarm and is a media player that lock screens with media controls (Plasma, GNOME 49 and later) can stop")
        }
    }

    /// A process of the session that locks, or starts a locker when idle: its name (`comm`) and
    /// its command line's words.
    public struct SessionProcess: Equatable, Sendable {
        public var name: String
        public var arguments: [String]

        public init(name: String, arguments: [String] = []) {
            self.name = name
            self.arguments = arguments
        }
    }

    /// The session's locker, from the well-known names owned on its bus (`busNames`), GNOME
    /// Shell's major version, and the processes of the session (`processes`): a desktop's own
    /// lock screen first (its name is there whether locked or not), then a locker running, then
    /// the one an idle manager (swayidle, xss-lock, xautolock, xidlehook) would start.
    public static func locker(busNames: Set<String>, gnomeShellMajor: Int?, processes: [SessionProcess]) -> Locker {
        if busNames.contains("org.gnome.ScreenSaver") { return .gnomeShell(major: gnomeShellMajor) }
        if busNames.contains("org.kde.screensaver") || processes.contains(where: { $0.name == "kscreenlocker_g" || $0.name == "ksmserver" }) {
            return .plasma
        }
        if busNames.contains("org.xfce.ScreenSaver") { return .xfce4Screensaver }
        if let locker = processes.lazy.compactMap({ lockerNamed($0.name) }).first { return locker }
        let idleManagers: Set<String> = ["swayidle", "xss-lock", "xautolock", "xidlehook", "hypridle"]
        for process in processes where idleManagers.contains(process.name) {
            let words = process.arguments.flatMap { $0.split(whereSeparator: { $0 == " " || $0 == "/" || $0 == "'" || $0 == "\"" }) }
            if let locker = words.lazy.compactMap({ lockerNamed(String($0)) }).first { return locker }
        }
        return .none
    }

    /// The locker a program of that name is (a process's `comm`, cut to 15 characters by the kernel).
    private static func lockerNamed(_ name: String) -> Locker? {
        switch name {
        case "xscreensaver": .xscreensaver
        case "xfce4-screensav", "xfce4-screensaver": .xfce4Screensaver
        case "i3lock", "i3lock-color": .i3lock
        case "gtklock": .gtklock
        case "swaylock", "waylock", "hyprlock": .waylandSessionLock(name: name)
        case "light-locker": .lightLocker
        default: nil
        }
    }
}
