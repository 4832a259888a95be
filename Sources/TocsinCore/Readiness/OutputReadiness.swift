import FoundationEssentials

/// What `tocsin doctor` says of the sound output: whether a ringing alarm will be heard on it as
/// it is set now, from the agent's status (`sound-server`, `output`, `output-muted`,
/// `output-volume`, `raise-output`, `ring-level`).
public enum OutputReadiness {
    /// The report for `output` (`nil`: no sound server answers the agent) with raising as
    /// `settings` say.
    public static func report(_ output: Output?, settings: OutputRaiseSettings) -> ReadinessReport {
        guard let output else {
            return ReadinessReport(.problem, "no sound server answers the agent: alarms cannot be heard, and a muted output cannot be raised",
                                   fix: "Start PulseAudio or PipeWire (pipewire-pulse) in your session.")
        }
        guard let sink = output.sink, let percent = output.percent, let muted = output.isMuted else {
            return ReadinessReport(.problem, "\(output.server) has no output to play alarms on", fix: "Connect or enable an output (speakers, headphones).")
        }
        let state = (muted ? "muted, " : "") + "\(percent) %"
        let quiet = muted || percent < settings.levelPercent
        if settings.raises {
            return ReadinessReport(.ok, "\(sink) on \(output.server), \(state): "
                + (quiet ? "a ringing alarm raises it to \(settings.levelPercent) % and puts it back when it stops"
                         : "alarms are heard (a quieter output would be raised to \(settings.levelPercent) % while one rings)"))
        }
        guard quiet else {
            return ReadinessReport(.ok, "\(sink) on \(output.server), \(state); raising is off (alarms with --ring-level still raise it)")
        }
        return ReadinessReport(.warning, "\(sink) on \(output.server) is \(state) and raising is off: alarms may not be heard",
                               fix: "tocsin config raise-output yes, or give alarms --ring-level PERCENT; or unmute and turn it up.")
    }

    /// The output as the agent's status describes it.
    public struct Output: Sendable, Equatable {
        /// The sound server, e.g. "PulseAudio (on PipeWire 0.3.65) 15.0.0".
        public var server: String
        /// The default output's sink name; `nil` when there is none.
        public var sink: String?
        /// Its loudest channel, in percent.
        public var percent: Int?
        /// Whether it is muted.
        public var isMuted: Bool?

        /// An output of `server`.
        public init(server: String, sink: String?, percent: Int?, isMuted: Bool?) {
            self.server = server
            self.sink = sink
            self.percent = percent
            self.isMuted = isMuted
        }
    }
}
