import Foundation

/// Two real KDE Connect daemons that know each other, as a desk and the phone paired with it:
/// the desk's on the session's bus, and one that plays the phone on a bus of its own. Each runs in
/// a network namespace of its own, the two joined by a veth pair (10.99.0.1 and 10.99.0.2), so
/// they find each other by their own broadcasts and talk over a network of their own, as a
/// laptop and a phone on one Wi-Fi do. They are paired over their D-Bus APIs, as the desk's
/// "Pair" and the phone's "Accept" buttons do.
///
/// The desk can be GSConnect (GNOME's KDE Connect, version 54 here) instead: its daemon then runs
/// in the desk's namespace on the session's bus, display and settings, and pairs through its
/// device's `pair` action.
///
/// Needs root (network namespaces) and KDE Connect 22.12 (`kdeconnectd`; GSConnect for its
/// desk); the phone side plays its find-my-phone ring on the session's PulseAudio.
public final class KDEConnectPair {
    /// Which program the desk runs.
    public enum Desk: Sendable {
        case kdeConnect
        case gsConnect
    }

    /// The phone's device id, as the desk knows it (`/modules/kdeconnect/devices/ID` on the
    /// session's bus, or GSConnect's device of that `Id`).
    public let phoneID: String
    /// The desk's device id, as the phone knows it.
    public let deskID: String
    /// The phone's own bus.
    public let phoneBusAddress: String
    /// The desk's KDE Connect configuration directory, in the session's XDG_CONFIG_HOME (run
    /// commands live under it; unused by GSConnect, which keeps them in its settings).
    public let deskConfig: URL
    /// The phone's and the desk's daemons.
    public let phoneDaemon: SessionProcess, deskDaemon: SessionProcess
    /// What crosses the phone's bus to a notification server (the pings it shows), as dbus-monitor prints it.
    private let phoneMonitor: SessionProcess
    private let launcher: ChildLauncher
    private let sessionEnvironment: [String: String]
    private let phoneEnvironment: [String: String]

    static let daemonName = "org.kde.kdeconnect"
    static let daemonPath = "/modules/kdeconnect"

