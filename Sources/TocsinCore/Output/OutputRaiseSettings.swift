import FoundationEssentials

/// Whether a ringing alarm raises a muted or turned-down output, and to what level.
public struct OutputRaiseSettings: Sendable, Equatable, Codable {
    /// Whether ringing alarms unmute and raise the output.
    public var raises: Bool
    /// The level they raise it to, in percent of full volume (1–100).
    public var levelPercent: Int

    /// The default: raise, to 70 % — clearly heard, not the loudest the machine can play (Android
    /// unmutes its alarm stream to 11/16 of the maximum).
    public static let standard = OutputRaiseSettings(raises: true, levelPercent: 70)

    /// `raises`, to `levelPercent` %.
    public init(raises: Bool, levelPercent: Int) {
        self.raises = raises
        self.levelPercent = levelPercent
    }
}
