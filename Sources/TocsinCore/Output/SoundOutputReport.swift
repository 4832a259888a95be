import FoundationEssentials

/// What the sound server says of its outputs: which is the default, and how loud each plays.
public struct SoundOutputReport: Sendable, Equatable {
    /// The server as it names itself, with its version ("PulseAudio 16.1",
    /// "PulseAudio (on PipeWire 0.3.65) 15.0.0").
    public var server: String
    /// The default output's sink name; `nil` when there is none.
    public var defaultSink: String?
    /// Every output's levels, by sink name.
    public var sinks: [String: OutputLevels]
    /// The agent's own streams (the alarm sound as it plays, by the server's index) and whether
    /// each is muted: a mute the server remembers for Tocsin's streams (PulseAudio's
    /// stream-restore, by the `alarm` role; WirePlumber's, by application) mutes each new one.
    public var ownStreams: [UInt32: Bool]

    /// A report of `server` with `sinks`, `defaultSink` the default, and the agent's own streams.
    public init(server: String, defaultSink: String?, sinks: [String: OutputLevels], ownStreams: [UInt32: Bool] = [:]) {
        self.server = server
        self.defaultSink = defaultSink
        self.sinks = sinks
        self.ownStreams = ownStreams
    }

    /// The default output's levels, if there is one.
    public var defaultLevels: OutputLevels? { defaultSink.flatMap { sinks[$0] } }
}