    init(desk deskKind: Desk, launcher: ChildLauncher, environment: [String: String]) throws {
        self.launcher = launcher
        sessionEnvironment = environment
        let layout = launcher.layout
        let tag = UUID().uuidString.prefix(6).lowercased()
        let (deskSpace, phoneSpace) = ("tocsin-\(tag)-desk", "tocsin-\(tag)-phone")
        let (deskLink, phoneLink) = ("tcd\(tag)", "tcp\(tag)")
        let root = layout.root.appendingPathComponent("kdeconnect")
        let ip = try ExecutableLocator.find("ip", environment: environment)
        launcher.registerCleanup {
            // Not through the launcher, which starts nothing once the session is stopping.
            for space in [deskSpace, phoneSpace] {
                let delete = Process()
                delete.executableURL = ip
                delete.arguments = ["netns", "delete", space]
                if (try? delete.run()) != nil { delete.waitUntilExit() }
            }
        }

        try Self.makeNetwork(desk: (deskSpace, deskLink, "10.99.0.1"), phone: (phoneSpace, phoneLink, "10.99.0.2"),
                             launcher: launcher, environment: environment)

        // The phone's own bus: nothing on it may be activated (the stock configuration started
        // an installed notification daemon, which crashed).
        let phoneBus = try BusDaemon.startPrivate(name: "dbus-daemon-phone", socket: layout.runtime.appendingPathComponent("phone-bus"),
                                                  launcher: launcher, environment: environment)
        phoneBusAddress = phoneBus.address
        /// The desk's daemon is the session user's, with its HOME and configuration (where
        /// `tocsin phone setup` writes the run commands); the phone's has its own.
        func side(_ name: String) throws -> [String: String] {
            if name == "desk" {
                let config = URL(fileURLWithPath: environment["XDG_CONFIG_HOME"] ?? layout.config.path).appendingPathComponent("kdeconnect")
                try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                try "[General]\nname=Desk\n".write(to: config.appendingPathComponent("config"), atomically: true, encoding: .utf8)
                return ["QT_QPA_PLATFORM": "offscreen", "QT_LOGGING_RULES": "kdeconnect.*=true"]
            }
            let home = root.appendingPathComponent(name)
            let config = home.appendingPathComponent("config"), runtime = home.appendingPathComponent("run")
            for directory in [home, config.appendingPathComponent("kdeconnect"), runtime, home.appendingPathComponent("data"), home.appendingPathComponent("cache")] {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
            // Named, or both are called after the host.
            try "[General]\nname=\(name.capitalized)\n".write(to: config.appendingPathComponent("kdeconnect/config"), atomically: true, encoding: .utf8)
            return ["HOME": home.path, "XDG_CONFIG_HOME": config.path, "XDG_RUNTIME_DIR": runtime.path,
                    "XDG_DATA_HOME": home.appendingPathComponent("data").path, "XDG_CACHE_HOME": home.appendingPathComponent("cache").path,
                    "QT_QPA_PLATFORM": "offscreen", "QT_LOGGING_RULES": "kdeconnect.*=true"]
        }
        let desk: [String: String], phone: [String: String]
        do {
            desk = environment.merging(try side("desk")) { $1 }
            phone = environment.merging(try side("phone")) { $1 }.merging(["DBUS_SESSION_BUS_ADDRESS": phoneBus.address]) { $1 }
        } catch {
            throw HeadlessSessionError.componentFailed(component: "kdeconnectd", reason: "cannot prepare its directories: \(error)", stderrTail: "")
        }
        phoneEnvironment = phone
        deskConfig = URL(fileURLWithPath: desk["XDG_CONFIG_HOME"] ?? layout.config.path).appendingPathComponent("kdeconnect")
        phoneMonitor = try launcher.launch(
            name: "phone-bus-monitor", executable: try ExecutableLocator.find("dbus-monitor", environment: environment),
            arguments: ["--address", phoneBus.address, "interface='org.freedesktop.Notifications'"], environment: environment)

        let daemon = try Self.daemonExecutable()
        switch deskKind {
        case .kdeConnect:
            deskDaemon = try launcher.launch(name: "kdeconnectd-desk", executable: ip, arguments: ["netns", "exec", deskSpace, daemon], environment: desk)
        case .gsConnect:
            _ = try? launcher.runChecked("gsettings", ["set", "org.gnome.Shell.Extensions.GSConnect", "name", "Desk"], environment: environment)
            deskDaemon = try launcher.launch(name: "gsconnect-desk", executable: ip,
                                             arguments: ["netns", "exec", deskSpace, try ExecutableLocator.find("gjs", environment: environment).path,
                                                         try Self.gsConnectDaemon()], environment: desk)
        }
        phoneDaemon = try launcher.launch(name: "kdeconnectd-phone", executable: ip, arguments: ["netns", "exec", phoneSpace, daemon], environment: phone)
        let deskName = deskKind == .kdeConnect ? Self.daemonName : Self.gsConnectName
        try NotificationServer.waitForName(deskName, ownedBy: deskDaemon, component: "\(deskKind) (desk)", launcher: launcher, environment: desk)
        try NotificationServer.waitForName(Self.daemonName, ownedBy: phoneDaemon, component: "kdeconnectd (phone)", launcher: launcher, environment: phone)

        // Each finds the other by its broadcast within about a second. GSConnect broadcasts
        // only when the network changes or it is asked to (its Refresh), so it is asked, once
        // every 2 s until the two know each other.
        var found: (phone: String, desk: String)?
        var polls = 0
        _ = Polling.until(timeout: .seconds(20), interval: .milliseconds(200)) {
            if deskKind == .gsConnect, polls % 10 == 0 {
                _ = try? launcher.runChecked("gdbus", ["call", "--session", "--dest", Self.gsConnectName, "--object-path", Self.gsConnectPath,
                                                       "--method", "org.gtk.Actions.Activate", "refresh", "[]", "{}"], environment: desk)
            }
            polls += 1
            let phoneID = deskKind == .kdeConnect ? Self.devices(launcher: launcher, environment: desk).first
                                                  : Self.gsConnectDevices(launcher: launcher, environment: desk).first?.id
            guard let phoneID, let deskID = Self.devices(launcher: launcher, environment: phone).first else { return false }
            found = (phoneID, deskID)
            return true
        }
        guard let found else {
            throw HeadlessSessionError.componentFailed(component: "kdeconnectd", reason: "the two daemons did not find each other within 20 s",
                                                       stderrTail: deskDaemon.standardErrorTail() + "\n" + phoneDaemon.standardErrorTail())
        }
        phoneID = found.phone
        deskID = found.desk
        if deskKind == .gsConnect {
            try Self.pairWithGSConnect(phone: found, launcher: launcher, desk: desk, phone: phone, deskDaemon: deskDaemon, phoneDaemon: phoneDaemon)
            return
        }

        // The desk asks, the phone accepts. A peer can be listed a moment before its object
        // exists (or after it went, when a broadcast crossed; the call then fails with
        // UnknownObject): the request is sent again until it is taken. A request can also be
        // lost when the two reconnect just after it was sent (seen once in a CI run: the phone
        // logged "It is a known device" twice and never held the request, through 10 s of
        // requests). While a request is pending the desk refuses another ("Pairing already
        // requested for this device", kdeconnect-core's message) until it times out (30 s), so
        // the requests go on past that: the first after it is sent anew. (Giving
        // the pending request up with unpair before asking again left the pair half made: the
        // phone's pings never arrived.)
        func answers(_ environment: [String: String], _ device: String, _ method: String) -> Bool {
            ((try? Self.call(launcher: launcher, environment: environment, path: "\(Self.daemonPath)/devices/\(device)",
                             method: "org.kde.kdeconnect.device.\(method)")) ?? "").contains("true")
        }
        var attempts = 0
        let asked = Polling.until(timeout: .seconds(40), interval: .milliseconds(200)) {
            let devicePath = "\(Self.daemonPath)/devices/\(found.phone)"
            attempts += 1
            return (try? Self.call(launcher: launcher, environment: desk, path: devicePath, method: "org.kde.kdeconnect.device.requestPair")) != nil
                && Polling.until(timeout: .seconds(3), interval: .milliseconds(100)) { answers(phone, found.desk, "hasPairingRequests") }
        }
        guard asked else {
            throw HeadlessSessionError.componentFailed(component: "kdeconnectd", reason: "the phone never saw the desk's pairing request (\(attempts) requests)",
                                                       stderrTail: phoneDaemon.standardErrorTail())
        }
        _ = try Self.call(launcher: launcher, environment: phone, path: "\(Self.daemonPath)/devices/\(deskID)", method: "org.kde.kdeconnect.device.acceptPairing")
        guard Polling.until(timeout: .seconds(10), interval: .milliseconds(100), { answers(desk, found.phone, "isTrusted") }) else {
            throw HeadlessSessionError.componentFailed(component: "kdeconnectd", reason: "the pairing was not completed within 10 s", stderrTail: deskDaemon.standardErrorTail())
        }
    }

    /// The message bodies of the notifications the phone was asked to show (its pings), in order.
    public func phoneNotificationTexts() -> [String] {
        let text = (try? String(contentsOf: phoneMonitor.standardOutputURL, encoding: .utf8)) ?? ""
        return text.matches(of: /string "([^"]*)"/).map { String($0.1) }
    }

