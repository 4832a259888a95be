/// Which sway a session with mako runs (`HeadlessSession(notificationServer: .mako, swayRelease:)`).
public enum SwayRelease: String, Sendable, CaseIterable {
    /// The system's: sway 1.7 on Debian 12, on wlroots' headless backend (no pointer, no
    /// keyboard: nothing in it can be clicked). It has no ext-session-lock-v1; swaylock 1.7 locks
    /// it with the older input inhibitor.
    case system
    /// Debian 13's sway 1.10 from the trixie tree (`DebianTree.trixie`), which has ext-session-lock-v1,
    /// as gtklock 4 needs. It runs on the session's X display through wlroots' X11 backend: its
    /// output is an X window the size of the screen, and the pointer and keys of the X display
    /// (xdotool's) are its seat's, so what it shows is clicked as on X.
    case trixie
}
