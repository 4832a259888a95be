import Foundation

/// The session's sound server, whichever kind it is: one null sink, `tocsin_null`, as the default
/// sink, whose monitor source lets a test record exactly what applications played, and a silence
/// stream playing into it. This file starts PulseAudio and holds what both kinds share;
/// `PipeWireServer` starts PipeWire.
///
/// On PulseAudio the silence stream plays for the session's lifetime because an idle null sink's
/// monitor delivers audio only partly. It asks for 10 ms latency so the sink renders in small
/// blocks; but a fresh null sink first renders one block of ~2 s, and until that block ends a
/// recorder gets no audio at all (measured: 1.8–1.9 s). Suspending and resuming the sink once
/// the silence stream is connected restarts its clock with small blocks: a recorder then gets
/// audio within ~10 ms.
struct SoundServer {
    /// The sink every application plays into (also the default sink).
    static let sinkName = "tocsin_null"
    static let sampleRate = 44_100
    static let channels = 2
    /// The silence stream's client name, so tests can tell it from the streams they play.
    static let silenceClientName = "tocsin-session-silence"

    let kind: SoundServerKind
    /// Its processes in start order; `stop()` ends them in reverse.
    let processes: [SessionProcess]
    /// The value for PULSE_SERVER.
    let serverAddress: String

    /// Starts a sound server of `kind` with the null sink as default sink and the silence stream
    /// playing; returns when a recorder of the sink's monitor would get audio.
    static func start(_ kind: SoundServerKind, launcher: ChildLauncher, environment: [String: String]) throws -> SoundServer {
        // A restart gets the session's environment, which by then names this server: the servers
        // themselves start as they did the first time.
        var serverEnvironment = environment
        serverEnvironment["PULSE_SERVER"] = nil
        switch kind {
        case .pulseAudio: return try startPulseAudio(launcher: launcher, environment: serverEnvironment)
        case .pipeWire: return try PipeWireServer.start(launcher: launcher, environment: serverEnvironment)
        }
    }

    /// Starts pulseaudio and waits until `pactl info` answers, then starts the helper streams.
    private static func startPulseAudio(launcher: ChildLauncher, environment: [String: String]) throws -> SoundServer {
        let socket = launcher.layout.pulseSocket
        // As root, pulseaudio refuses nothing in this mode but warns; -n skips default.pa so only
        // the modules below exist; auth-anonymous because the socket is private to the session anyway.
        let process = try launcher.launch(
            name: "pulseaudio",
            executable: try ExecutableLocator.find("pulseaudio", environment: environment),
            arguments: ["-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit", "--use-pid-file=no",
                        "--load=module-null-sink sink_name=\(sinkName) rate=\(sampleRate) channels=\(channels)",
                        "--load=module-native-protocol-unix auth-anonymous=1 socket=\(socket.path)"],
            environment: environment)

        var soundEnvironment = environment
        let serverAddress = "unix:\(socket.path)"
        soundEnvironment["PULSE_SERVER"] = serverAddress
        let pactl = try ExecutableLocator.find("pactl", environment: environment)
        let answering = try Polling.until(timeout: .seconds(10), interval: .milliseconds(20)) {
            guard process.isRunning else { return true }
            return try launcher.run(name: "pactl", executable: pactl, arguments: ["info"],
                                    environment: soundEnvironment, timeout: .seconds(5)).succeeded
        }
        guard answering, process.isRunning else {
            throw HeadlessSessionError.componentFailed(
                component: "pulseaudio",
                reason: process.isRunning
                    ? "pactl info got no answer within 10 s"
                    : "exited with status \(process.terminationStatus ?? -1)",
                stderrTail: process.standardErrorTail())
        }
        try launcher.runChecked("pactl", ["set-default-sink", sinkName], environment: soundEnvironment)

        let silence = try startSilenceStream(server: "pulseaudio", launcher: launcher, environment: soundEnvironment)
        try launcher.runChecked("pactl", ["suspend-sink", sinkName, "1"], environment: soundEnvironment)
        try launcher.runChecked("pactl", ["suspend-sink", sinkName, "0"], environment: soundEnvironment)
        return SoundServer(kind: .pulseAudio, processes: [process, silence], serverAddress: serverAddress)
    }

    /// Starts the silence stream into the null sink and returns once the server has connected it
    /// to the sink (on PipeWire a stream is listed before WirePlumber links it).
    /// - Parameter server: the server's name, for the error.
    static func startSilenceStream(server: String, launcher: ChildLauncher, environment: [String: String]) throws -> SessionProcess {
        let format = ["--raw", "--format=s16le", "--rate=\(sampleRate)", "--channels=\(channels)"]
        let silence = try launcher.launch(
            name: "silence-stream",
            executable: try ExecutableLocator.find("pacat", environment: environment),
            arguments: ["--playback", "--device=\(sinkName)", "--latency-msec=10", "--client-name=\(silenceClientName)",
                        "--stream-name=silence"] + format + ["/dev/zero"],
            environment: environment)
        let connected = try Polling.until(timeout: .seconds(10), interval: .milliseconds(10)) {
            guard silence.isRunning else { return true }
            // `list short`: sinks are "INDEX NAME …", sink inputs "INDEX SINK-INDEX …".
            let sinks = try launcher.runChecked("pactl", ["list", "short", "sinks"], environment: environment)
            guard let sinkIndex = shortListColumns(sinks).first(where: { $0.count > 1 && $0[1] == sinkName })?[0] else {
                return false
            }
            let inputs = try launcher.runChecked("pactl", ["list", "short", "sink-inputs"], environment: environment)
            return shortListColumns(inputs).contains { $0.count > 1 && $0[1] == sinkIndex }
        }
        guard connected, silence.isRunning else {
            throw HeadlessSessionError.componentFailed(
                component: "\(server) silence stream (pacat)",
                reason: silence.isRunning
                    ? "was not connected to \(sinkName) within 10 s"
                    : "exited with status \(silence.terminationStatus ?? -1)",
                stderrTail: silence.standardErrorTail())
        }
        return silence
    }

    /// The tab-separated columns of each line of a `pactl list short` answer.
    private static func shortListColumns(_ output: String) -> [[String]] {
        output.split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    /// Ends the server's processes, the last started first (the silence stream, then the
    /// servers in reverse order of their dependencies).
    func stop() {
        for process in processes.reversed() { process.terminate(grace: .seconds(2)) }
    }

    /// The arguments for a recorder of `sink`'s monitor writing raw s16le stereo to stdout.
    static func recorderArguments(sink: String = sinkName) -> [String] {
        ["--latency-msec=10", "--device=\(sink).monitor", "--raw", "--format=s16le",
         "--rate=\(sampleRate)", "--channels=\(channels)"]
    }
}
