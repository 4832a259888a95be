import Foundation
import HeadlessSession

/// A bubblewrap sandbox built the way Flatpak builds one, for tests of what a sandboxed app can
/// make the agent do: its own root (a tmpfs) with the host's /usr read-only, its own /tmp, a
/// `/.flatpak-info` naming the app (read-only, as Flatpak mounts it), the app's own files at
/// `/var/data` (a directory of the test's, like Flatpak's `~/.var/app/ID`), and the session bus
/// socket at `/run/flatpak/bus`. Nothing else of the host — the test's directories, the
/// user's home — can be seen from inside.
public struct FlatpakLikeSandbox {
    /// Where the app's own files are seen inside the sandbox.
    public static let appFilesInside = "/var/data"
    /// Where the bus socket is seen inside.
    public static let busSocketInside = "/run/flatpak/bus"

    /// The Flatpak id the sandbox's `/.flatpak-info` names; `nil` for a sandbox without one
    /// (bubblewrap used by something other than Flatpak).
    public let appID: String?
    /// The test's directory for the sandbox: `flatpak-info` and `app-files` live in it.
    public let directory: URL
    /// The host directory seen inside at `appFilesInside`.
    public var appFiles: URL { directory.appendingPathComponent("app-files") }

    /// Makes the sandbox's files in `directory` (created if needed).
    public init(appID: String?, directory: URL) throws {
        self.appID = appID
        self.directory = directory
        try FileManager.default.createDirectory(at: appFiles, withIntermediateDirectories: true)
        if let appID {
            // What Flatpak writes, in the parts that identify the app.
            let info = "[Application]\nname=\(appID)\nruntime=runtime/org.freedesktop.Platform/x86_64/23.08\n\n[Instance]\ninstance-id=1234567890\n"
            try info.write(to: directory.appendingPathComponent("flatpak-info"), atomically: true, encoding: .utf8)
        }
    }

    /// The bubblewrap arguments that run `command` in the sandbox, talking to the bus whose socket
    /// is at `busSocket` on the host. `readOnly` host paths are seen at the same path inside (the
    /// program to run and its libraries). `sharingProcessIDs` keeps the host's pid namespace, so
    /// the program can tell its pid as the host sees it; Flatpak (the default) gives it its own.
    public func bwrapArguments(running command: [String], busSocket: String? = nil, readOnly: [String] = [], sharingProcessIDs: Bool = false) -> [String] {
        var arguments = [
            "--die-with-parent", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
            "--ro-bind", "/usr", "/usr", "--symlink", "usr/lib", "/lib", "--symlink", "usr/lib64", "/lib64",
            "--symlink", "usr/bin", "/bin", "--symlink", "usr/sbin", "/sbin",
            "--ro-bind", "/etc", "/etc",
            "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--tmpfs", "/run",
            "--bind", appFiles.path, Self.appFilesInside,
            "--setenv", "HOME", Self.appFilesInside, "--chdir", Self.appFilesInside,
        ]
        if !sharingProcessIDs { arguments.append("--unshare-pid") }
        if appID != nil {
            arguments += ["--ro-bind", directory.appendingPathComponent("flatpak-info").path, "/.flatpak-info"]
        }
        if let busSocket {
            arguments += ["--bind", busSocket, Self.busSocketInside,
                          "--setenv", "DBUS_SESSION_BUS_ADDRESS", "unix:path=\(Self.busSocketInside)"]
        } else {
            arguments += ["--unsetenv", "DBUS_SESSION_BUS_ADDRESS"]
        }
        for path in readOnly { arguments += ["--ro-bind", path, path] }
        return arguments + ["--"] + command
    }

    /// The directories outside /usr holding the shared libraries `executable` loads (the Swift
    /// runtime of a debug build), which it needs to see inside the sandbox too; from `ldd`.
    public static func libraryDirectories(of executable: URL) -> [String] {
        guard let (_, text) = try? SpawnedProcess.output(of: URL(fileURLWithPath: "/usr/bin/ldd"), [executable.path]) else { return [] }
        var directories: [String] = []
        for line in text.split(separator: "\n") {
            guard let match = line.firstMatch(of: /=> (\/\S+)/) else { continue }
            let directory = URL(fileURLWithPath: String(match.1)).deletingLastPathComponent().path
            if !directory.hasPrefix("/usr/") && !directory.hasPrefix("/lib") && !directories.contains(directory) {
                directories.append(directory)
            }
        }
        return directories
    }

    /// The bubblewrap executable.
    public static let bwrap = URL(fileURLWithPath: "/usr/bin/bwrap")
}
