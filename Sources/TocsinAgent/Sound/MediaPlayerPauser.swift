import CGLib
import FoundationEssentials
import GLibSupport

/// Pauses media players while an alarm rings and resumes them after, as KDE's alarm clock does,
/// so music never drowns the alarm. Players are found through MPRIS on the session bus; only
/// those that were playing are paused, and only those are resumed. Tocsin's own player (the
/// ringing alarm, `RingingPlayer`) is never one of them.
///
/// Nothing here waits for a player: every call is asynchronous, with a timeout, and its answer is
/// taken as it comes. A frozen player (a stopped browser tab is enough) used to hold the agent's
/// loop for a second per call, while no other alarm fired and no request was answered. Answers
/// that come after the ring ended are read against the ring that is now: a player paused by a
/// late answer once the ring is over is resumed at once.
final class MediaPlayerPauser {
    private let log: AgentLog
    private let connection: OpaquePointer?
    /// The player never paused: Tocsin's own, whose Pause stops the alarm.
    private let spared: String
    /// Whether an alarm rings now: what a late answer is read against.
    private var ringing = false
    /// Players this agent paused, by bus name.
    private var paused: Set<String> = []

    private static let playerPath = "/org/mpris/MediaPlayer2"
    private static let playerInterface = "org.mpris.MediaPlayer2.Player"
    /// How long a player may take to answer: a player that does not answer by then is left alone.
    private static let timeoutMilliseconds: Int32 = 1000

    /// A pauser on the session bus, which leaves the player named `spared` alone.
    init(log: AgentLog, sparing spared: String) {
        self.log = log
        self.spared = spared
        // Without a session bus there are no players to pause.
        connection = try? GLibError.check { g_bus_get_sync(G_BUS_TYPE_SESSION, nil, $0) }
    }

    /// Pauses every player that is playing, as their answers come.
    func pausePlayers() {
        ringing = true
        guard let connection else { return }
        AsyncBusCall.start(connection, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                           method: "ListNames", arguments: nil, flags: G_DBUS_CALL_FLAGS_NONE, timeoutMilliseconds: Self.timeoutMilliseconds) { [weak self] reply, _ in
            guard let self, let reply, self.ringing else { return }
            for name in Self.playerNames(in: reply) where name != self.spared {
                self.playbackStatus(of: name) { status in
                    guard status == "Playing", self.ringing else { return }
                    // A player that froze after saying it plays may pause once it thaws: it is
                    // counted as paused, so the end of the ring looks at it again.
                    self.call(name, "Pause") { outcome in
                        guard outcome != .refused else { return }
                        if self.ringing {
                            self.paused.insert(name)
                            if outcome == .done { self.log.info("Paused the media player \(name) while the alarm rings.") }
                        } else {
                            // The ring ended while the player was being paused: it plays again.
                            self.call(name, "Play") { _ in }
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
        let players = paused
        paused.removeAll()
        for name in players {
            playbackStatus(of: name) { [weak self] status in
                guard let self, status == "Paused", !self.ringing else { return }
                self.call(name, "Play") { outcome in
                    if outcome == .done { self.log.info("Resumed the media player \(name).") }
                }
            }
        }
    }

    /// The MPRIS players among the names of a `ListNames` reply.
    private static func playerNames(in reply: OpaquePointer) -> [String] {
        let names = Variant.child(reply, 0)
        defer { g_variant_unref(names) }
        return (0..<g_variant_n_children(names)).compactMap { index in
            let item = g_variant_get_child_value(names, index)!
            defer { g_variant_unref(item) }
            let name = String(cString: g_variant_get_string(item, nil))
            return name.hasPrefix("org.mpris.MediaPlayer2.") ? name : nil
        }
    }

    /// The player's `PlaybackStatus`, or `nil` when it does not say in time.
    private func playbackStatus(of name: String, _ answer: @escaping (String?) -> Void) {
        guard let connection else { return answer(nil) }
        AsyncBusCall.start(connection, destination: name, path: Self.playerPath, interface: "org.freedesktop.DBus.Properties", method: "Get",
                           arguments: Variant.tuple([g_variant_new_string(Self.playerInterface), g_variant_new_string("PlaybackStatus")]),
                           flags: G_DBUS_CALL_FLAGS_NO_AUTO_START, timeoutMilliseconds: Self.timeoutMilliseconds) { reply, _ in
            guard let reply else { return answer(nil) }
            let value = Variant.child(reply, 0)
            defer { g_variant_unref(value) }
            if case .string(let status) = Variant.wireValue(value) { answer(status) } else { answer(nil) }
        }
    }

    /// How a call to a player came out.
    private enum Outcome {
        /// It answered.
        case done
        /// It did not answer in time: it may still do it, later.
        case unanswered
        /// It answered with an error, or could not be called.
        case refused
    }

    /// Calls `method` on a player; `outcome` says how it came out.
    private func call(_ name: String, _ method: String, _ outcome: @escaping (Outcome) -> Void) {
        guard let connection else { return outcome(.refused) }
        AsyncBusCall.start(connection, destination: name, path: Self.playerPath, interface: Self.playerInterface, method: method,
                           arguments: nil, flags: G_DBUS_CALL_FLAGS_NO_AUTO_START, timeoutMilliseconds: Self.timeoutMilliseconds) { [weak self] _, error in
            guard let error else { return outcome(.done) }
            self?.log.info("The media player \(name) did not \(method.lowercased()) in time: \(error.message)")
            outcome(error.isTimeout ? .unanswered : .refused)
        }
    }
}
