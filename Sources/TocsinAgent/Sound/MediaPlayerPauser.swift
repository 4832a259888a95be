import TocsinEdge

/// Pauses media players while an alarm rings and resumes them after, as KDE's alarm clock does,
/// so music never drowns the alarm. Players are found through MPRIS on the session bus; only
/// those that were playing are paused, and only those are resumed. Tocsin's own player (the
/// ringing alarm, `RingingPlayer`) is never one of them.
///
/// Nothing here waits for a player: every call is asynchronous, with a timeout, and its answer is
/// taken as it comes, checked by `MPRISPlayers` (a wrong answer counts as "not known"). A frozen
/// player (a stopped browser tab is enough) used to hold the agent's loop for a second per call,
/// while no other alarm fired and no request was answered. Answers that come after the ring
/// ended are read against the ring that is now: a player paused by a late answer once the ring
/// is over is resumed at once.
final class MediaPlayerPauser {
    private let log: AgentLog
    private let players: MPRISPlayers
    /// The player never paused: Tocsin's own, whose Pause stops the alarm.
    private let spared: String
    /// Whether an alarm rings now: what a late answer is read against.
    private var ringing = false
    /// Players this agent paused, by bus name.
    private var paused: Set<String> = []

    /// A pauser asking `players`, which leaves the player named `spared` alone.
    init(log: AgentLog, players: MPRISPlayers, sparing spared: String) {
        self.log = log
        self.players = players
        self.spared = spared
    }

    /// Pauses every player that is playing, as their answers come.
    func pausePlayers() {
        ringing = true
        players.listPlayers { [weak self] names in
            guard let self, ringing else { return }
            for name in names where name != spared {
                players.playbackStatus(of: name) { status in
                    guard status == .playing, self.ringing else { return }
                    // A player that froze after saying it plays may pause once it thaws: it is
                    // counted as paused, so the end of the ring looks at it again.
                    self.players.pause(name) { outcome in
                        guard outcome != .refused else { return }
                        if self.ringing {
                            self.paused.insert(name)
                            if outcome == .done { self.log.info("Paused the media player \(name) while the alarm rings.") }
                        } else {
                            // The ring ended while the player was being paused: it plays again.
                            self.players.play(name) { _ in }
                        }
                    }
                }
            }
        }
    }

    /// Resumes the players `pausePlayers` paused, if they are still paused (the user may have
    /// changed something meanwhile).
    func resumePlayers() {
        ringing = false
        let pausedByTocsin = paused
        paused.removeAll()
        for name in pausedByTocsin {
            players.playbackStatus(of: name) { [weak self] status in
                guard let self, status == .paused, !ringing else { return }
                players.play(name) { outcome in
                    if outcome == .done { self.log.info("Resumed the media player \(name).") }
                }
            }
        }
    }
}
