import GLibSupport

/// Says in the log when another program answered the agent wrongly — once per neighbour and
/// kind of failure, not once per call: a player that answers every question wrongly, or a locker
/// sending a malformed signal ten times a second, costs the journal one line each.
///
/// What it remembers is bounded: after `limit` neighbour-and-kind pairs it says once that it
/// stops counting, so a program that takes thousands of bus names cannot grow the agent.
/// Lives on the agent's main loop.
public final class NeighbourFaults {
    private let say: (String) -> Void
    private let limit: Int
    private var said: Set<String> = []
    private var saidEnough = false

    /// Faults said through `say`, remembering at most `limit` neighbour-and-kind pairs.
    public init(limit: Int = 500, say: @escaping (String) -> Void) {
        self.limit = limit
        self.say = say
    }

    /// How many distinct neighbour-and-kind pairs have been said.
    public var count: Int { said.count }

    /// `neighbour` (such as "the media player org.mpris.MediaPlayer2.vlc") answered `asked`
    /// (such as "PlaybackStatus") with `failure`.
    public func record(_ failure: BusCallFailure, from neighbour: String, asked: String) {
        sayOnce(neighbour, failure.kind, "\(neighbour) answered \(asked) with \(failure); Tocsin goes on without it and says this once.")
    }

    /// `neighbour`, reached through a C library rather than the bus (the sound server through
    /// libpulse, libcanberra itself), answered `asked` wrongly: `kind` names the kind of failure,
    /// one line per neighbour and kind, and `failure` says what came.
    public func record(kind: String, failure: String, from neighbour: String, asked: String) {
        sayOnce(neighbour, kind, "\(neighbour) answered \(asked) with \(BusCallFailure.bounded(failure)); Tocsin goes on without it and says this once.")
    }

    /// `neighbour` sent `signal` with a body of `type` where its protocol gives `expected`.
    public func recordWrongSignal(from neighbour: String, signal: String, type: String, expected: String) {
        sayOnce(neighbour, "signal \(signal)", "\(neighbour) sent \(signal) with a body of type \(type), not \(expected); Tocsin ignores such signals and says this once.")
    }

    private func sayOnce(_ neighbour: String, _ kind: String, _ line: String) {
        let key = BusCallFailure.bounded(neighbour) + "\u{0}" + kind
        guard !said.contains(key) else { return }
        guard said.count < limit else {
            if !saidEnough {
                saidEnough = true
                say("More than \(limit) neighbours answered wrongly; further wrong answers are not logged.")
            }
            return
        }
        said.insert(key)
        say(line)
    }
}
