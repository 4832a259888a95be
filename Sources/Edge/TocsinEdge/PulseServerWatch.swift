import CGLib
import FoundationEssentials
import Glibc
import GLibSupport

/// Where libpulse looks for a sound server, as far as a file can stand for it: the Unix sockets
/// it tries, in its order (PULSE_SERVER; else `default-server` in client.conf; else the user's
/// `$XDG_RUNTIME_DIR/pulse/native`, which pipewire-pulse serves too, then the system-wide
/// `/var/run/pulse/native`), and whether it also tries a server no file stands for (`tcp:`, a
/// host name), which only trying again finds.
///
/// Not read: the `PULSE_SERVER` property an X server's root window may carry
/// (`module-x11-publish`); it names the same local socket on the desktops that set it.
public struct PulseServerAddress: Sendable, Equatable {
    /// The sockets' paths, in the order libpulse tries them.
    public let sockets: [String]
    /// Whether a server on the list is not a Unix socket.
    public let hasUnwatchable: Bool

    /// The sockets and the rest, as given.
    public init(sockets: [String], hasUnwatchable: Bool) {
        self.sockets = sockets
        self.hasUnwatchable = hasUnwatchable
    }

    /// Where libpulse, started with `environment`, looks (client.conf read as it reads it).
    public static func current(environment: [String: String]) -> PulseServerAddress {
        if let list = environment["PULSE_SERVER"], !trimmed(list).isEmpty {
            return parse(serverList: list)
        }
        if let list = defaultServer(inClientConfFor: environment) {
            return parse(serverList: list)
        }
        var sockets: [String] = []
        if let runtime = nonEmpty(environment["PULSE_RUNTIME_PATH"]) ?? nonEmpty(environment["XDG_RUNTIME_DIR"]).map({ "\($0)/pulse" }) {
            sockets.append("\(runtime)/native")
        }
        sockets.append("/var/run/pulse/native")
        return PulseServerAddress(sockets: sockets, hasUnwatchable: false)
    }

