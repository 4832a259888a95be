import Foundation

/// The command line: `stand-in-neighbours --seed N --log FILE [--exchanges N] [--signals-per-second R]
/// [--notifications] [--spare LABEL,…]`.
final class Configuration: @unchecked Sendable {
    /// The one configuration, read once at start (main thread only afterwards).
    nonisolated(unsafe) static var shared = Configuration()

    var seed: UInt64 = 1
    var logPath = "stand-in-neighbours.log"
    /// After this many exchanges the stand-ins go quiet: they answer correctly and send nothing.
    var exchanges = Int.max
    /// How many signals a second all the sources send together, on average.
    var signalsPerSecond = 24.0
    /// Whether a stand-in takes the notification server's name (queued behind a real server
    /// until it goes).
    var notifications = false
    /// Neighbours (labels: player1, kdeconnect, caller…) that behave: they answer correctly
    /// and send no signal (the caller calls nothing), so that a run gets past a bug already known.
    var spared: Set<String> = []
    /// Quiet: every answer correct, no signal, no call (after `exchanges`).
    var quiet = false

    static func parse(_ arguments: [String]) -> Configuration {
        let configuration = Configuration()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--seed": configuration.seed = rest.popFirst().flatMap { UInt64($0) } ?? configuration.seed
            case "--log": configuration.logPath = rest.popFirst() ?? configuration.logPath
            case "--exchanges": configuration.exchanges = rest.popFirst().flatMap { Int($0) } ?? configuration.exchanges
            case "--signals-per-second": configuration.signalsPerSecond = rest.popFirst().flatMap { Double($0) } ?? configuration.signalsPerSecond
            case "--notifications": configuration.notifications = true
            case "--spare": configuration.spared.formUnion((rest.popFirst() ?? "").split(separator: ",").map(String.init))
            default:
                FileHandle.standardError.write(Data("stand-in-neighbours: unknown argument \(argument)\n".utf8))
                exit(2)
            }
        }
        return configuration
    }
}
