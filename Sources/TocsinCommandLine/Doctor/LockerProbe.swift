import CGLib
import Foundation
import GLibSupport
import TocsinCore
import TocsinFiles

/// What `tocsin doctor` finds out for itself about the locked screen: the names owned on the
/// session bus (a desktop's own lock screen, Tocsin's GNOME Shell extension), GNOME Shell's
/// version, and the lockers and idle managers running on this session's display — read from
/// /proc, since i3lock, swaylock and xscreensaver are on no bus. `LockScreenReadiness` decides
/// what that means.
enum LockerProbe {
    /// The situation of the session `environment` describes, with titles as the user's
    /// lock-screen settings in `settingsDirectory` say (hidden when they cannot be read, as the
    /// agent has it).
    static func situation(environment: [String: String], settingsDirectory: URL) -> LockScreenReadiness.Situation {
        let (names, shellMajor) = busNames()
        let locker = LockScreenReadiness.locker(busNames: names, gnomeShellMajor: shellMajor, processes: sessionProcesses(environment: environment))
        let titles = (try? LockScreenSettingsStore(directory: settingsDirectory).load())?.showsTitles ?? false
        return LockScreenReadiness.Situation(locker: locker, gnomeExtension: names.contains("io.github.tocsin.Panel"), titlesShown: titles)
    }

    /// The well-known names on the session bus, and GNOME Shell's major version if it runs.
    private static func busNames() -> (Set<String>, Int?) {
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, nil) else { return ([], nil) }
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        var names: Set<String> = []
        if let reply = call(connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "ListNames", nil, replyType: "(as)") {
            names = Set(Variant.strings(in: reply, at: 0).filter { !$0.hasPrefix(":") })
            g_variant_unref(reply)
        }
        var major: Int?
        if names.contains("org.gnome.Shell"),
           let reply = call(connection, "org.gnome.Shell", "/org/gnome/Shell", "org.freedesktop.DBus.Properties", "Get",
                            Variant.tuple([g_variant_new_string("org.gnome.Shell"), g_variant_new_string("ShellVersion")]), replyType: "(v)") {
            if case .string(let version) = Variant.boxedValue(in: reply, at: 0) {
                major = version.split(separator: ".").first.flatMap { Int($0) }
            }
            g_variant_unref(reply)
        }
        return (names, major)
    }

    /// A blocking call of at most 2 s: the doctor may wait, the agent never does. The reply, of
    /// `replyType` (the caller unrefs it), or `nil`.
    private static func call(_ connection: OpaquePointer, _ destination: String, _ path: String, _ interface: String, _ method: String,
                             _ arguments: OpaquePointer?, replyType: String) -> OpaquePointer? {
        try? BusCall.waitingForReply(connection, destination: destination, path: path, interface: interface, method: method, arguments: arguments,
                                     replyType: replyType, flags: G_DBUS_CALL_FLAGS_NO_AUTO_START, timeoutMilliseconds: 2000).get()
    }

    /// The processes that lock or start a locker, of this session: on its X display (X lockers)
    /// or its Wayland display (Wayland ones), as their environment says. A process whose
    /// environment cannot be read (another user's) is not this session's.
    private static func sessionProcesses(environment: [String: String]) -> [LockScreenReadiness.SessionProcess] {
        let watched: Set<String> = ["xscreensaver", "xfce4-screensav", "i3lock", "i3lock-color", "swaylock", "gtklock", "waylock", "hyprlock",
                                    "light-locker", "swayidle", "xss-lock", "xautolock", "xidlehook", "hypridle", "ksmserver", "kscreenlocker_g"]
        let display = environment["DISPLAY"].flatMap { $0.isEmpty ? nil : $0 }
        let wayland = environment["WAYLAND_DISPLAY"].flatMap { $0.isEmpty ? nil : $0 }
        guard display != nil || wayland != nil,
              let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        var found: [LockScreenReadiness.SessionProcess] = []
        for pid in entries where pid.allSatisfy(\.isNumber) {
            guard let comm = try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8) else { continue }
            let name = comm.trimmingCharacters(in: .whitespacesAndNewlines)
            guard watched.contains(name), let theirs = processEnvironment(pid) else { continue }
            let sameX = display != nil && theirs["DISPLAY"] == display
            let sameWayland = wayland != nil && theirs["WAYLAND_DISPLAY"] == wayland
                && (environment["XDG_RUNTIME_DIR"] == nil || theirs["XDG_RUNTIME_DIR"] == nil || environment["XDG_RUNTIME_DIR"] == theirs["XDG_RUNTIME_DIR"])
            guard sameX || sameWayland else { continue }
            let arguments = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")))
                .map { $0.split(separator: 0).map { String(decoding: $0, as: UTF8.self) } } ?? []
            found.append(LockScreenReadiness.SessionProcess(name: name, arguments: arguments))
        }
        return found
    }

    private static func processEnvironment(_ pid: String) -> [String: String]? {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/environ")) else { return nil }
        var environment: [String: String] = [:]
        for entry in data.split(separator: 0) {
            let text = String(decoding: entry, as: UTF8.self)
            guard let equals = text.firstIndex(of: "=") else { continue }
            environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        return environment
    }
}