    /// A server list as libpulse reads one (entries apart by white space, each `unix:PATH`, an
    /// absolute path, `tcp:HOST`, `tcp4:`, `tcp6:` or a host name, maybe after `{machine id}`).
    public static func parse(serverList: String) -> PulseServerAddress {
        var sockets: [String] = []
        var unwatchable = false
        for entry in serverList.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).prefix(16) {
            var server = Substring(entry)
            if server.hasPrefix("{"), let close = server.firstIndex(of: "}") { server = server[server.index(after: close)...] }
            if server.hasPrefix("unix:") { server = server.dropFirst(5) }
            if server.hasPrefix("/") {
                sockets.append(String(server))
            } else if !server.isEmpty {
                unwatchable = true
            }
        }
        return PulseServerAddress(sockets: sockets, hasUnwatchable: unwatchable)
    }

    /// The `default-server` of the client.conf libpulse reads: `$PULSE_CLIENTCONFIG`, else the
    /// first of `~/.pulse/client.conf`, `$XDG_CONFIG_HOME/pulse/client.conf` and
    /// `/etc/pulse/client.conf` that exists, then the `.conf` files of its `.d` directory, the
    /// last setting winning.
    static func defaultServer(inClientConfFor environment: [String: String]) -> String? {
        let home = nonEmpty(environment["HOME"])
        let configHome = nonEmpty(environment["XDG_CONFIG_HOME"]) ?? home.map { "\($0)/.config" }
        let candidates = [nonEmpty(environment["PULSE_CLIENTCONFIG"]), home.map { "\($0)/.pulse/client.conf" },
                          configHome.map { "\($0)/pulse/client.conf" }, "/etc/pulse/client.conf"].compactMap { $0 }
        guard let file = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) else { return nil }
        var server = readConf(file).flatMap(defaultServer(inConf:))
        let drop = (try? FileManager.default.contentsOfDirectory(atPath: file + ".d")) ?? []
        for name in drop.filter({ $0.hasSuffix(".conf") }).sorted().prefix(64) {
            if let value = readConf("\(file).d/\(name)").flatMap(defaultServer(inConf:)) { server = value }
        }
        return server.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The last `default-server = …` of a client.conf's text.
    static func defaultServer(inConf text: String) -> String? {
        var server: String?
        for line in text.split(separator: "\n") {
            let content = line.prefix { $0 != "#" && $0 != ";" }
            guard let equals = content.firstIndex(of: "=") else { continue }
            guard trimmed(content[..<equals]) == "default-server" else { continue }
            server = trimmed(content[content.index(after: equals)...])
        }
        return server
    }

    /// A configuration file's text, if it is one (64 kB at most: client.conf is a page).
    private static func readConf(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: path), data.count <= 65_536 else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// `text` without the spaces and tabs around it.
    private static func trimmed(_ text: some StringProtocol) -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
        return String(text.drop(while: isBlank).reversed().drop(while: isBlank).reversed())
    }

    private static func nonEmpty(_ text: String?) -> String? {
        text.flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// Says when a sound server may have come, without polling: each socket path is watched with
/// a GFileMonitor (inotify) on its directory, and when that directory does not exist yet, on
/// the deepest one of its parents that does, moving down as they appear. GLib itself would poll
/// a missing directory every 4 seconds, which would wake an idle agent 15 times a minute.
///
/// `onAppeared` is called when a socket is created there (or changed, or moved in), and when a
/// directory on the way appears with the socket already in it; a server that starts makes its
/// socket anew, so a stale one left by a crash is no news until then. Lives on the thread-default
/// main context it is started on.
public final class PulseServerWatch {
    /// Called when one of the sockets may now have a server behind it.
    public var onAppeared: () -> Void = {}
    private let paths: [String]
    private var watches: [PathWatch] = []

    /// A watch over `sockets` (absolute paths), not yet started.
    public init(sockets: [String]) {
        paths = sockets.filter { $0.hasPrefix("/") }
    }

    deinit { stop() }

    /// Whether it watches.
    public var isWatching: Bool { !watches.isEmpty }

    /// Whether any of the sockets can be watched (there are absolute paths).
    public var canWatch: Bool { !paths.isEmpty }

    /// Starts watching (no change if it does).
    public func start() {
        guard watches.isEmpty else { return }
        watches = paths.map { path in
            let watch = PathWatch(target: path)
            watch.onAppeared = { [weak self] in self?.onAppeared() }
            watch.arm(sayingWhatIsThere: false)
            return watch
        }
    }

    /// Stops watching: no monitor is left.
    public func stop() {
        watches.forEach { $0.cancel() }
        watches = []
    }

    /// Whether a file is at one of the paths now (a socket, or what stands there).
    public var anySocketExists: Bool {
        paths.contains { path in
            var status = stat()
            return lstat(path, &status) == 0
        }
    }

    /// The directory monitored for one path: its own, or its deepest existing parent.
    public var watchedDirectories: [String] { watches.compactMap(\.watchedDirectory) }
}

/// One socket path's monitor.
private final class PathWatch {
    let target: String
    var onAppeared: () -> Void = {}
    private(set) var watchedDirectory: String?
    private var monitor: UnsafeMutablePointer<GFileMonitor>?
    private var handler: gulong = 0

    init(target: String) {
        // As GLib names the files it reports: "//" and a trailing "/" folded.
        let file = g_file_new_for_path(target)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        self.target = PathWatch.path(file) ?? target
    }

    deinit { cancel() }

    /// Monitors the deepest existing directory on the way to `target` (no change when it
    /// already does); says `onAppeared` if the socket is there once its own directory is and
    /// `sayingWhatIsThere` (at the start, what is there is no news: the caller just tried it).
    func arm(sayingWhatIsThere: Bool = true) {
        let directory = Self.deepestExistingDirectory(toward: target)
        guard directory != watchedDirectory else { return }
        cancel()
        let file = g_file_new_for_path(directory)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        guard let monitor = try? GLibError.check({ g_file_monitor_directory(file, G_FILE_MONITOR_WATCH_MOVES, nil, $0) }) else { return }
        let changed: @convention(c) (UnsafeMutablePointer<GFileMonitor>?, OpaquePointer?, OpaquePointer?, GFileMonitorEvent, gpointer?) -> Void = { monitor, file, otherFile, event, userData in
            guard let userData else { return }
            Unmanaged<PathWatch>.fromOpaque(userData).takeUnretainedValue().changed(monitor, file, otherFile, event)
        }
        handler = g_signal_connect_data(monitor, "changed", unsafeBitCast(changed, to: GCallback.self),
                                        Unmanaged.passUnretained(self).toOpaque(), nil, GConnectFlags(0))
        self.monitor = monitor
        watchedDirectory = directory
        if sayingWhatIsThere, directory == Self.parent(of: target), Self.exists(target) { onAppeared() }
    }

    func cancel() {
        guard let monitor else { return }
        g_signal_handler_disconnect(UnsafeMutableRawPointer(monitor), handler)
        g_file_monitor_cancel(monitor)
        g_object_unref(UnsafeMutableRawPointer(monitor))
        self.monitor = nil
        watchedDirectory = nil
    }

    private func changed(_ from: UnsafeMutablePointer<GFileMonitor>?, _ file: OpaquePointer?, _ otherFile: OpaquePointer?, _ event: GFileMonitorEvent) {
        guard from == monitor, let watchedDirectory else { return }
        let paths = [file, otherFile].compactMap(Self.path)
        // The watched directory itself went: watch further up, before GLib starts polling it.
        if paths.contains(watchedDirectory) {
            return arm()
        }
        let next = Self.nextComponent(from: watchedDirectory, toward: target)
        guard paths.contains(next) else { return }
        if next == target {
            if event != G_FILE_MONITOR_EVENT_DELETED && event != G_FILE_MONITOR_EVENT_MOVED_OUT && Self.exists(target) { onAppeared() }
        } else {
            // A directory on the way appeared (or went): move the monitor down (or up).
            arm()
        }
    }

    static func deepestExistingDirectory(toward target: String) -> String {
        var directory = parent(of: target)
        while directory != "/" && !isDirectory(directory) { directory = parent(of: directory) }
        return directory
    }

    /// The path one component below `directory` on the way to `target`.
    static func nextComponent(from directory: String, toward target: String) -> String {
        let rest = target.dropFirst(directory == "/" ? 1 : directory.count + 1)
        let component = rest.prefix { $0 != "/" }
        return (directory == "/" ? "" : directory) + "/" + component
    }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    private static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    private static func path(_ file: OpaquePointer?) -> String? {
        guard let file, let path = g_file_get_path(file) else { return nil }
        defer { g_free(path) }
        return String(cString: path)
    }
}