    /// Whether the phone is playing its find-my-phone ring now: a stream of the phone's
    /// kdeconnectd on the session's PulseAudio (`pactl list sink-inputs`).
    public func phoneIsRinging() -> Bool {
        guard let inputs = try? launcher.runChecked("pactl", ["list", "sink-inputs"], environment: sessionEnvironment) else { return false }
        return inputs.contains("application.process.id = \"\(phoneDaemon.pid)\"")
    }

    /// The run commands the desk offers the phone, as the phone's KDE Connect app lists them:
    /// the JSON of its remotecommands plugin's `commands` (an `ay`, which gdbus prints byte by byte).
    public func commandsOfferedToPhone() -> String {
        let printed = (try? callOnPhone(path: "\(Self.daemonPath)/devices/\(deskID)/remotecommands", method: "org.freedesktop.DBus.Properties.Get",
                                        "org.kde.kdeconnect.device.remotecommands", "commands")) ?? ""
        let bytes = printed.matches(of: /0x([0-9a-f]{2})/).compactMap { UInt8($0.1, radix: 16) }
        return bytes.isEmpty ? printed : String(decoding: bytes, as: UTF8.self)
    }

    /// Runs the desk's command `id` from the phone, as a tap in its KDE Connect app does.
    public func triggerCommandFromPhone(_ id: String) throws {
        try callOnPhone(path: "\(Self.daemonPath)/devices/\(deskID)/remotecommands", method: "org.kde.kdeconnect.device.remotecommands.triggerCommand", id)
    }

