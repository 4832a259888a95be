import Foundation
import HeadlessSession
import Testing

/// Chime (Tests/PortedApp): an iPhone alarm app's AlarmKit code, ported by changing its imports,
/// run against the real agent in each of the three builds (Swift 5, Swift 6, a new Xcode 26 app
/// target's settings). Its walkthrough asks to set alarms, sets one of every kind, lists them,
/// pauses and resumes a timer, follows it through `alarmUpdates` until it rings, and deletes
/// everything; this test answers as the person would: Allow, then Snooze on the ringing
/// notification, whose SnoozeIntent the running app then performs.
@Suite(.serialized) struct PortedAppTests {
    @Test(arguments: ["chime-xcode26", "chime-swift6", "chime-swift5"])
    func theWalkthroughSchedulesEveryKindAndTheAppPerformsTheSnoozePressed(build: String) throws {
        let fixture = try AgentSession(build)
        let app = try fixture.session.launch(try AgentSession.binary(build), ["walkthrough"])
        let question = try fixture.waitForNotification(titled: "Allow “\(build)” to set alarms?", timeout: .seconds(15))
        _ = try fixture.session.clickAction(label: "Allow", onNotification: question.id)

        let ringing = try fixture.waitForNotification(titled: "Green tea is ready", timeout: .seconds(30)) {
            $0.urgency == 2 && $0.actions.first?.label == "Stop"
        }
        #expect(ringing.buttonLabels == ["Stop", "Snooze"])
        _ = try fixture.session.clickAction(label: "Snooze", onNotification: ringing.id)

        let status = app.waitForExit(timeout: .seconds(60))
        let output = app.standardOutput()
        let report = "\(output)\n\(app.standardError())\n\(fixture.agentLog)"
        #expect(status == 0, "\(report)")
        let lines = output.split(separator: "\n").map(String.init)
        let tea = try #require(lines.first { $0.hasPrefix("tea is ") }.map { String($0.dropFirst("tea is ".count)) }, "\(report)")

        // Each kind, read back as the app's own switches over the schedule and state describe it.
        let scheduled: [(String, (String) -> Bool)] = [
            ("wake-up", { $0.hasPrefix("Mon, Wed, Fri at ") && $0.hasSuffix(":15, waiting (Gym)") }),
            ("nap", { $0.hasPrefix("once at ") && $0.hasSuffix(":45, waiting") }),
            ("reminder", { $0.hasPrefix("on ") && $0.hasSuffix(", waiting (Standup)") }),
            ("pills", { $0.hasPrefix("on ") && $0.hasSuffix(", waiting (Pills)") }),
            ("eggs", { $0 == "timer, counting down" }),
            ("siri timer", { $0 == "timer, counting down" }),
            ("siri alarm", { $0.hasPrefix("Sat, Sun at ") && $0.hasSuffix(":30, waiting") }),
            ("call back", { $0.hasPrefix("on ") && $0.hasSuffix(", waiting") }),
            ("bedtime", { $0.hasPrefix("Mon, Tue, Wed, Thu, Sun at ") && $0.hasSuffix(":05, waiting") }),
            ("deadline", { $0.hasPrefix("on ") && $0.hasSuffix(", waiting") }),
            ("anniversary", { $0 == "2099-06-01 at 09:00, waiting (Anniversary)" }),
            ("tea", { $0 == "timer, counting down (Green tea)" }),
        ]
        for (name, matches) in scheduled {
            let line = lines.first { $0.hasPrefix("scheduled \(name): ") }
            #expect(line.map { matches(String($0.dropFirst("scheduled \(name): ".count))) } == true, "\(name): \(line ?? "missing")\n\(report)")
        }
        let steps = ["authorization: allowed", "listed 12 alarms", "tea: paused", "tea: counting down", "tea: ringing",
                     "tea: snoozed, counting down", "deleted all, 0 left"]
        let found = steps.map { step in lines.firstIndex(of: step) }
        #expect(found.allSatisfy { $0 != nil }, "\(zip(steps, found).filter { $0.1 == nil }.map(\.0))\n\(report)")
        #expect(found.compactMap { $0 } == found.compactMap { $0 }.sorted(), "the steps in this order:\n\(report)")
        // The press snoozes the alarm first, then the app performs the intent: the app may see the
        // snooze in its updates before or after the intent's line.
        let performed = lines.firstIndex(of: "SnoozeIntent performed for \(tea)")
        #expect(performed != nil && found[4].map { $0 < performed! } == true, "the SnoozeIntent, after the ring:\n\(report)")
        // Logged when the app's reply to the agent's ActivateAction arrives.
        #expect(fixture.eventually(timeout: 5) { fixture.agentLog.contains("“\(build)” took the secondary intent of “Green tea is ready”.") },
                "\(fixture.agentLog)")
        #expect(!fixture.agentLog.contains("Starting “\(build)”"), "the running app took the press; none was started")
        #expect(try fixture.alarms().isEmpty)
    }
}
