import Foundation

/// A sink (an output) as the sound server reports it to a user's tools (`pactl list sinks`).
///
/// Volumes are the raw `pa_volume_t` of each channel, in the sink's channel-map order: 65536
/// (`PA_VOLUME_NORM`) is 100 %, 0 is silence, and the scale is cubic (3 % is 0.03³ in amplitude).
/// Raw values because "restored exactly" means these numbers: two volumes pactl prints as the
/// same percent can differ (pactl's `30%` sets 19660, and 19661 prints as 30 % too).
/// `channelPercents` gives what pactl prints.
public struct SinkState: Sendable, Equatable {
    /// The sink's index; it changes whenever the sink is made again (a server restart, a reload).
    public let index: Int
    /// The sink's name, e.g. `tocsin_null`.
    public let name: String
    /// What a user's mixer shows (`device.description`).
    public let description: String
    /// Whether the sink is muted.
    public let muted: Bool
    /// The channels in the sink's channel map, e.g. `["front-left", "front-right"]`.
    public let channelNames: [String]
    /// The raw volume of each channel, in `channelNames` order (65536 = 100 %).
    public let channelVolumes: [UInt32]
    /// `RUNNING`, `IDLE` or `SUSPENDED`.
    public let state: String
    /// The module that made the sink (what unloading it takes), if the server says.
    public let ownerModule: Int?

    /// Each channel's volume in percent, rounded as pactl prints it.
    public var channelPercents: [Int] { channelVolumes.map(VolumeScale.percent) }

    /// Creates a sink state (normally read from the server by `HeadlessSession.sinkState`).
    public init(index: Int, name: String, description: String, muted: Bool, channelNames: [String],
                channelVolumes: [UInt32], state: String, ownerModule: Int?) {
        self.index = index
        self.name = name
        self.description = description
        self.muted = muted
        self.channelNames = channelNames
        self.channelVolumes = channelVolumes
        self.state = state
        self.ownerModule = ownerModule
    }
}

/// A stream playing into a sink (`pactl list sink-inputs`), with the application that plays it.
public struct SinkInputState: Sendable, Equatable {
    /// The stream's index.
    public let index: Int
    /// The index of the sink it plays into; nil while the server has not linked it to one
    /// (PipeWire lists a stream before WirePlumber links it).
    public let sinkIndex: Int?
    /// The sink's name, when it plays into one.
    public let sinkName: String?
    /// `application.process.id`: the process that plays it, as the client library reported it.
    public let processID: Int32?
    /// `application.name`.
    public let applicationName: String?
    /// `media.role` (e.g. `event`, `alarm`), if the application set one.
    public let mediaRole: String?
    /// Whether the stream is muted.
    public let muted: Bool
    /// The channels of the stream's channel map.
    public let channelNames: [String]
    /// The raw volume of each channel (65536 = 100 %), relative to the sink's.
    public let channelVolumes: [UInt32]
    /// Every property of the stream as the server reports it.
    public let properties: [String: String]

    /// Each channel's volume in percent, rounded as pactl prints it.
    public var channelPercents: [Int] { channelVolumes.map(VolumeScale.percent) }

    /// Creates a sink input state (normally read from the server by `HeadlessSession.sinkInputs`).
    public init(index: Int, sinkIndex: Int?, sinkName: String?, processID: Int32?, applicationName: String?,
                mediaRole: String?, muted: Bool, channelNames: [String], channelVolumes: [UInt32], properties: [String: String]) {
        self.index = index
        self.sinkIndex = sinkIndex
        self.sinkName = sinkName
        self.processID = processID
        self.applicationName = applicationName
        self.mediaRole = mediaRole
        self.muted = muted
        self.channelNames = channelNames
        self.channelVolumes = channelVolumes
        self.properties = properties
    }
}

/// PulseAudio's volume scale, as pactl prints and parses it.
enum VolumeScale {
    /// `PA_VOLUME_NORM`: 100 %.
    static let norm: UInt32 = 65_536

    /// The percent pactl prints for `volume` (`pa_volume_snprint`: rounded half up).
    static func percent(_ volume: UInt32) -> Int {
        Int((UInt64(volume) * 100 + UInt64(norm) / 2) / UInt64(norm))
    }
}

