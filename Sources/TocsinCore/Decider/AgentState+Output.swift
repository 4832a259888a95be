import FoundationEssentials

// Ringing through a muted or turned-down output: while an alarm's sound plays, the default
// output is unmuted and raised (once, however many alarms ring) to the level of the alarm ringing
// longest among those that raise it — each by its own choice (`--ring-level`, `--no-raise`), else
// by the settings — and when the last such sound stops it is put back: only what is still as
// Tocsin set it (`OutputRecord`).

extension AgentState {
    /// The outputs as the sound server last reported them, and what Tocsin changed on one.
    public struct Output: Sendable, Equatable {
        /// What the sound server last said; `nil` before it answered, or while there is none.
        public internal(set) var report: SoundOutputReport?
        /// What Tocsin changed on an output and has not put back yet (saved, so that it is put
        /// back after a crash too).
        public internal(set) var record: OutputRecord?
        /// Whether, and how far, ringing alarms without a choice of their own raise the output.
        public internal(set) var settings = OutputRaiseSettings.standard
        /// The alarms whose sound plays now, in the order they started: kept by the ring and
        /// silence effects as they are written (`startSound`, `stopSound`).
        var soundsPlaying: [PlayingSound] = []
        /// The agent's own streams seen during this ring, and how each was last seen.
        var streamsSeen: [UInt32: StreamWatch] = [:]
        /// The user muted or turned down one of the alarm's streams during this ring: later ones
        /// are left as the server starts them.
        var userMutedTheAlarm = false
        /// The output looked at for this ring, and the level it was looked at for: raised then,
        /// or loud enough. Not looked at again for the same level: a mute or a turn-down the user
        /// makes during the ring is theirs, whether or not Tocsin had raised it.
        var examined: Examined?

        /// The level the output is raised to now, in percent: that of the alarm ringing longest
        /// among those that raise it; `nil` when none does.
        var raiseLevel: Int? {
            soundsPlaying.lazy.compactMap { settings.level(for: $0.choice) }.first
        }
    }

    /// An alarm whose sound plays, and its own choice of raising the output (taken when the
    /// sound starts: an alarm's options do not change while it rings).
    struct PlayingSound: Sendable, Equatable {
        var id: UUID
        /// When it started ringing: what "ringing longest" is measured by.
        var since: Date
        var choice: OutputRaiseChoice?
    }

    /// What the output needs after the sounds playing, the sound server's report or the settings
    /// changed: raised while a sound that raises it plays, put back once none does; and the
    /// ringing alerts' warning of an output that no ringing alarm raises (in the notification
    /// stage, after the alerts' own showing).
    mutating func followOutput(now: Date, into plan: inout EffectPlan) {
        plan.add(reconsiderOutput(now: now), to: .output)
        plan.add(warnOfASilentOutput(now: now), to: .notification)
    }

    /// The sound server's news.
    mutating func adopt(soundOutput report: SoundOutputReport?, now: Date, into plan: inout EffectPlan) {
        output.report = report
        followOutput(now: now, into: &plan)
    }

    /// The settings for raising the output.
    mutating func adopt(outputRaise settings: OutputRaiseSettings, now: Date, into plan: inout EffectPlan) {
        guard settings != output.settings else { return }
        output.settings = settings
        let said: AgentEffect = settings.raises
            ? .log(.info, "Ringing alarms raise a muted or quieter output to \(settings.levelPercent) % unless they say otherwise.")
            : .log(.info, "Ringing alarms leave the output as it is, even muted, unless they say otherwise (--ring-level).")
        plan.add(said, to: .sound)
        followOutput(now: now, into: &plan)
    }

    /// Ringing alerts say it when the alarm plays on a muted or nearly silent output that no
    /// ringing alarm raises (raising is off, or they say `--no-raise`), and stop saying it once
    /// that is over: shown again when that changes.
    private mutating func warnOfASilentOutput(now: Date) -> [AgentEffect] {
        var warning: String?
        if !output.soundsPlaying.isEmpty, output.raiseLevel == nil, let report = output.report,
           let sink = report.defaultSink, let levels = report.sinks[sink], levels.isMuted || levels.percent < Self.nearlySilent {
            let state = levels.isMuted ? "muted" : "at \(levels.percent) %"
            warning = "The sound output is \(state) and this alarm does not raise it: it may not be heard"
        }
        guard warning != contentWriter.outputWarning else { return [] }
        contentWriter.outputWarning = warning
        return (warning.map { [.log(.warning, "\($0).")] } ?? []) + showAgain(now: now) { $0.state.name == .alerting }
    }

