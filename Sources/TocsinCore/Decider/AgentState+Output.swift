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
        /// The agent's own streams seen during this ring, and how each was last seen.
        var streamsSeen: [UInt32: StreamSeen] = [:]
        /// The user muted one of the alarm's streams during this ring: later ones are left muted.
        var userMutedTheAlarm = false
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
        var effects = unmuteOwnStreams(report)
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

    /// How one of the agent's own streams was last seen during a ring.
    enum StreamSeen: Sendable, Equatable {
        case muted, unmuted
        /// Unmuted by the agent, and not yet reported so: a report that still says muted is
        /// older than the unmute, not the user's hand.
        case unmuting
    }

    /// Unmutes the alarm's own streams that start muted during a ring (a mute the sound server
    /// remembered from an earlier one), unless the user muted one of them during this ring: the
    /// user's hand wins until the ring ends.
    private mutating func unmuteOwnStreams(_ report: SoundOutputReport) -> [AgentEffect] {
        guard !output.soundsPlaying.isEmpty else {
            output.streamsSeen = [:]
            output.userMutedTheAlarm = false
            return []
        }
        var effects: [AgentEffect] = []
        for (stream, muted) in report.ownStreams.sorted(by: { $0.key < $1.key }) {
            switch (output.streamsSeen[stream], muted) {
            case (_, false):
                output.streamsSeen[stream] = .unmuted
            case (.unmuting?, true), (.muted?, true):
                break
            case (.unmuted?, true):
                output.userMutedTheAlarm = true
                output.streamsSeen[stream] = .muted
            case (nil, true) where output.userMutedTheAlarm:
                output.streamsSeen[stream] = .muted
            case (nil, true):
                effects.append(.unmuteStream(stream))
                effects.append(.log(.info, "The alarm's sound started muted (the sound server remembered a mute for Tocsin); unmuting it."))
                output.streamsSeen[stream] = .unmuting
            }
        }
        output.streamsSeen = output.streamsSeen.filter { report.ownStreams[$0.key] != nil }
        return effects
    }

    /// "muted, 3 %" or "40 %" (the loudest channel).
    static func describe(_ levels: OutputLevels) -> String {
        (levels.isMuted ? "muted, " : "") + "\(levels.percent) %"
    }
}