/// Reads `pactl --format=json` answers (pactl 16.1 has the flag; its JSON does not depend on the
/// server, so PulseAudio and pipewire-pulse answers read the same).
enum PactlJSON {
    /// Why an answer could not be read.
    struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    /// `pactl -f json list sinks`.
    static func sinks(_ text: String) throws -> [SinkState] {
        try list(text, of: "sink").map { sink in
            let (names, volumes) = try channelVolumes(of: sink, in: "sink")
            return SinkState(
                index: try integer("index", of: sink, in: "sink"),
                name: try string("name", of: sink, in: "sink"),
                description: sink["description"]?.string ?? "",
                muted: try bool("mute", of: sink, in: "sink"),
                channelNames: names, channelVolumes: volumes,
                state: sink["state"]?.string ?? "",
                // A number for sinks, but pactl 16.1 writes a sink input's as a string: take either.
                ownerModule: sink["owner_module"].flatMap { $0.int64.map(Int.init) ?? $0.string.flatMap { Int($0) } })
        }
    }

    /// `pactl -f json list sink-inputs`; `sinks` names the sinks they play into.
    static func sinkInputs(_ text: String, sinks: [SinkState]) throws -> [SinkInputState] {
        try list(text, of: "sink input").map { input in
            let (names, volumes) = try channelVolumes(of: input, in: "sink input")
            var properties: [String: String] = [:]
            for (key, value) in input["properties"]?.object ?? [:] {
                properties[key] = value.string ?? value.jsonText
            }
            // An unlinked stream's sink is PA_INVALID_INDEX (4294967295); no sink has that index.
            let sinkIndex = input["sink"]?.int64.map(Int.init)
            let sink = sinks.first { $0.index == sinkIndex }
            return SinkInputState(
                index: try integer("index", of: input, in: "sink input"),
                sinkIndex: sink == nil ? nil : sinkIndex,
                sinkName: sink?.name,
                processID: properties["application.process.id"].flatMap { Int32($0) },
                applicationName: properties["application.name"],
                mediaRole: properties["media.role"],
                muted: try bool("mute", of: input, in: "sink input"),
                channelNames: names, channelVolumes: volumes, properties: properties)
        }
    }

    /// `pactl -f json info`: the server's name and default sink.
    static func serverInfo(_ text: String) throws -> (serverName: String, defaultSink: String) {
        let info = try decode(text)
        return (try string("server_name", of: info, in: "server info"), try string("default_sink_name", of: info, in: "server info"))
    }

    private static func decode(_ text: String) throws -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        } catch {
            throw Unreadable(description: "not JSON (\(error))")
        }
    }

    private static func list(_ text: String, of what: String) throws -> [JSONValue] {
        guard let elements = try decode(text).array else { throw Unreadable(description: "the \(what) list is not an array") }
        return elements
    }

    /// The channels in channel-map order (the volume object's keys have none), and their raw volumes.
    private static func channelVolumes(of object: JSONValue, in what: String) throws -> ([String], [UInt32]) {
        let map = try string("channel_map", of: object, in: what)
        let names = map.split(separator: ",").map(String.init)
        guard let volume = object["volume"] else { throw Unreadable(description: "a \(what) has no volume") }
        let volumes = try names.map { name in
            guard let value = volume[name]?["value"]?.int64, let raw = UInt32(exactly: value) else {
                throw Unreadable(description: "a \(what)'s volume has no raw value for channel \(name)")
            }
            return raw
        }
        return (names, volumes)
    }

    private static func string(_ key: String, of object: JSONValue, in what: String) throws -> String {
        guard let value = object[key]?.string else { throw Unreadable(description: "a \(what) has no \(key) string") }
        return value
    }

    private static func integer(_ key: String, of object: JSONValue, in what: String) throws -> Int {
        guard let value = object[key]?.int64 else { throw Unreadable(description: "a \(what) has no \(key) number") }
        return Int(value)
    }

    private static func bool(_ key: String, of object: JSONValue, in what: String) throws -> Bool {
        guard case .bool(let value)? = object[key] else { throw Unreadable(description: "a \(what) has no \(key) flag") }
        return value
    }
}
