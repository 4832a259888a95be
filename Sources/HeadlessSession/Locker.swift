/// The screen lockers a session can lock its screen with (`HeadlessSession.lockScreen(with:)`),
/// each started the way it was brought up locked on this machine (Debian 12, headless): the
/// real locker, locked for real, its screen read from screenshots.
public enum Locker: String, Sendable, CaseIterable {
    /// KDE Plasma 5.27's locker (kscreenlocker, `libkscreenlocker5`): `ksmserver` alone, without
    /// KWin, locked with `org.freedesktop.ScreenSaver.Lock` on `/ScreenSaver`; its greeter
    /// (`kscreenlocker_greet`) draws the clock, and after a pointer move or a key press the
    /// password field and the media row. It runs as the session's own user, the agent's: the
    /// greeter's media buttons are then a program of the agent's user, whose controls it obeys.
    case plasma
    /// xscreensaver 6.06 in its `blank` mode, as an ordinary user (it refuses to lock as root),
    /// locked with `xscreensaver-command -lock`: a black screen until something wakes it, then
    /// its password dialog.
    case xscreensaver
    /// i3lock 2.14 (`i3lock -n`): a flat white window that grabs the keyboard and the pointer.
    case i3lock
    /// swaylock 1.7 in the session's own sway (sessions with `.mako` only): a flat colour over
    /// the whole output; sway then draws nothing else, mako's notifications included.
    case swaylock
    /// gtklock 4 with its playerctl module (`gtklock-playerctl-module`), from the trixie tree, in
    /// the session's sway 1.10 (sessions with `.mako` and `swayRelease: .trixie` only): its clock,
    /// password field and, above them, the module's media row (title, artist, previous,
    /// play/pause and next) for the MPRIS player it follows. It runs as the session's own user,
    /// the agent's, as a person's gtklock runs as the person: the row's buttons are then a
    /// program of the agent's user, whose controls it obeys.
    case gtklock
}
