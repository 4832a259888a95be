import Foundation

/// The session's sound server: pulseaudio with one null sink, `tocsin_null`, whose monitor source
/// lets a test record exactly what applications played.
///
/// A silence stream plays into the sink for the session's lifetime, because an idle null sink's
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

    let processes: [SessionProcess]
    /// The value for PULSE_SERVER.
    let serverAddress: String

    /// Starts pulseaudio and waits until `pactl info` answers, then starts the helper streams.
    static func start(launcher: ChildLauncher, environment: [String: String]) throws -> SoundServer {
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

        let format = ["--raw", "--format=s16le", "--rate=\(sampleRate)", "--channels=\(channels)"]
        let silence = try launcher.launch(
            name: "silence-stream",
            executable: try ExecutableLocator.find("pacat", environment: environment),
            arguments: ["--playback", "--device=\(sinkName)", "--latency-msec=10"] + format + ["/dev/zero"],
            environment: soundEnvironment)
        let connected = try Polling.until(timeout: .seconds(10), interval: .milliseconds(10)) {
            guard silence.isRunning else { return true }
            return !(try launcher.runChecked("pactl", ["list", "short", "sink-inputs"], environment: soundEnvironment))
                .trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        }
        guard connected, silence.isRunning else {
            throw HeadlessSessionError.componentFailed(
                component: "pulseaudio silence stream (pacat)",
                reason: silence.isRunning ? "did not connect within 10 s" : "exited with status \(silence.terminationStatus ?? -1)",
                stderrTail: silence.standardErrorTail())
        }
        try launcher.runChecked("pactl", ["suspend-sink", sinkName, "1"], environment: soundEnvironment)
        try launcher.runChecked("pactl", ["suspend-sink", sinkName, "0"], environment: soundEnvironment)
        return SoundServer(processes: [process, silence], serverAddress: serverAddress)
    }

    /// The arguments for a recorder of the sink's monitor writing raw s16le stereo to stdout.
    static func recorderArguments() -> [String] {
        ["--latency-msec=10", "--device=\(sinkName).monitor", "--raw", "--format=s16le",
         "--rate=\(sampleRate)", "--channels=\(channels)"]
    }
}