    /// Calls `method` (interface.member) on the phone's daemon at `path` with gdbus-style
    /// `arguments`; returns gdbus's output.
    @discardableResult
    public func callOnPhone(path: String, method: String, _ arguments: String...) throws -> String {
        try Self.call(launcher: launcher, environment: phoneEnvironment, path: path, method: method, arguments)
    }

    // MARK: Set-up

    private static func makeNetwork(desk: (space: String, link: String, address: String), phone: (space: String, link: String, address: String),
                                    launcher: ChildLauncher, environment: [String: String]) throws {
        func ip(_ arguments: String...) throws {
            do {
                _ = try launcher.runChecked("ip", arguments, environment: environment)
            } catch {
                throw HeadlessSessionError.componentFailed(component: "the network namespaces", reason: "ip \(arguments.joined(separator: " ")): \(error)", stderrTail: "")
            }
        }
        try ip("netns", "add", desk.space)
        try ip("netns", "add", phone.space)
        try ip("link", "add", desk.link, "type", "veth", "peer", "name", phone.link)
        for side in [desk, phone] {
            try ip("link", "set", side.link, "netns", side.space)
            try ip("-n", side.space, "address", "add", "\(side.address)/24", "broadcast", "10.99.0.255", "dev", side.link)
            try ip("-n", side.space, "link", "set", "lo", "up")
            try ip("-n", side.space, "link", "set", side.link, "up")
            // Both broadcast to 255.255.255.255, unreachable without a route; GSConnect
            // broadcasts only while GLib's network monitor sees a default route.
            try ip("-n", side.space, "route", "add", "255.255.255.255/32", "dev", side.link)
            try ip("-n", side.space, "route", "add", "default", "dev", side.link)
        }
    }

    static let gsConnectName = "org.gnome.Shell.Extensions.GSConnect"
    static let gsConnectPath = "/org/gnome/Shell/Extensions/GSConnect"

    /// GSConnect's daemon, as its Debian package installs it.
    private static func gsConnectDaemon() throws -> String {
        let path = "/usr/share/gnome-shell/extensions/gsconnect@andyholmes.github.io/service/daemon.js"
        guard FileManager.default.fileExists(atPath: path) else {
            throw HeadlessSessionError.componentFailed(component: "GSConnect", reason: "not installed (apt-get install gnome-shell-extension-gsconnect)", stderrTail: "")
        }
        return path
    }

