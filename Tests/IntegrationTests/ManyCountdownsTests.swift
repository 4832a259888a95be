import Foundation
import HeadlessSession
import Testing

/// Many live countdowns at once must not make the agent slow to answer: notifications are sent
/// without waiting for a server busy redrawing them all.
@Suite(.serialized) struct ManyCountdownsTests {
    @Test func sixtyCountdownsLeaveTheAgentResponsive() throws {
        let fixture = try AgentSession("many-countdowns")
        for index in 0..<60 {
            _ = try fixture.startTimer("\(600 + index)s", "--title", "Timer \(index)")
        }
        var slowest = 0.0
        for _ in 0..<5 {
            let start = Date()
            #expect(try fixture.tocsin("list").status == 0)
            slowest = max(slowest, Date().timeIntervalSince(start))
            Thread.sleep(forTimeInterval: 0.7)
        }
        #expect(slowest < 0.5, "tocsin list took \(slowest) s with 60 countdowns on screen")
        // Every countdown still has its notification, updated in place.
        let titles = Set(fixture.session.notifications().map(\.summary))
        #expect((0..<60).allSatisfy { titles.contains("Timer \($0)") })
    }
}
