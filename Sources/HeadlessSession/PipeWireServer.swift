import Foundation

/// Starts PipeWire as the session's sound server, as a Debian 12 desktop runs it: `pipewire`,
/// then `wireplumber` (the session manager: it links streams to sinks, keeps the default sink and
/// remembers volumes and mutes in `$XDG_STATE_HOME/wireplumber/`), then `pipewire-pulse` (the
/// PulseAudio protocol server that pactl, parec and Tocsin's libpulse talk to). All three get the
/// session's bus (WirePlumber exits without one), its private XDG_RUNTIME_DIR and its fresh
/// XDG_STATE_HOME (so nothing a user or an earlier session left muted comes back).
///
/// Then, through pactl as on a user's desktop, the null sink `tocsin_null` is loaded and made the
/// default sink, and the silence stream starts, as on PulseAudio. Measured on PipeWire (tone
/// played with `paplay --latency-msec=10`, recorded with `parec --latency-msec=10`, 3 runs each):
/// a recorder gets audio 22–29 ms after it starts and a tone is heard 30 ms after paplay starts,
/// with or without the silence stream, and with the sink suspended or running; PipeWire renders
/// in the recorder's 10 ms quantum from the start, so PulseAudio's first long block does not
/// happen and the suspend/resume trick is not needed (`pactl suspend-sink` is accepted but the
/// sink stays RUNNING: harmless, useless, so it is not done). The silence stream stays because
/// it is how the start proves WirePlumber links streams (a stream is listed before it is linked),
/// and so both servers show the same sink inputs and keep the sink RUNNING.
enum PipeWireServer {
    /// WirePlumber's configuration fragments, by file under `$XDG_CONFIG_HOME/wireplumber/`. The
    /// session's server must never open the machine's sound cards, cameras or Bluetooth devices
    /// (the PulseAudio session loads only its null sink): WirePlumber on the session's private bus
    /// would not see the desktop's device reservations, and a test would play out loud or take
    /// the card from the user's own server. Later-numbered than Debian's `50-*-config.lua`, which
    /// enable the monitors.
    static let wirePlumberConfiguration: [String: String] = [
        "main.lua.d/51-tocsin-session.lua": """
            -- A Tocsin test session: the null sinks made through pactl are the only devices.
            alsa_monitor.enabled = false
            v4l2_monitor.enabled = false
            libcamera_monitor.enabled = false

            """,
        "bluetooth.lua.d/51-tocsin-session.lua": """
            -- A Tocsin test session: no Bluetooth devices.
            bluez_monitor.enabled = false

            """,
    ]

    /// Starts the three servers, the null sink and the silence stream; throws `componentFailed`
    /// naming the part that did not start, with its stderr tail.
    static func start(launcher: ChildLauncher, environment: [String: String]) throws -> SoundServer {
        let layout = launcher.layout
        try writeWirePlumberConfiguration(under: layout.wirePlumberConfig)

        let pipewire = try launcher.launch(
            name: "pipewire", executable: try ExecutableLocator.find("pipewire", environment: environment),
            arguments: [], environment: environment)
        // WirePlumber and pipewire-pulse exit at once if pipewire is not listening yet. A socket
        // left by a pipewire that was killed exists but refuses connections, so connect to it.
        let listening = Polling.until(timeout: .seconds(10)) {
            !pipewire.isRunning || UnixSocketProbe.accepts(layout.pipeWireSocket)
        }
        guard listening, pipewire.isRunning else {
            throw HeadlessSessionError.componentFailed(
                component: "pipewire",
                reason: pipewire.isRunning
                    ? "not listening on \(layout.pipeWireSocket.path) within 10 s"
                    : "exited with status \(pipewire.terminationStatus ?? -1)",
                stderrTail: pipewire.standardErrorTail())
        }
        let wireplumber = try launcher.launch(
            name: "wireplumber", executable: try ExecutableLocator.find("wireplumber", environment: environment),
            arguments: [], environment: environment)
        let pulse = try launcher.launch(
            name: "pipewire-pulse", executable: try ExecutableLocator.find("pipewire-pulse", environment: environment),
            arguments: [], environment: environment)
        let servers = [pipewire, wireplumber, pulse]

        var soundEnvironment = environment
        let serverAddress = "unix:\(layout.pipeWirePulseSocket.path)"
        soundEnvironment["PULSE_SERVER"] = serverAddress
        try waitUntilAnswering(servers: servers, launcher: launcher, environment: soundEnvironment)

        try launcher.runChecked("pactl", ["load-module", "module-null-sink", "sink_name=\(SoundServer.sinkName)",
                                          "rate=\(SoundServer.sampleRate)", "channels=\(SoundServer.channels)"],
                                environment: soundEnvironment)
        try launcher.runChecked("pactl", ["set-default-sink", SoundServer.sinkName], environment: soundEnvironment)
        // WirePlumber, not pipewire-pulse, decides the default sink: wait until it has taken the choice.
        let isDefault = try Polling.until(timeout: .seconds(10), interval: .milliseconds(20)) {
            try launcher.runChecked("pactl", ["get-default-sink"], environment: soundEnvironment)
                .trimmingCharacters(in: .whitespacesAndNewlines) == SoundServer.sinkName
        }
        guard isDefault else {
            throw HeadlessSessionError.componentFailed(
                component: "wireplumber", reason: "did not make \(SoundServer.sinkName) the default sink within 10 s",
                stderrTail: wireplumber.standardErrorTail())
        }

        let silence = try SoundServer.startSilenceStream(server: "pipewire", launcher: launcher, environment: soundEnvironment)
        return SoundServer(kind: .pipeWire, processes: servers + [silence], serverAddress: serverAddress)
    }

