import BusTestSupport
import CGLib
import Foundation
import GLibSupport
import Testing
@testable import TocsinEdge

/// Media players that answer wrongly, on a private bus: each kind of wrong answer is "not known"
/// (never a trap), said once per player and kind; a right answer is read as it is.
@Suite(.serialized) struct MPRISPlayersTests {
    /// What a stand-in player answers to `Get(PlaybackStatus)`, and what the agent must make of it.
    static let statusAnswers: [(answer: StandInPeer.Answer, expected: MPRISPlayers.Status?, label: String)] = [
        (.reply("(<'Playing'>,)"), .playing, "the right answer"),
        (.reply("()"), nil, "no value at all (the agent trapped on this)"),
        (.reply("('Playing',)"), nil, "a string where a variant is due"),
        (.reply("(<42>,)"), nil, "a variant holding a number"),
        (.reply("(<'Dancing'>,)"), nil, "a status MPRIS does not name"),
        (.reply("(<'Playing'>, <'Paused'>)"), nil, "two values"),
        (.replyMadeBy({ Variant.tuple([g_variant_new_variant(g_variant_new_string(String(repeating: "P", count: 100_000)))]) }), nil,
         "a 100 kB status"),
        (.reply("(<<<<<<<<'Playing'>>>>>>>>,)"), nil, "a status nested eight variants deep"),
        (.error(name: "org.example.Odd.Error", message: String(repeating: "é", count: 5000)), nil, "an error with a 5 kB message"),
        (.never, nil, "no answer"),
    ]

    @Test("A player's PlaybackStatus is read only when it is what MPRIS says it is", arguments: 0..<statusAnswers.count)
    func playbackStatusIsCheckedBeforeItIsRead(_ index: Int) throws {
        let (answer, expected, label) = Self.statusAnswers[index]
        let bus = try PrivateBus()
        defer { bus.stop() }
        let player = try StandInPeer(on: bus.address, name: "org.mpris.MediaPlayer2.standin") { _ in answer }
        defer { player.stop() }
        try withOwnMainContext { context in
            let lines = SaidLines()
            let faults = NeighbourFaults(say: lines.say)
            let agent = try bus.connect()
            defer { g_object_unref(UnsafeMutableRawPointer(agent)) }
            let players = MPRISPlayers(connection: agent, faults: faults, timeoutMilliseconds: 300)
            var answers: [MPRISPlayers.Status?] = []
            for _ in 0..<2 { players.playbackStatus(of: "org.mpris.MediaPlayer2.standin") { answers.append($0) } }
            #expect(runMainContext(context, for: 3) { answers.count == 2 }, "\(label): \(answers.count) answers")
            #expect(answers == [expected, expected], "\(label)")
            if expected == nil {
                #expect(lines.all.count == 1, "\(label): said \(lines.all.count) times, not once: \(lines.all)")
                #expect(lines.all.allSatisfy { $0.contains("org.mpris.MediaPlayer2.standin") && $0.count < 600 }, "\(label): \(lines.all)")
            } else {
                #expect(lines.all.isEmpty, "\(label): \(lines.all)")
            }
        }
    }

    @Test func pauseAndPlayCountOnlyAnEmptyReplyAsDone() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let answers: [String: StandInPeer.Answer] = [
            "org.mpris.MediaPlayer2.good": .reply("()"), "org.mpris.MediaPlayer2.chatty": .reply("('done',)"),
            "org.mpris.MediaPlayer2.refusing": .error(name: "org.mpris.MediaPlayer2.Player.Error.NotSupported", message: "no"),
            "org.mpris.MediaPlayer2.frozen": .never,
        ]
        let peers = try answers.map { name, answer in try StandInPeer(on: bus.address, name: name) { _ in answer } }
        defer { peers.forEach { $0.stop() } }
        try withOwnMainContext { context in
            let agent = try bus.connect()
            defer { g_object_unref(UnsafeMutableRawPointer(agent)) }
            let players = MPRISPlayers(connection: agent, faults: NeighbourFaults { _ in }, timeoutMilliseconds: 300)
            var outcomes: [String: MPRISPlayers.CommandOutcome] = [:]
            for name in answers.keys { players.pause(name) { outcomes[name] = $0 } }
            players.play("org.mpris.MediaPlayer2.nobody") { outcomes["org.mpris.MediaPlayer2.nobody"] = $0 }
            #expect(runMainContext(context, for: 3) { outcomes.count == answers.count + 1 })
            #expect(outcomes == ["org.mpris.MediaPlayer2.good": .done, "org.mpris.MediaPlayer2.chatty": .unanswered,
                                 "org.mpris.MediaPlayer2.refusing": .refused, "org.mpris.MediaPlayer2.frozen": .unanswered,
                                 "org.mpris.MediaPlayer2.nobody": .refused])
            #expect(peers.allSatisfy { $0.calls.map(\.member) == ["Pause"] })
        }
    }

    @Test func thousandsOfPlayerNamesAreReadAsAtMostSixtyFour() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let owner = try bus.connect()
        defer { g_object_unref(UnsafeMutableRawPointer(owner)) }
        for index in 0..<200 { try PrivateBus.requestName("org.mpris.MediaPlayer2.p\(index)", on: owner) }
        try withOwnMainContext { context in
            let agent = try bus.connect()
            defer { g_object_unref(UnsafeMutableRawPointer(agent)) }
            var listed: [String]?
            MPRISPlayers(connection: agent, faults: NeighbourFaults { _ in }).listPlayers { listed = $0 }
            #expect(runMainContext(context, for: 3) { listed != nil })
            #expect(listed?.count == MPRISPlayers.playerLimit)
            #expect(listed?.allSatisfy { $0.hasPrefix(MPRISPlayers.namePrefix) } == true)
        }
    }
}
