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

    /// A report of `server` with `sinks`, `defaultSink` the default.
    public init(server: String, defaultSink: String?, sinks: [String: OutputLevels]) {
        self.server = server
        self.defaultSink = defaultSink
        self.sinks = sinks
    }

    /// The default output's levels, if there is one.
    public var defaultLevels: OutputLevels? { defaultSink.flatMap { sinks[$0] } }
}
