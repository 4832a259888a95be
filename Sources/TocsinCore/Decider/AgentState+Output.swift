import FoundationEssentials

// Ringing through a muted or turned-down output: while an alarm's sound plays, the default
// output is unmuted and raised to the level set (once, however many alarms ring), and when the
// last sound stops it is put back — only what is still as Tocsin set it (`OutputRecord`).

extension AgentState {
    /// The outputs as the sound server last reported them, and what Tocsin changed on one.
    public struct Output: Sendable, Equatable {
        /// What the sound server last said; `nil` before it answered, or while there is none.
        public internal(set) var report: SoundOutputReport?
        /// What Tocsin changed on an output and has not put back yet (saved, so that it is put
        /// back after a crash too).
        public internal(set) var record: OutputRecord?
        /// Whether, and how far, ringing alarms raise the output.
        public internal(set) var settings = OutputRaiseSettings.standard
        /// The alarms whose sound plays now, as the ring and silence effects left them.
        var soundsPlaying: Set<UUID> = []
    }

    /// `effects`, with what they mean for the output added after their last ring or silence:
    /// raised when a sound starts, put back when the last one stops.
    mutating func guardingOutput(_ effects: [AgentEffect]) -> [AgentEffect] {
        var lastSound: Int?
        for (index, effect) in effects.enumerated() {
            switch effect {
            case .ring(let id, _):
                output.soundsPlaying.insert(id)
                lastSound = index
            case .silence(let id):
                output.soundsPlaying.remove(id)
                lastSound = index
            default:
                break
            }
        }
        guard let lastSound else { return effects }
        var guarded = effects
        guarded.insert(contentsOf: reconsiderOutput(), at: lastSound + 1)
        return guarded
    }

    /// The sound server's news.
    mutating func adopt(soundOutput report: SoundOutputReport?) -> [AgentEffect] {
        output.report = report
        return reconsiderOutput()
    }

    /// The settings for raising the output.
    mutating func adopt(outputRaise settings: OutputRaiseSettings) -> [AgentEffect] {
        output.settings = settings
        return reconsiderOutput()
    }

    /// What the output needs now: put back what Tocsin changed once no sound plays (or raising
    /// was turned off, or the default output is another one now), and raise the default output
    /// while a sound plays and nothing is raised.
    private mutating func reconsiderOutput() -> [AgentEffect] {
        guard let report = output.report else { return [] }
        var effects: [AgentEffect] = []
        let raising = !output.soundsPlaying.isEmpty && output.settings.raises
        if let record = output.record, !raising || record.sink != report.defaultSink {
            if let current = report.sinks[record.sink] {
                if let restored = record.restoration(from: current) {
                    effects.append(.setOutput(sink: record.sink, levels: restored))
                    output.report?.sinks[record.sink] = restored
                    effects.append(.log(.info, "Putting output “\(record.sink)” back as it was: \(Self.describe(restored))."))
                }
            } else {
                effects.append(.log(.info, "Output “\(record.sink)” is gone; nothing to put back on it."))
            }
            effects.append(.saveOutputRecord(nil))
            output.record = nil
        }
        if raising, output.record == nil, let sink = report.defaultSink, let current = report.sinks[sink],
           let raised = current.raised(toPercent: output.settings.levelPercent) {
            let record = OutputRecord(sink: sink, before: current, set: raised)
            // Saved before the output is touched: an agent killed mid-ring puts it back on its next start.
            effects.append(.saveOutputRecord(record))
            effects.append(.setOutput(sink: sink, levels: raised))
            // Taken as done until the server says otherwise: a Stop before its report comes must
            // find the output as set, not take the old report for the user's hand.
            output.report?.sinks[sink] = raised
            effects.append(.log(.info, "Output “\(sink)” was \(Self.describe(current)); raised to \(Self.describe(raised)) while the alarm rings."))
            output.record = record
        }
        return effects
    }

    /// "muted, 3 %" or "40 %" (the loudest channel).
    static func describe(_ levels: OutputLevels) -> String {
        (levels.isMuted ? "muted, " : "") + "\(levels.percent) %"
    }
}
