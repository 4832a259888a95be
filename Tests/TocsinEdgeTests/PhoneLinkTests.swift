import BusTestSupport
import CGLib
import Foundation
import GLibSupport
import Testing
import TocsinCore
@testable import TocsinEdge

/// KDE Connect's and GSConnect's daemons answering wrongly, as the neighbour fuzzer's stand-ins
/// did (each of these trapped or aborted the agent): the answer is the service's failure, named,
/// never a trap; ids that cannot name an object are dropped; lists are bounded.
@Suite(.serialized) struct PhoneLinkTests {
    /// What `link.findPhones` says when its daemon `name` answers every call with `answer`.
    static func found(by link: PhoneLink, daemon name: String, answering answer: StandInPeer.Answer) throws -> PhoneReach.Answer {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let daemon = try StandInPeer(on: bus.address, name: name) { _ in answer }
        defer { daemon.stop() }
        return try withOwnMainContext { context in
            let connection = try bus.connect()
            defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
            var found: PhoneReach.Answer?
            link.findPhones(on: connection) { found = $0 }
            runMainContext(context, for: 8) { found != nil }
            return try #require(found, "no answer")
        }
    }

    @Test(arguments: ["()", "(@a{sv} {},)", "(uint32 7,)", "('phone',)", "(@as ['a', 'b'], true)"])
    func kdeConnectAnsweringOtherThanAListOfIdsIsNoAnswer(_ body: String) throws {
        let answer = try Self.found(by: KDEConnectLink(), daemon: "org.kde.kdeconnect", answering: .reply(body))
        guard case .noAnswer(let why) = answer else {
            Issue.record("\(body) read as \(answer)")
            return
        }
        #expect(why.contains("(as)"), "\(why)")
    }

    @Test func kdeConnectIdsThatCannotNameAnObjectAreDroppedAndTheListIsBounded() throws {
        let ids = ["a b", "../x", "", "ok_1"] + (0..<100).map { "phone\($0)" }
        let answer = try Self.found(by: KDEConnectLink(), daemon: "org.kde.kdeconnect",
                                    answering: .replyMadeBy({ Variant.tuple([Variant.make(strings: ids)]) }))
        guard case .phones(let phones) = answer else {
            Issue.record("read as \(answer)")
            return
        }
        #expect(phones.count <= 16, "\(phones.count) phones")
        #expect(phones.first?.id == "ok_1")
        #expect(phones.allSatisfy { g_variant_is_object_path($0.objectPath) != 0 }, "\(phones.map(\.objectPath))")
    }

    @Test(arguments: ["()", "(@a{sv} {},)", "(@as [],)", "(1.5, uint32 2)", "('x',)"])
    func gsConnectAnsweringOtherThanItsObjectsIsNoAnswer(_ body: String) throws {
        let answer = try Self.found(by: GSConnectLink(), daemon: GSConnectService.busName, answering: .reply(body))
        guard case .noAnswer(let why) = answer else {
            Issue.record("\(body) read as \(answer)")
            return
        }
        #expect(why.contains("(a{oa{sa{sv}}})"), "\(why)")
    }

    @Test func aDaemonThatNeverAnswersIsNoAnswerInTime() throws {
        let answer = try Self.found(by: KDEConnectLink(), daemon: "org.kde.kdeconnect", answering: .never)
        #expect(answer == .noAnswer("no answer in time"), "\(answer)")
    }
}