    /// Waits until pipewire-pulse answers `pactl info` as PipeWire and WirePlumber has chosen a
    /// default sink (until then pactl shows `@DEFAULT_SINK@`, and `set-default-sink` fails: the
    /// default lives in WirePlumber's metadata). Throws naming the server that exited or stalled.
    private static func waitUntilAnswering(servers: [SessionProcess], launcher: ChildLauncher,
                                           environment: [String: String]) throws {
        let pactl = try ExecutableLocator.find("pactl", environment: environment)
        var lastInfo = ""
        let ready = try Polling.until(timeout: .seconds(10), interval: .milliseconds(20)) {
            guard servers.allSatisfy(\.isRunning) else { return true }
            let result = try launcher.run(name: "pactl", executable: pactl, arguments: ["info"],
                                          environment: environment.merging(["LC_ALL": "C"]) { $1 }, timeout: .seconds(5))
            guard result.succeeded else { return false }
            lastInfo = result.stdout
            return infoField("Server Name", in: lastInfo)?.contains("PipeWire") == true
                && infoField("Default Sink", in: lastInfo).map { !$0.isEmpty && $0 != "@DEFAULT_SINK@" } == true
        }
        if let stopped = servers.first(where: { !$0.isRunning }) {
            throw HeadlessSessionError.componentFailed(
                component: stopped.name, reason: "exited with status \(stopped.terminationStatus ?? -1)",
                stderrTail: stopped.standardErrorTail())
        }
        guard !ready else { return }
        let (component, reason, log): (String, String, SessionProcess)
        if lastInfo.isEmpty {
            (component, reason, log) = ("pipewire-pulse", "pactl info got no answer within 10 s", servers[2])
        } else if infoField("Server Name", in: lastInfo)?.contains("PipeWire") != true {
            (component, reason, log) = ("pipewire-pulse", "the server answering is not PipeWire: \(lastInfo)", servers[2])
        } else {
            (component, reason, log) = ("wireplumber", "chose no default sink within 10 s", servers[1])
        }
        throw HeadlessSessionError.componentFailed(component: component, reason: reason, stderrTail: log.standardErrorTail())
    }

    /// The value of a `Name: value` line of `pactl info` (in the C locale).
    private static func infoField(_ name: String, in info: String) -> String? {
        info.split(separator: "\n").first { $0.hasPrefix("\(name): ") }
            .map { String($0.dropFirst(name.count + 2)).trimmingCharacters(in: .whitespaces) }
    }

    private static func writeWirePlumberConfiguration(under directory: URL) throws {
        for (path, text) in wirePlumberConfiguration {
            let file = directory.appendingPathComponent(path)
            do {
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: file, atomically: true, encoding: .utf8)
            } catch {
                throw HeadlessSessionError.componentFailed(
                    component: "wireplumber", reason: "cannot write \(file.path): \(error)", stderrTail: "")
            }
        }
    }
}
