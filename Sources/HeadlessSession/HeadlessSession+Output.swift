import Foundation

/// The session's output as a user sees and changes it: sinks, their mute and per-channel volume,
/// the default sink, and the streams playing. Everything goes through `pactl` on the session's
/// server, the tool a user (or a desktop's mixer, through the same protocol) would use, so a test
/// checks a program against the server's own answers, on PulseAudio and on PipeWire alike.
extension HeadlessSession {
    /// Names the default sink wherever a sink name is taken (pactl resolves it).
    public static let defaultSink = "@DEFAULT_SINK@"

    /// The sound server's name as `pactl info` gives it: "PulseAudio", or
    /// "PulseAudio (on PipeWire 0.3.65)" for pipewire-pulse.
    public func soundServerName() throws -> String {
        try readPactl(["info"]) { try PactlJSON.serverInfo($0).serverName }
    }

    /// The name of the current default sink.
    public func defaultSinkName() throws -> String {
        try pactl(["get-default-sink"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every sink the server has, in its order.
    public func sinks() throws -> [SinkState] {
        try readPactl(["list", "sinks"], PactlJSON.sinks)
    }

    /// The state of the sink named `name` (the default sink unless another is named).
    public func sinkState(_ name: String = HeadlessSession.defaultSink) throws -> SinkState {
        let wanted = name == Self.defaultSink ? try defaultSinkName() : name
        let all = try sinks()
        guard let sink = all.first(where: { $0.name == wanted }) else {
            throw HeadlessSessionError.unexpectedAnswer(
                command: "pactl list sinks",
                reason: "no sink named \(wanted); the sinks are: \(all.map(\.name).joined(separator: ", "))")
        }
        return sink
    }

    /// Every stream playing into a sink, with the process that plays it (`processID`), its mute
    /// and its volume. The session's own silence stream is among them (its `applicationName` is
    /// "tocsin-session-silence").
    public func sinkInputs() throws -> [SinkInputState] {
        let sinks = try sinks()
        return try readPactl(["list", "sink-inputs"]) { try PactlJSON.sinkInputs($0, sinks: sinks) }
    }

    /// Mutes or unmutes a sink, as a user's mixer does (`pactl set-sink-mute`).
    public func setSinkMute(_ name: String, _ muted: Bool) throws {
        try pactl(["set-sink-mute", name, muted ? "1" : "0"])
    }

    /// Sets a sink's volume per channel in percent, in its channel-map order (`[30, 70]` is left
    /// 30 %, right 70 % on a stereo sink), as `pactl set-sink-volume NAME 30% 70%` does. One value
    /// per channel: pactl refuses another count.
    public func setSinkVolume(_ name: String, percents: [Int]) throws {
        try pactl(["set-sink-volume", name] + percents.map { "\($0)%" })
    }

    /// Sets a sink's raw volume per channel (65536 = 100 %), in its channel-map order: the exact
    /// values a program saved, to restore them.
    public func setSinkVolume(_ name: String, volumes: [UInt32]) throws {
        try pactl(["set-sink-volume", name] + volumes.map(String.init))
    }

    /// Mutes or unmutes one stream (a sink input, by its `index`), as a user's mixer does
    /// (`pactl set-sink-input-mute`). On PipeWire, WirePlumber remembers it for every later
    /// stream of the same application (`$XDG_STATE_HOME/wireplumber/restore-stream`); the
    /// PulseAudio session does not (it loads no module-stream-restore).
    public func setSinkInputMute(_ index: Int, _ muted: Bool) throws {
        try pactl(["set-sink-input-mute", String(index), muted ? "1" : "0"])
    }

    /// Sets one stream's volume per channel in percent (`pactl set-sink-input-volume`); relative
    /// to its sink's volume. Remembered by WirePlumber as a mute is.
    public func setSinkInputVolume(_ index: Int, percents: [Int]) throws {
        try pactl(["set-sink-input-volume", String(index)] + percents.map { "\($0)%" })
    }

    /// Makes another null sink, `name` (stereo, 44.1 kHz, like `tocsin_null`), as a second output
    /// (`pactl load-module module-null-sink`), and returns once the server lists it. A restart of
    /// the sound server does not bring it back. Record what it plays with `startRecording(of:)`.
    @discardableResult
    public func loadNullSink(named name: String) throws -> SinkState {
        try pactl(["load-module", "module-null-sink", "sink_name=\(name)",
                   "rate=\(SoundServer.sampleRate)", "channels=\(SoundServer.channels)"])
        var made: SinkState?
        let listed = try Polling.until(timeout: .seconds(5), interval: .milliseconds(20)) {
            made = try sinks().first { $0.name == name }
            return made != nil
        }
        guard listed, let made else {
            throw HeadlessSessionError.unexpectedAnswer(command: "pactl load-module module-null-sink sink_name=\(name)",
                                                        reason: "the sink was not listed within 5 s")
        }
        return made
    }

    /// Removes a sink made with `loadNullSink(named:)` (unloads its module), as unplugging an
    /// output would, and returns once the server no longer lists it.
    public func unloadNullSink(named name: String) throws {
        let sink = try sinkState(name)
        guard let module = sink.ownerModule else {
            throw HeadlessSessionError.unexpectedAnswer(command: "pactl list sinks", reason: "sink \(name) names no owner module")
        }
        try pactl(["unload-module", String(module)])
        let gone = try Polling.until(timeout: .seconds(5), interval: .milliseconds(20)) {
            try !sinks().contains { $0.name == name }
        }
        guard gone else {
            throw HeadlessSessionError.unexpectedAnswer(command: "pactl unload-module \(module)",
                                                        reason: "sink \(name) was still listed after 5 s")
        }
    }

    /// Makes `name` the default sink, as choosing an output in a desktop's settings does, and
    /// returns once the server reports it as the default (on PipeWire, WirePlumber takes the
    /// choice a moment after pactl returns).
    public func setDefaultSink(_ name: String) throws {
        try pactl(["set-default-sink", name])
        var current = ""
        let taken = try Polling.until(timeout: .seconds(5), interval: .milliseconds(20)) {
            current = try defaultSinkName()
            return current == name
        }
        guard taken else {
            throw HeadlessSessionError.unexpectedAnswer(command: "pactl set-default-sink \(name)",
                                                        reason: "the default sink was still \(current) after 5 s")
        }
    }

    /// Runs pactl on the session's server. The C locale, because pactl's words and its JSON's
    /// decimal point follow the locale.
    @discardableResult
    private func pactl(_ arguments: [String]) throws -> String {
        try ensureRunning()
        return try launcher.runChecked("pactl", arguments, environment: environment.merging(["LC_ALL": "C"]) { $1 })
    }

    /// Runs `pactl --format=json` and reads its answer with `read`.
    private func readPactl<Value>(_ arguments: [String], _ read: (String) throws -> Value) throws -> Value {
        let answer = try pactl(["--format=json"] + arguments)
        do {
            return try read(answer)
        } catch {
            throw HeadlessSessionError.unexpectedAnswer(
                command: "pactl --format=json \(arguments.joined(separator: " "))",
                reason: "\(error); it answered: \(answer.prefix(500))")
        }
    }
}
