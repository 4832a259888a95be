import Foundation

/// Finds the desktop tools the session drives, so a missing package is reported by name
/// instead of as an obscure launch failure.
enum ExecutableLocator {
    /// Debian package that provides each tool, for the error message.
    private static let packages: [String: String] = [
        "dbus-daemon": "dbus", "Xvfb": "xvfb", "xdpyinfo": "x11-utils", "dunst": "dunst",
        "dunstctl": "dunst", "pulseaudio": "pulseaudio", "pactl": "pulseaudio-utils",
        "pacat": "pulseaudio-utils", "parec": "pulseaudio-utils", "paplay": "pulseaudio-utils", "busctl": "systemd",
        "pipewire": "pipewire-bin", "wireplumber": "wireplumber", "pipewire-pulse": "pipewire-pulse",
        "import": "imagemagick", "xdotool": "xdotool", "tesseract": "tesseract-ocr",
        "xfconf-query": "xfconf", "xfconfd": "xfconf", "xfce4-notifyd": "xfce4-notifyd",
        "sway": "sway", "mako": "mako-notifier", "makoctl": "mako-notifier", "grim": "grim", "runuser": "util-linux", "useradd": "passwd",
        "gnome-shell": "gnome-shell", "gjs": "gjs", "gsettings": "libglib2.0-bin", "gdbus": "libglib2.0-bin",
        "bwrap": "bubblewrap", "plasmashell": "plasma-desktop", "kded5": "kded5", "kglobalaccel5": "kglobalaccel5", "kactivitymanagerd": "kactivitymanagerd",
    ]

    /// Where Debian keeps programs that are not on PATH (xfconfd, xfce4-notifyd).
    private static let privateDirectories = [
        "/usr/lib/x86_64-linux-gnu/xfce4/xfconf", "/usr/lib/x86_64-linux-gnu/xfce4/notifyd",
        "/usr/lib/aarch64-linux-gnu/xfce4/xfconf", "/usr/lib/aarch64-linux-gnu/xfce4/notifyd",
        "/usr/lib/x86_64-linux-gnu/libexec", "/usr/lib/aarch64-linux-gnu/libexec",
    ]

    /// The full path of `name` found in `PATH` (or the usual system directories).
    static func find(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        let searchPath = (environment["PATH"] ?? "") + ":/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin:"
            + privateDirectories.joined(separator: ":")
        for directory in searchPath.split(separator: ":") where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        let package = packages[name].map { " (apt-get install \($0))" } ?? ""
        throw HeadlessSessionError.componentFailed(
            component: name, reason: "executable not found in PATH\(package)", stderrTail: "")
    }
}
