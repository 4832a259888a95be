import CGLib
import GLibSupport

/// Other programs' media players, as MPRIS (`org.mpris.MediaPlayer2.*` on the session bus)
/// gives them: which are on the bus, whether each plays, and its `Pause` and `Play`.
///
/// Every question is asked without waiting, with a timeout, and every answer is checked: a
/// player whose `Get` answers with no value, with a number for its status or with an error is
/// one named failure of that player (said once in the log through `NeighbourFaults`), and its
/// answer is "not known". Lives on the thread-default main context it is used on.
public final class MPRISPlayers {
    /// What a player says it is doing (`PlaybackStatus`).
    public enum Status: String, Sendable {
        case playing = "Playing", paused = "Paused", stopped = "Stopped"
    }

    /// How a `Pause` or `Play` came out.
    public enum CommandOutcome: Sendable, Equatable {
        /// The player answered as MPRIS says.
        case done
        /// It did not answer in time, or answered in a shape MPRIS does not give: it may have
        /// done it, or may yet.
        case unanswered
        /// It answered with an error, or is not on the bus.
        case refused
    }

    /// The most players the agent looks at: a session has a handful; a program that takes
    /// thousands of player names is not allowed to make the agent ask each.
    public static let playerLimit = 64
    /// The bus names of MPRIS players start with this.
    public static let namePrefix = "org.mpris.MediaPlayer2."
    static let path = "/org/mpris/MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"

    private let connection: OpaquePointer?
    private let faults: NeighbourFaults
    private let timeoutMilliseconds: Int32

    /// Players on `connection` (the session bus; `nil`: none), whose wrong answers go to
    /// `faults`, each asked for at most `timeoutMilliseconds`.
    public init(connection: OpaquePointer?, faults: NeighbourFaults, timeoutMilliseconds: Int32 = 1000) {
        self.connection = connection
        if let connection { g_object_ref(UnsafeMutableRawPointer(connection)) }
        self.faults = faults
        self.timeoutMilliseconds = timeoutMilliseconds
    }

    deinit {
        if let connection { g_object_unref(UnsafeMutableRawPointer(connection)) }
    }

    /// The players on the bus now (at most `playerLimit`), from the bus daemon's `ListNames`;
    /// none when it cannot say.
    public func listPlayers(_ answer: @escaping ([String]) -> Void) {
        guard let connection else { return answer([]) }
        BusCall.start(connection, destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                      method: "ListNames", arguments: nil, replyType: "(as)", flags: G_DBUS_CALL_FLAGS_NONE,
                      timeoutMilliseconds: timeoutMilliseconds) { [faults] result in
            switch result {
            case .success(let reply): answer(Self.playerNames(in: reply))
            case .failure(let failure):
                faults.record(failure, from: "the bus daemon", asked: "ListNames")
                answer([])
            }
        }
    }

    /// The player `name`'s `PlaybackStatus`, or `nil` when it does not say it in time and in
    /// MPRIS's words.
    public func playbackStatus(of name: String, _ answer: @escaping (Status?) -> Void) {
        guard let connection else { return answer(nil) }
        let arguments = Variant.tuple([g_variant_new_string(Self.playerInterface), g_variant_new_string("PlaybackStatus")])
        BusCall.start(connection, destination: name, path: Self.path, interface: "org.freedesktop.DBus.Properties", method: "Get",
                      arguments: arguments, replyType: "(v)", flags: G_DBUS_CALL_FLAGS_NO_AUTO_START,
                      timeoutMilliseconds: timeoutMilliseconds) { [faults] result in
            switch result {
            case .success(let reply):
                guard let status = Self.status(in: reply) else {
                    faults.record(.wrongValue(message: "a PlaybackStatus that is not Playing, Paused or Stopped"), from: Self.neighbour(name), asked: "PlaybackStatus")
                    return answer(nil)
                }
                answer(status)
            case .failure(let failure):
                faults.record(failure, from: Self.neighbour(name), asked: "PlaybackStatus")
                answer(nil)
            }
        }
    }

    /// Asks the player `name` to pause.
    public func pause(_ name: String, _ outcome: @escaping (CommandOutcome) -> Void) {
        command("Pause", name, outcome)
    }

    /// Asks the player `name` to play.
    public func play(_ name: String, _ outcome: @escaping (CommandOutcome) -> Void) {
        command("Play", name, outcome)
    }

    private func command(_ method: String, _ name: String, _ outcome: @escaping (CommandOutcome) -> Void) {
        guard let connection else { return outcome(.refused) }
        BusCall.start(connection, destination: name, path: Self.path, interface: Self.playerInterface, method: method,
                      arguments: nil, replyType: "()", flags: G_DBUS_CALL_FLAGS_NO_AUTO_START,
                      timeoutMilliseconds: timeoutMilliseconds) { [faults] result in
            switch result {
            case .success:
                outcome(.done)
            case .failure(let failure):
                faults.record(failure, from: Self.neighbour(name), asked: method)
                switch failure {
                case .timedOut, .wrongType, .wrongValue: outcome(.unanswered)
                case .absent, .errorReply, .noConnection: outcome(.refused)
                }
            }
        }
    }

    /// How the log names the player `name`.
    static func neighbour(_ name: String) -> String { "The media player \(name)" }

    /// The MPRIS players among the names of a checked `ListNames` reply, `playerLimit` at most.
    static func playerNames(in reply: OpaquePointer) -> [String] {
        let names = Variant.child(reply, 0)
        defer { g_variant_unref(names) }
        var players: [String] = []
        for index in 0..<g_variant_n_children(names) where players.count < playerLimit {
            let item = g_variant_get_child_value(names, index)!
            defer { g_variant_unref(item) }
            // A bus name is at most 255 bytes (the D-Bus specification).
            let name = Variant.boundedString(item, maxBytes: 255)
            if name.hasPrefix(namePrefix) { players.append(name) }
        }
        return players
    }

    /// The status in a checked `(v)` reply, if it is a string MPRIS names.
    static func status(in reply: OpaquePointer) -> Status? {
        guard case .string(let text) = Variant.boxedValue(in: reply, at: 0), text.utf8.count <= 16 else { return nil }
        return Status(rawValue: text)
    }
}