    /// The devices GSConnect knows: each one's id and object path, from its ObjectManager.
    private static func gsConnectDevices(launcher: ChildLauncher, environment: [String: String]) -> [(id: String, path: String)] {
        guard let output = try? launcher.runChecked("gdbus", ["call", "--session", "--dest", gsConnectName, "--object-path", gsConnectPath,
                                                             "--method", "org.freedesktop.DBus.ObjectManager.GetManagedObjects"], environment: environment)
        else { return [] }
        return output.matches(of: /objectpath '([^']+\/Device\/[^']+)': \{[^}]*'Id': <'([^']+)'>/).map { (String($0.2), String($0.1)) }
    }

    /// The desk (GSConnect) asks through its device's `pair` action, the phone accepts, and the
    /// device's `Paired` turns true.
    private static func pairWithGSConnect(phone ids: (phone: String, desk: String), launcher: ChildLauncher, desk: [String: String],
                                          phone: [String: String], deskDaemon: SessionProcess, phoneDaemon: SessionProcess) throws {
        guard let device = gsConnectDevices(launcher: launcher, environment: desk).first(where: { $0.id == ids.phone }) else {
            throw HeadlessSessionError.componentFailed(component: "GSConnect", reason: "the phone's device went", stderrTail: deskDaemon.standardErrorTail())
        }
        func hasRequest() -> Bool {
            ((try? call(launcher: launcher, environment: phone, path: "\(daemonPath)/devices/\(ids.desk)",
                        method: "org.kde.kdeconnect.device.hasPairingRequests")) ?? "").contains("true")
        }
        let asked = Polling.until(timeout: .seconds(10), interval: .milliseconds(200)) {
            (try? launcher.runChecked("gdbus", ["call", "--session", "--dest", gsConnectName, "--object-path", device.path,
                                                "--method", "org.gtk.Actions.Activate", "pair", "[]", "{}"], environment: desk)) != nil
                && Polling.until(timeout: .seconds(2), interval: .milliseconds(100), hasRequest)
        }
        guard asked else {
            throw HeadlessSessionError.componentFailed(component: "kdeconnectd", reason: "the phone never saw GSConnect's pairing request", stderrTail: phoneDaemon.standardErrorTail())
        }
        _ = try call(launcher: launcher, environment: phone, path: "\(daemonPath)/devices/\(ids.desk)", method: "org.kde.kdeconnect.device.acceptPairing")
        let paired = Polling.until(timeout: .seconds(10), interval: .milliseconds(100)) {
            ((try? launcher.runChecked("busctl", ["--user", "get-property", gsConnectName, device.path, "\(gsConnectName).Device", "Paired"],
                                       environment: desk)) ?? "").contains("true")
        }
        guard paired else {
            throw HeadlessSessionError.componentFailed(component: "GSConnect", reason: "the pairing was not completed within 10 s", stderrTail: deskDaemon.standardErrorTail())
        }
    }

    private static func daemonExecutable() throws -> String {
        for candidate in ["/usr/lib/x86_64-linux-gnu/libexec/kdeconnectd", "/usr/lib/aarch64-linux-gnu/libexec/kdeconnectd", "/usr/libexec/kdeconnectd"]
        where FileManager.default.isExecutableFile(atPath: candidate) {
            return candidate
        }
        throw HeadlessSessionError.componentFailed(component: "kdeconnectd", reason: "not installed (apt-get install kdeconnect)", stderrTail: "")
    }

    /// The ids of the devices a daemon knows (`devices(false, false)`).
    private static func devices(launcher: ChildLauncher, environment: [String: String]) -> [String] {
        guard let output = try? call(launcher: launcher, environment: environment, path: daemonPath,
                                     method: "org.kde.kdeconnect.daemon.devices", ["false", "false"]) else { return [] }
        return output.matches(of: /'([^']+)'/).map { String($0.1) }
    }

    private static func call(launcher: ChildLauncher, environment: [String: String], path: String, method: String, _ arguments: [String] = []) throws -> String {
        try launcher.runChecked("gdbus", ["call", "--address", environment["DBUS_SESSION_BUS_ADDRESS"] ?? "", "--dest", daemonName,
                                          "--object-path", path, "--method", method] + (arguments.isEmpty ? [] : ["--"] + arguments),
                                environment: environment)
    }
}

extension HeadlessSession {
    /// Starts two KDE Connect daemons paired with each other: the desk's (KDE Connect's, or
    /// GSConnect) on this session's bus, and the phone's (see `KDEConnectPair`). Their namespaces go when the session stops.
    public func startKDEConnectPair(desk: KDEConnectPair.Desk = .kdeConnect) throws -> KDEConnectPair {
        try ensureRunning()
        return try KDEConnectPair(desk: desk, launcher: launcher, environment: environment)
    }
}
