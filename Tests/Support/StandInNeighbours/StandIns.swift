import CGLib
import Foundation
import GLibSupport

/// The whole run: the log, the neighbours, the caller, the watches on the agent and its
/// player, and what standard output says. Lives on the main loop.
final class StandIns {
    /// The run, for the C callbacks (main loop only).
    nonisolated(unsafe) static var current: StandIns!

    let configuration: Configuration
    let log: ExchangeLog
    let neighbourhood: Neighbourhood
    let caller: Caller
    private let noise: Neighbour

    init(configuration: Configuration, sessionAddress: String, systemAddress: String?) {
        self.configuration = configuration
        log = ExchangeLog(path: configuration.logPath)
        log.note("-", "stand-in-neighbours", "seed \(configuration.seed)")
        neighbourhood = Neighbourhood(log: log, seed: configuration.seed, sessionAddress: sessionAddress, systemAddress: systemAddress)
        neighbourhood.start()
        noise = neighbourhood.neighbour("noise")!
        let labels = Set(neighbourhood.neighbours.map(\.label) + ["caller"])
        if !configuration.spared.isSubset(of: labels) {
            Self.fail("--spare names no neighbour: \(configuration.spared.subtracting(labels).sorted().joined(separator: ", ")) (there are \(labels.sorted().joined(separator: ", ")))")
        }
        // Some must misbehave, or the run shows nothing.
        if labels.isSubset(of: configuration.spared) { Self.fail("--spare spares every neighbour: nothing would be fuzzed") }
        if !configuration.spared.isEmpty { log.note("-", "stand-in-neighbours", "spared (they behave): \(configuration.spared.sorted().joined(separator: ", "))") }
        caller = Caller(neighbourhood: neighbourhood, neighbour: noise, log: log, seed: configuration.seed)
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("stand-in-neighbours: \(message)\n".utf8))
        exit(2)
    }

    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Waits for every neighbour's first connection, then starts the watches, the caller and the count.
    func whenConnected() {
        guard neighbourhood.neighbours.allSatisfy(\.isConnected), let connection = noise.connection else {
            MainLoop.after(seconds: 0.05) { [self] in whenConnected() }
            return
        }
        watch(on: connection)
        caller.start()
        Self.say("ready")
        count()
    }

    /// Follows the agent (its unique name, for the signals only an owner may send, and its
    /// leaving for the log) and Tocsin's media player (for the caller).
    private func watch(on connection: OpaquePointer) {
        _ = g_bus_watch_name_on_connection(connection, Caller.agentName, G_BUS_NAME_WATCHER_FLAGS_NONE, { _, _, owner, _ in
            let run = StandIns.current!
            let name = owner.map { String(cString: $0) }
            run.neighbourhood.agentName = name
            run.log.note("session", "watch", "the agent is on the bus as \(name ?? "?")")
        }, { _, _, _ in
            let run = StandIns.current!
            run.log.note("session", "watch", "the agent (\(run.neighbourhood.agentName ?? "?")) left the bus")
            run.neighbourhood.agentName = nil
        }, nil, nil)
        _ = g_bus_watch_name_on_connection(connection, Caller.playerName, G_BUS_NAME_WATCHER_FLAGS_NONE, { _, _, _, _ in
            StandIns.current.caller.playerChanged(present: true)
        }, { _, _, _ in
            StandIns.current.caller.playerChanged(present: false)
        }, nil, nil)
    }

    private func count() {
        if !configuration.quiet, log.exchanges >= configuration.exchanges {
            configuration.quiet = true
            log.note("-", "stand-in-neighbours", "\(log.exchanges) exchanges made: quiet from now on")
            Self.say("done \(log.exchanges)")
            sayKinds()
        } else if !configuration.quiet {
            Self.say("count \(log.exchanges)")
        }
        MainLoop.after(seconds: configuration.quiet ? 1 : 0.25) { [self] in count() }
    }

    /// "kinds call-empty=12,signal PrepareForSleep=40,…": the exchanges by kind.
    func sayKinds() {
        Self.say("kinds " + log.counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ","))
    }
}
