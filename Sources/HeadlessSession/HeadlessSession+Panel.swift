import Foundation

extension HeadlessSession {
    /// Starts waybar, the bar of sway desktops, on the session's sway output (a mako session),
    /// with `configuration` (waybar's JSON) and `style` (its CSS). Its programs (a custom
    /// module's `exec`) run as the desktop user, which the agent does not serve (it serves its own
    /// user only): a module reads what a program of the session's user writes to a file anyone
    /// may read. Throws for a session without sway.
    public func startWaybar(configuration: String, style: String) throws -> SessionProcess {
        try ensureRunning()
        guard let waylandEnvironment else {
            throw HeadlessSessionError.componentFailed(component: "waybar", reason: "it needs sway: start the session with notificationServer: .mako",
                                                       stderrTail: "")
        }
        return try SwayMako.launchWaybar(configuration: configuration, style: style, launcher: launcher, environment: environment,
                                         wayland: waylandEnvironment)
    }

    /// Starts xfce4-panel (an xfce4-notifyd session, whose xfconfd holds the panel's settings):
    /// one panel along the bottom of the screen, `size` pixels high, holding only the
    /// notification area ("systray"), which in 4.18 is also the session's StatusNotifierWatcher
    /// and draws the items registered with it. Throws for a session without xfconfd.
    public func startXfcePanel(size: Int = 32) throws -> SessionProcess {
        try ensureRunning()
        guard notificationServer == .xfce4Notifyd else {
            throw HeadlessSessionError.componentFailed(component: "xfce4-panel", reason: "its settings live in xfconfd: start the session with notificationServer: .xfce4Notifyd",
                                                       stderrTail: "")
        }
        return try XfcePanel.start(size: size, launcher: launcher, environment: environment)
    }
}
