import Foundation

/// A newer Debian beside the system, in the directory `scripts/install-gnome-shell-tree SUITE`
/// fills: trixie's (GNOME Shell 48, gtklock 4 and the sway 1.10 it locks) and testing's (GNOME
/// Shell 50), none of which Debian 12 has. Its programs run with bubblewrap, its directory as
/// `/`, the machine's /dev, /proc, /sys and /tmp (the sessions, their buses, the X server's and
/// the compositors' sockets) shared, so they join the session as the system's own programs do.
struct DebianTree: Sendable {
    /// The suite, as the install script names it ("trixie", "forky").
    let suite: String
    /// Where the tree is.
    let root: URL

    /// Debian 13's (`GnomeShellRelease.trixieRoot`).
    static let trixie = DebianTree(suite: "trixie", root: GnomeShellRelease.trixieRoot)
    /// Debian testing's (`GnomeShellRelease.forkyRoot`).
    static let forky = DebianTree(suite: "forky", root: GnomeShellRelease.forkyRoot)

    /// Throws naming `component` unless the tree has the executable `path` (e.g. "usr/bin/sway").
    func require(_ path: String, component: String) throws {
        guard FileManager.default.isExecutableFile(atPath: root.appendingPathComponent(path).path) else {
            throw HeadlessSessionError.componentFailed(component: component, reason: "not installed in \(root.path) "
                                                       + "(scripts/install-gnome-shell-tree \(suite) installs it)", stderrTail: "")
        }
    }

    /// The executable (bwrap) and arguments that run the tree's `program` with `arguments`.
    func command(_ program: String, _ arguments: [String], environment: [String: String]) throws -> (URL, [String]) {
        (try ExecutableLocator.find("bwrap", environment: environment), bwrapArguments(program, arguments, environment: environment))
    }

    /// bwrap's arguments for the tree's `program` with `arguments`.
    func bwrapArguments(_ program: String, _ arguments: [String], environment: [String: String]) -> [String] {
        var shared = ["/tmp", FileManager.default.temporaryDirectory.path]
        // Data directories of the session's own (Tocsin's icons) seen at the same paths; the
        // system's are the tree's own.
        shared += (environment["XDG_DATA_DIRS"] ?? "").split(separator: ":").map(String.init)
            .filter { !$0.hasPrefix("/usr/") && FileManager.default.fileExists(atPath: $0) }
        var binds = ["--bind", root.path, "/", "--dev-bind", "/dev", "/dev", "--proc", "/proc", "--bind", "/sys", "/sys"]
        // A /run of its own with systemd's seats directory: GNOME 48 and 50 lock only where they find one (`GnomeLocking`).
        binds += ["--tmpfs", "/run", "--dir", "/run/systemd/seats"]
        for path in Set(shared).sorted() { binds += ["--bind", path, path] }
        return binds + ["--", program] + arguments
    }
}
