import Foundation

/// Builds the environment every child of the session gets: the test's own environment, pointed at
/// the private session and stripped of anything that would reach the user's real desktop.
enum SessionEnvironment {
    /// Variables that would make a child talk to another display server, bus, sound server or
    /// desktop than the session's own.
    static let removedVariables: Set<String> = [
        "WAYLAND_DISPLAY", "WAYLAND_SOCKET", "XAUTHORITY", "XDG_SESSION_TYPE", "XDG_SESSION_DESKTOP",
        "XDG_CURRENT_DESKTOP", "DESKTOP_SESSION", "SESSION_MANAGER", "XDG_SESSION_ID", "XDG_SEAT",
        "XDG_VTNR", "DBUS_STARTER_ADDRESS", "DBUS_STARTER_BUS_TYPE", "PULSE_SINK", "PULSE_SOURCE",
        "PULSE_COOKIE", "PULSE_RUNTIME_PATH", "PULSE_STATE_PATH", "PULSE_CONFIG_PATH", "GNOME_DESKTOP_SESSION_ID",
        "KDE_FULL_SESSION", "SWAYSOCK", "I3SOCK", "HYPRLAND_INSTANCE_SIGNATURE", "NOTIFY_SOCKET",
        "DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "PULSE_SERVER",
        // PipeWire clients (and a session's own pipewire) would reach the desktop's PipeWire.
        "PIPEWIRE_RUNTIME_DIR", "PIPEWIRE_REMOTE",
    ]

    /// The environment before the bus, display and sound addresses are known.
    static func base(layout: SessionLayout, inherited: [String: String]) -> [String: String] {
        var environment = inherited.filter { !removedVariables.contains($0.key) }
        environment["HOME"] = layout.home.path
        environment["XDG_RUNTIME_DIR"] = layout.runtime.path
        environment["XDG_CONFIG_HOME"] = layout.config.path
        environment["XDG_STATE_HOME"] = layout.state.path
        environment["XDG_DATA_HOME"] = layout.data.path
        environment["XDG_CACHE_HOME"] = layout.cache.path
        // GTK programs would otherwise look for the accessibility bus, and GLib programs for dconf;
        // this bus activates no services, so both would only produce warnings.
        environment["NO_AT_BRIDGE"] = "1"
        environment["GSETTINGS_BACKEND"] = "memory"
        environment["XDG_SESSION_TYPE"] = "x11"
        return environment
    }
}
