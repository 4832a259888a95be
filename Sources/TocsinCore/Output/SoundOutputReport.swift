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
    /// The agent's own streams (the alarm sound as it plays), by the server's index: a mute or a
    /// volume the server remembers for Tocsin's streams (PulseAudio's stream-restore, by the
    /// `alarm` role; WirePlumber's, by application) is put on each new one.
    public var ownStreams: [UInt32: OwnStream]

    /// A report of `server` with `sinks`, `defaultSink` the default, and the agent's own streams.
    public init(server: String, defaultSink: String?, sinks: [String: OutputLevels], ownStreams: [UInt32: OwnStream] = [:]) {
        self.server = server
        self.defaultSink = defaultSink
        self.sinks = sinks
        self.ownStreams = ownStreams
    }

    /// The default output's levels, if there is one.
    public var defaultLevels: OutputLevels? { defaultSink.flatMap { sinks[$0] } }
}

/// One of the agent's own streams as the sound server plays it.
public struct OwnStream: Sendable, Equatable {
    /// Its mute and every channel's volume.
    public var levels: OutputLevels
    /// The volume it was asked to play at (`nil`: not said).
    public var requested: UInt32?

    /// A stream at `levels`, asked to play at `requested`.
    public init(levels: OutputLevels, requested: UInt32?) {
        self.levels = levels
        self.requested = requested
    }

    /// What it should be set to, if it is muted or quieter than asked: unmuted, every channel at
    /// the volume asked for (or as it is, when that was not said); `nil` when it plays as asked.
    public var wanted: OutputLevels? {
        let quieter = requested.map(levels.isQuieter(than:)) ?? false
        guard levels.isMuted || quieter else { return nil }
        return OutputLevels(channelVolumes: quieter ? levels.channelVolumes.map { _ in requested! } : levels.channelVolumes, isMuted: false)
    }
}
