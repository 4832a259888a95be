import Foundation

/// The session's private D-Bus session bus.
struct BusDaemon {
    let process: SessionProcess
    /// The address for DBUS_SESSION_BUS_ADDRESS, as printed by the daemon (includes its guid).
    let address: String

    /// Starts `dbus-daemon` with a generated configuration and waits until it prints its address,
    /// which it does once it is listening. `sharedWithOtherUsers`: its socket is in the session's
    /// shared directory, and any user may connect (the session's compositor user).
    /// `activatable`: service files the bus may start (GNOME Shell's settings need dconf's);
    /// by default none.
    static func start(launcher: ChildLauncher, environment: [String: String], sharedWithOtherUsers: Bool = false,
                      activatable: [String: String] = [:]) throws -> BusDaemon {
        let layout = launcher.layout
        var serviceDirectory: URL?
        do {
            if !activatable.isEmpty {
                let directory = layout.root.appendingPathComponent("bus-services")
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                for (name, text) in activatable {
                    try text.write(to: directory.appendingPathComponent(name + ".service"), atomically: true, encoding: .utf8)
                }
                serviceDirectory = directory
            }
            var socket = layout.busSocket
            if sharedWithOtherUsers {
                let reachable: [FileAttributeKey: Any] = [.posixPermissions: 0o711]
                try FileManager.default.createDirectory(at: layout.shared, withIntermediateDirectories: true, attributes: reachable)
                try FileManager.default.setAttributes(reachable, ofItemAtPath: layout.shared.path)
                try FileManager.default.setAttributes(reachable, ofItemAtPath: layout.root.path)
                socket = layout.shared.appendingPathComponent("bus")
            }
            try configuration(socket: socket, anyUser: sharedWithOtherUsers, serviceDirectory: serviceDirectory)
                .write(to: layout.busConfig, atomically: true, encoding: .utf8)
        } catch {
            throw HeadlessSessionError.componentFailed(
                component: "dbus-daemon", reason: "cannot write \(layout.busConfig.path): \(error)", stderrTail: "")
        }
        return try run(name: "dbus-daemon", configuration: layout.busConfig, launcher: launcher, environment: environment)
    }

    /// A private system bus, for the desktop shells that want one (GNOME Shell's login manager
    /// code fails without): any user may connect and own names, nothing is activated.
    static func startSystemBus(launcher: ChildLauncher, environment: [String: String]) throws -> BusDaemon {
        let layout = launcher.layout
        let file = layout.root.appendingPathComponent("dbus-system.conf")
        do {
            try configuration(type: "system", socket: layout.systemBusSocket, anyUser: true)
                .write(to: file, atomically: true, encoding: .utf8)
        } catch {
            throw HeadlessSessionError.componentFailed(component: "system dbus-daemon", reason: "cannot write \(file.path): \(error)", stderrTail: "")
        }
        return try run(name: "dbus-daemon-system", configuration: file, launcher: launcher, environment: environment)
    }

    /// A bus of its own besides the session's (another machine's, in a test), listening on
    /// `socket`; nothing on it is activated.
    static func startPrivate(name: String, socket: URL, launcher: ChildLauncher, environment: [String: String]) throws -> BusDaemon {
        let file = launcher.layout.root.appendingPathComponent("\(name).conf")
        do {
            try configuration(socket: socket).write(to: file, atomically: true, encoding: .utf8)
        } catch {
            throw HeadlessSessionError.componentFailed(component: name, reason: "cannot write \(file.path): \(error)", stderrTail: "")
        }
        return try run(name: name, configuration: file, launcher: launcher, environment: environment)
    }

    private static func run(name: String, configuration: URL, launcher: ChildLauncher, environment: [String: String]) throws -> BusDaemon {
        let process = try launcher.launch(
            name: name,
            executable: try ExecutableLocator.find("dbus-daemon", environment: environment),
            arguments: ["--config-file=\(configuration.path)", "--nofork", "--nopidfile", "--print-address=1"],
            environment: environment)

        var address: String?
        let ready = Polling.until(timeout: .seconds(10)) {
            address = firstLine(of: process.standardOutputURL)
            return address != nil || !process.isRunning
        }
        guard ready, let address else {
            let reason = process.isRunning
                ? "did not print its address within 10 s"
                : "exited with status \(process.terminationStatus ?? -1) before printing its address"
            throw HeadlessSessionError.componentFailed(
                component: name, reason: reason, stderrTail: process.standardErrorTail())
        }
        return BusDaemon(process: process, address: address)
    }

    /// Whether `name` currently has an owner on the bus (e.g. org.freedesktop.Notifications once
    /// the notification server is up).
    static func nameHasOwner(_ name: String, launcher: ChildLauncher, environment: [String: String]) throws -> Bool {
        let address = environment["DBUS_SESSION_BUS_ADDRESS"] ?? ""
        let output = try launcher.runChecked(
            "busctl",
            ["--address=\(address)", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
             "org.freedesktop.DBus", "NameHasOwner", "s", name],
            environment: environment)
        return output.trimmingCharacters(in: .whitespacesAndNewlines) == "b true"
    }

    /// A session bus listening only on a socket in the session's runtime directory.
    /// There are deliberately no <servicedir> entries: the system ones contain
    /// org.knopwob.dunst.service, so a Notify sent before the session's dunst owns its name would
    /// auto-start a second dunst with the default configuration; nothing may be activated behind
    /// the session's back. The policy lets the monitor eavesdrop on everything.
    /// `anyUser`: every user may connect; without it only the bus's own user may.
    /// `serviceDirectory`: the one directory of services it may start, if any.
    static func configuration(type: String = "session", socket: URL, anyUser: Bool = false, serviceDirectory: URL? = nil) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>\(type)</type>\(serviceDirectory.map { "\n  <servicedir>\($0.path)</servicedir>" } ?? "")
          <keep_umask/>
          <listen>unix:path=\(socket.path)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">\(anyUser ? "\n    <allow user=\"*\"/>" : "")
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>

        """
    }

    private static func firstLine(of url: URL) -> String? {
        guard let text = try? String(contentsOf: url, encoding: .utf8),
              let newline = text.firstIndex(of: "\n") else { return nil }
        let line = text[..<newline].trimmingCharacters(in: .whitespaces)
        return line.isEmpty ? nil : line
    }
}
