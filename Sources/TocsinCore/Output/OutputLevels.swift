import FoundationEssentials

/// How loud an output (a sound server's sink) plays: the volume of each of its channels and its
/// mute switch, as PulseAudio and PipeWire's pulse server hold them.
public struct OutputLevels: Sendable, Equatable, Codable {
    /// Each channel's volume in the sound server's units (`pa_volume_t`): `fullVolume` is 100 %,
    /// 0 is silent. Kept per channel, so that a balance set by the user survives a raise.
    public var channelVolumes: [UInt32]
    /// Whether the output is muted.
    public var isMuted: Bool

    /// 100 % (`PA_VOLUME_NORM`).
    public static let fullVolume: UInt32 = 0x10000

    /// `channelVolumes` and `isMuted` as given.
    public init(channelVolumes: [UInt32], isMuted: Bool) {
        self.channelVolumes = channelVolumes
        self.isMuted = isMuted
    }

    /// The loudest channel's volume.
    public var loudest: UInt32 { channelVolumes.max() ?? 0 }

    /// The loudest channel as a percentage of full volume, rounded, as volume controls show it.
    public var percent: Int { Self.percent(of: loudest) }

    /// `volume` as a percentage of full volume, rounded.
    public static func percent(of volume: UInt32) -> Int {
        Int((UInt64(volume) * 100 + UInt64(fullVolume) / 2) / UInt64(fullVolume))
    }

    /// The volume of `percent` % of full volume.
    public static func volume(percent: Int) -> UInt32 {
        UInt32(UInt64(max(0, percent)) * UInt64(fullVolume) / 100)
    }

    /// What to set so that this output plays at least `percent` % and is not muted, keeping the
    /// balance between its channels (each is scaled by the same factor); `nil` when it already does.
    public func raised(toPercent percent: Int) -> OutputLevels? {
        let target = Self.volume(percent: percent)
        let loudest = loudest
        guard isMuted || loudest < target else { return nil }
        var volumes = channelVolumes
        if loudest < target {
            volumes = loudest == 0
                ? channelVolumes.map { _ in target }
                : channelVolumes.map { UInt32((UInt64($0) * UInt64(target) + UInt64(loudest) / 2) / UInt64(loudest)) }
        }
        return OutputLevels(channelVolumes: volumes, isMuted: false)
    }

    /// Whether these levels are `other`'s, as far as a sound server keeps them: the same mute
    /// and every channel within `OutputLevels.rounding` of the other's (PipeWire keeps volumes
    /// as floats and gives back a unit or so off what was set).
    public func matches(_ other: OutputLevels) -> Bool {
        isMuted == other.isMuted && volumesMatch(other)
    }

    /// Whether the loudest channel is below `volume` by more than `OutputLevels.rounding`: quieter
    /// than that volume, not just read back a unit off it.
    public func isQuieter(than volume: UInt32) -> Bool {
        Int64(loudest) + Int64(Self.rounding) < Int64(volume)
    }

    /// Whether every channel is within `OutputLevels.rounding` of `other`'s.
    func volumesMatch(_ other: OutputLevels) -> Bool {
        channelVolumes.count == other.channelVolumes.count
            && zip(channelVolumes, other.channelVolumes).allSatisfy { abs(Int64($0) - Int64($1)) <= Int64(Self.rounding) }
    }

    /// How far a volume read back may be from the one set and still be it: 0.1 % of full volume,
    /// far below a volume control's step (1 % in pactl, 5 % for a keyboard's volume keys).
    static let rounding: UInt32 = fullVolume / 1000
}
