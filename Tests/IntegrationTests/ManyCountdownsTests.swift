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
        // Every countdown has its notification, updated in place: waited for, as the bus monitor
        // reports what the server received a moment after it did.
        var missing: [Int] = []
        let allShown = fixture.eventually(timeout: 5) {
            let titles = Set(fixture.session.notifications().map(\.summary))
            missing = (0..<60).filter { !titles.contains("Timer \($0)") }
            return missing.isEmpty
        }
        #expect(allShown, "never shown: \(missing)")
    }

    /// Countdown updates go without replies; without a brake, a server slower than the updates
    /// would fall further behind every second, and the alert of a timer that rings would wait
    /// behind all of them. Here a server that needs 100 ms per notification gets twenty
    /// countdowns (twice what it can draw) for eight seconds, and then a timer rings: its alert
    /// must reach the server within a few seconds, not after eight seconds of queued updates.
    /// With the brake at most a batch (2 s of drawing) is ahead of the new timer's first
    /// notification and of its alert, so under 7 s; without it (measured by disabling it) the
    /// alert took 14 s, and the wait grows by a second every second.
    @Test func aSlowServerIsSentFewerUpdatesAndTheAlertIsNotStuckBehindThem() throws {
        let fixture = try AgentSession("slow-server")
        let dunst = try #require(fixture.session.childProcesses.first { $0.name == "dunst" && $0.isRunning })
        dunst.terminate()
        _ = dunst.waitForExit(timeout: .seconds(5))
        let server = try fixture.session.launch(try AgentSession.binary("fake-notification-server"), ["--notify-delay-ms", "100"])
        defer { server.terminate() }
        #expect(fixture.eventually(timeout: 5) { server.standardOutput().contains("Ready") }, "\(server.standardError())")
        #expect(fixture.eventually(timeout: 3) { fixture.agentLog.contains("fake-notification-server 1.0") }, "\(fixture.agentLog)")

        for index in 0..<20 {
            _ = try fixture.startTimer("\(600 + index)s", "--title", "Busy \(index)")
        }
        Thread.sleep(forTimeInterval: 8)
        let id = try fixture.startTimer("1s", "--title", "Ring")
        let due = Date().addingTimeInterval(1)
        #expect(fixture.eventually(timeout: 15) { server.standardOutput().contains("|Ring|Time’s up") }, "the alert never reached the server")
        let alertLate = Date().timeIntervalSince(due)
        #expect(alertLate < 7, "the alert reached the slow server \(alertLate) s after the timer rang")
        // Held-back updates are dropped for newer ones, never a countdown left out.
        let busyLines = server.standardOutput().split(separator: "\n").filter { $0.contains("|Busy ") }
        #expect((0..<20).allSatisfy { index in busyLines.contains { $0.contains("|Busy \(index)|") } })
        #expect(try fixture.tocsin("stop", id).status == 0)
    }
}