    /// Below this, in percent, an output is taken for silent: 3 % is inaudible on a laptop's speakers.
    static let nearlySilent = 10

    /// What the output needs now: put back what Tocsin changed once no sound that raises it plays
    /// (or raising was turned off, or the default output is another one now), and raise the
    /// default output while one plays and nothing is raised. Raised once: a later alarm with a
    /// higher level of its own finds the output raised and leaves it.
    private mutating func reconsiderOutput(now: Date) -> [AgentEffect] {
        guard let report = output.report else { return [] }
        var effects = correctOwnStreams(report, now: now)
        let level = output.raiseLevel
        if let record = output.record, level == nil || record.sink != report.defaultSink {
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
        if level == nil { output.examined = nil }
        guard let level, output.record == nil, let sink = report.defaultSink, let current = report.sinks[sink],
              output.examined != Examined(sink: sink, level: level) else { return effects }
        output.examined = Examined(sink: sink, level: level)
        if let raised = current.raised(toPercent: level) {
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

    /// An output looked at for a ring, for a level.
    struct Examined: Sendable, Equatable {
        var sink: String
        var level: Int
    }

    /// One of the agent's own streams, as followed during a ring.
    struct StreamWatch: Sendable, Equatable {
        /// When it was first reported.
        var since: Date
        /// How it was last reported.
        var levels: OutputLevels
        /// What the agent set it to and has not seen reported yet.
        var settingTo: OutputLevels?
        /// How many times the agent set it.
        var sets = 0
    }

    /// How long a new stream takes to settle: the sound server applies what it remembered for
    /// Tocsin within this, sometimes after the agent had already set the stream (PipeWire first
    /// reports a new stream at 0 %, then WirePlumber puts its remembered volume on it). A change
    /// in this time is the server's; a person cannot reach a stream in a mixer so fast.
    static let streamSettling: TimeInterval = 1
    /// The most times a stream is set right, so that the agent and a server never play ping-pong.
    static let streamSetsAtMost = 3

    /// Puts right the alarm's own streams that start muted or quieter than they were asked to
    /// play during a ring — a mute or a volume the sound server remembered for Tocsin from an
    /// earlier ring and put over the one asked for (WirePlumber does for the volume too) —
    /// unless the user muted or turned down one of them during this ring: the user's hand wins
    /// until the ring ends.
    private mutating func correctOwnStreams(_ report: SoundOutputReport, now: Date) -> [AgentEffect] {
        guard !output.soundsPlaying.isEmpty else {
            output.streamsSeen = [:]
            output.userMutedTheAlarm = false
            return []
        }
        var effects: [AgentEffect] = []
        for (stream, own) in report.ownStreams.sorted(by: { $0.key < $1.key }) {
            var watch = output.streamsSeen[stream] ?? StreamWatch(since: now, levels: own.levels)
            let isNew = output.streamsSeen[stream] == nil
            defer { output.streamsSeen[stream] = watch }
            if let settingTo = watch.settingTo, own.levels.matches(settingTo) {
                watch.settingTo = nil
                watch.levels = own.levels
                continue
            }
            let changed = isNew || own.levels != watch.levels
            let lowered = own.levels.isMuted && !watch.levels.isMuted
                || own.levels.isQuieter(than: watch.levels.loudest)
            let settling = now.timeIntervalSince(watch.since) < Self.streamSettling || watch.settingTo != nil
            watch.levels = own.levels
            guard changed else { continue }
            if !isNew, !settling {
                if lowered { output.userMutedTheAlarm = true }
                continue
            }
            guard !output.userMutedTheAlarm, let wanted = own.wanted, watch.sets < Self.streamSetsAtMost else { continue }
            effects.append(.setStream(stream, levels: wanted))
            if watch.sets == 0 {
                effects.append(.log(.info, "The alarm's sound started at \(Self.describe(own.levels)), not as asked (the sound server remembered that for Tocsin); set to \(Self.describe(wanted))."))
            }
            watch.settingTo = wanted
            watch.sets += 1
        }
        output.streamsSeen = output.streamsSeen.filter { report.ownStreams[$0.key] != nil }
        return effects
    }

    /// "muted, 3 %" or "40 %" (the loudest channel).
    static func describe(_ levels: OutputLevels) -> String {
        (levels.isMuted ? "muted, " : "") + "\(levels.percent) %"
    }
}
