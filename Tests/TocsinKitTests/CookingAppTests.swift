import Foundation
import HeadlessSession
import Testing

extension TocsinKitTests {
    /// The example app (Examples/CookingApp), run as a user would, in the headless session.
    @Suite(.serialized) struct CookingAppTests {
        static let titles = [
            "Step 1 of 3: Bring the water to a boil",
            "Step 2 of 3: Cook the spaghetti",
            "Step 3 of 3: Toss with the sauce and let it rest",
        ]

        @Test func theCookingAppCooksItsThreeStepsThroughTheirNextStepButtons() async throws {
            let fixture = try KitAgentSession("cooking-app")
            let app = try fixture.session.launch(try KitAgentSession.binary("cooking-app"), ["--quick"])
            let question = try await fixture.notification(titled: "Allow “cooking-app” to set alarms?")
            try await fixture.click("Allow", on: question)

            for (index, title) in Self.titles.enumerated() {
                let isLast = index == Self.titles.count - 1
                // The alert, not the countdown before it: it has Stop, and Next step but on the last step.
                let alert = try await fixture.notification(titled: title, timeout: .seconds(15)) { $0.actions.first?.label == "Stop" }
                #expect(alert.actions.map(\.label) == (isLast ? ["Stop"] : ["Stop", "Next step"]))
                try await fixture.click(isLast ? "Stop" : "Next step", on: alert)
            }
            let status = try await offThread { app.waitForExit(timeout: .seconds(10)) }
            let output = app.standardOutput()
            #expect(status == 0, "\(output)\n\(app.standardError())\n\(fixture.agentLog)")

            // Each step was announced, then rang, in order; and the session ended with the last one.
            let lines = output.split(separator: "\n").map(String.init)
            let milestones = Self.titles.flatMap { ["\($0) — timer set for 2 s.", "\($0) — time's up"] } + ["Stopped: Spaghetti al pomodoro is ready. Buon appetito!"]
            let positions = milestones.map { milestone in lines.firstIndex { $0.hasPrefix(milestone) } }
            #expect(positions.allSatisfy { $0 != nil }, "missing from the output:\n\(output)")
            #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "out of order:\n\(output)")
            #expect(lines.filter { $0.hasPrefix("“Next step” pressed") }.count == 2, "\(output)")
            // The summaries the user saw, in order of first appearance.
            let summaries = fixture.session.notifications().map(\.summary).filter { Self.titles.contains($0) }
            #expect(summaries.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } } == Self.titles)
            #expect(try fixture.listedAlarms().isEmpty)
        }
    }
}
