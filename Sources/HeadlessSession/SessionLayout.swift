import Foundation

/// Where everything of one session lives. All of it is under one private temporary directory, so
/// sessions never share a HOME, a runtime directory, a socket or a log with each other or with the
/// user's real desktop.
struct SessionLayout: Sendable {
    /// Prefix of every session directory; the orphan reaper looks for it.
    static let directoryPrefix = "tocsin-session-"

    let root: URL

    var home: URL { root.appendingPathComponent("home") }
    /// XDG_RUNTIME_DIR: sockets of the bus and of pulseaudio. Must be mode 0700 (XDG spec).
    var runtime: URL { root.appendingPathComponent("run") }
    var config: URL { root.appendingPathComponent("config") }
    var state: URL { root.appendingPathComponent("state") }
    var data: URL { root.appendingPathComponent("data") }
    var cache: URL { root.appendingPathComponent("cache") }
    /// stdout/stderr of every child, named after the child.
    var logs: URL { root.appendingPathComponent("logs") }
    var recordings: URL { root.appendingPathComponent("recordings") }
    /// Scratch files of the helper commands the session runs itself (deleted after use).
    var tools: URL { root.appendingPathComponent("tools") }
    /// The files the dunst context-menu script and `clickAction` exchange.
    var actionPicker: URL { root.appendingPathComponent("action-picker") }

    /// What a second user of the session reaches (sway and mako run as an unprivileged user,
    /// since sway refuses root): the bus socket and that user's files. Mode 0711, and the root
    /// 0711 too, so that user can reach what it is given by path and list nothing.
    var shared: URL { root.appendingPathComponent("shared") }

    var busConfig: URL { root.appendingPathComponent("dbus-session.conf") }
    var busSocket: URL { runtime.appendingPathComponent("bus") }
    /// The private system bus's socket, for the desktop shells that want one.
    var systemBusSocket: URL { runtime.appendingPathComponent("system-bus") }
    /// pulseaudio's socket; named apart from pulseaudio's own `pulse/` runtime directory so the
    /// two never collide.
    var pulseSocket: URL { runtime.appendingPathComponent("pulse.sock") }
    /// pipewire's own socket, where wireplumber and pipewire-pulse connect.
    var pipeWireSocket: URL { runtime.appendingPathComponent("pipewire-0") }
    /// pipewire-pulse's socket: its default place, where a PipeWire desktop's libpulse clients
    /// find it without PULSE_SERVER.
    var pipeWirePulseSocket: URL { runtime.appendingPathComponent("pulse").appendingPathComponent("native") }
    /// WirePlumber's configuration fragments for the session (read from XDG_CONFIG_HOME).
    var wirePlumberConfig: URL { config.appendingPathComponent("wireplumber") }
    /// Where WirePlumber remembers volumes, mutes and default sinks (under XDG_STATE_HOME).
    var wirePlumberState: URL { state.appendingPathComponent("wireplumber") }
    /// Under XDG_CONFIG_HOME, where dunst itself would look for it.
    var dunstConfig: URL { config.appendingPathComponent("dunst").appendingPathComponent("dunstrc") }

    /// `pid startTicks name` of every child, appended at launch, read by the orphan reaper.
    var processRecord: URL { root.appendingPathComponent("processes") }
    /// `pid startTicks` of the process that owns the session.
    var ownerRecord: URL { root.appendingPathComponent("owner") }
    /// Present when the directory must survive the session (and the reaper) for debugging.
    var keepMarker: URL { root.appendingPathComponent("keep") }

    /// Creates a fresh, uniquely named session directory tree.
    static func create(label: String) throws -> SessionLayout {
        let safeLabel = String(label.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }.prefix(24))
        let unique = UUID().uuidString.prefix(8).lowercased()
        let pid = ProcessInfo.processInfo.processIdentifier
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(directoryPrefix)\(safeLabel)-\(pid)-\(unique)")
        let layout = SessionLayout(root: root)
        do {
            let manager = FileManager.default
            let privateMode: [FileAttributeKey: Any] = [.posixPermissions: 0o700]
            try manager.createDirectory(at: root, withIntermediateDirectories: true, attributes: privateMode)
            for directory in [layout.home, layout.runtime, layout.config, layout.state, layout.data, layout.cache,
                              layout.logs, layout.recordings, layout.tools, layout.actionPicker,
                              layout.dunstConfig.deletingLastPathComponent()] {
                try manager.createDirectory(at: directory, withIntermediateDirectories: true, attributes: privateMode)
            }
            // createDirectory applies the umask; the runtime directory must be exactly 0700.
            try manager.setAttributes(privateMode, ofItemAtPath: layout.runtime.path)
        } catch {
            throw HeadlessSessionError.componentFailed(
                component: "session directory", reason: "cannot create \(root.path): \(error)", stderrTail: "")
        }
        return layout
    }

    /// A log file for a child named `name`; a counter keeps repeated launches apart.
    func logFiles(for name: String, sequence: Int) -> (stdout: URL, stderr: URL) {
        let base = "\(name)-\(sequence)"
        return (logs.appendingPathComponent("\(base).stdout"), logs.appendingPathComponent("\(base).stderr"))
    }
}
