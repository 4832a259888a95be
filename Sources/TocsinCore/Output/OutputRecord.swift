import FoundationEssentials

/// What Tocsin changed on an output to make a ringing alarm heard, and what the output was
/// before: kept (and saved, before the output is touched) until it is put back.
///
/// Only what is still as Tocsin set it is put back (KAlarm 1.2's rule): a user who turned the
/// output down, or muted it, while the alarm rang meant it, and that stands.
public struct OutputRecord: Sendable, Equatable, Codable {
    /// The sink's name.
    public var sink: String
    /// The output as it was before.
    public var before: OutputLevels
    /// What Tocsin set.
    public var set: OutputLevels

    /// A record of `sink` changed from `before` to `set`.
    public init(sink: String, before: OutputLevels, set: OutputLevels) {
        self.sink = sink
        self.before = before
        self.set = set
    }

    /// What to set to put the output back, given what it is now: the mute state as before if it
    /// is still what Tocsin set, and every channel's volume as before if they still are what
    /// Tocsin set; `nil` when nothing needs setting (the user changed both, or nothing changed).
    public func restoration(from current: OutputLevels) -> OutputLevels? {
        var restored = current
        if current.isMuted == set.isMuted { restored.isMuted = before.isMuted }
        if current.volumesMatch(set) { restored.channelVolumes = before.channelVolumes }
        return restored == current ? nil : restored
    }
}
