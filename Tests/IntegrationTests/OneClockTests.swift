import Foundation
import HeadlessSession
import Testing

/// Every place that shows when a timer ends shows the agent's own fire time, rounded the same
/// way: `tocsin timer`'s note, the notification, `tocsin list` and `tocsin show`. Timers are
/// started so that they end just before and just after a minute begins, where a time worked out
/// from another clock, a moment earlier, falls on the minute before.
@Suite(.serialized) struct OneClockTests {
    @Test func timersEndingAroundAMinuteShowOneEndTimeEverywhere() throws {
        let fixture = try AgentSession("one-clock")
        // The next minute at least 10 s away, so every timer below can still be started in time.
        let now = Date().timeIntervalSince1970
        var minute = (now / 60).rounded(.up) * 60
        if minute - now < 10 { minute += 60 }
        // Whole-second timers (as typed), started so they end at these offsets from the minute;
        // the last is typed while the agent is busy (stopped for a quarter of a second), so it
        // starts the timer well after the command read its own clock, and across the minute.
        let timers: [(offset: Double, seconds: Int, agentBusy: Bool)] = [(-0.5, 9), (-0.08, 8), (0.03, 7), (0.3, 6), (-0.1, 5)]
            .map { ($0.0, $0.1, $0.1 == 5) }
        var started: [(id: String, note: String, seconds: Int)] = []
        for (index, timer) in timers.enumerated() {
            let startAt = minute + timer.offset - Double(timer.seconds)
            let wait = startAt - Date().timeIntervalSince1970
            try #require(wait > 0, "timer \(index) could not be started in time (\(wait) s late)")
            Thread.sleep(forTimeInterval: wait)
            let arguments = ["timer", String(timer.seconds), "--title", "Clock \(index)"]
            let result: CommandResult
            if timer.agentBusy {
                fixture.agent.kill(signal: SIGSTOP)
                let command = try fixture.session.launch(try AgentSession.binary("tocsin"), arguments)
                Thread.sleep(forTimeInterval: 0.25)
                fixture.agent.kill(signal: SIGCONT)
                let status = try #require(command.waitForExit(timeout: .seconds(10)), "tocsin timer did not finish")
                result = CommandResult(status: status, stdout: command.standardOutput(), stderr: command.standardError())
            } else {
                result = try fixture.tocsin(arguments, environment: [:])
            }
            try #require(result.status == 0, "\(result)")
            started.append((result.stdout.trimmingCharacters(in: .whitespacesAndNewlines), result.stderr, timer.seconds))
        }

        // The session's agent and command line both use the machine's zone.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone.current
        let list = try fixture.tocsin("list")
        var sides: Set<String> = []
        for (index, timer) in started.enumerated() {
            let alarm = try #require(try fixture.alarm(timer.id))
            let fire = Date(timeIntervalSince1970: try #require(alarm.number("fire-time")))
            let parts = calendar.dateComponents([.hour, .minute], from: fire)
            let expected = String(format: "%02d:%02d", parts.hour!, parts.minute!)
            sides.insert(expected)

            #expect(timer.note.contains("rings in \(timer.seconds) s, at \(expected)."), "timer \(index), due \(fire): \(timer.note)")
            let row = try #require(list.stdout.split(separator: "\n").first { $0.hasPrefix(String(timer.id.prefix(8))) }, "\(list.stdout)")
            #expect(row.contains("rings \(expected)"), "timer \(index), due \(fire): \(row)")
            let shown = try fixture.tocsin("show", timer.id)
            #expect(shown.stdout.contains(expected), "timer \(index), due \(fire): \(shown.stdout)")
            let notification = try fixture.waitForNotification(titled: "Clock \(index)") { $0.body.contains("ends") }
            #expect(notification.body.contains("ends \(expected)."), "timer \(index), due \(fire): \(notification.body)")
        }
        // The timers did end on both sides of the minute: the test looked where clocks disagree.
        #expect(sides.count == 2, "every timer ended on the same side of the minute: \(sides)")
        #expect(try fixture.tocsin("cancel", started[0].id).status == 0)
    }
}
