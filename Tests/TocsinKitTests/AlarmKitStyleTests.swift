import Foundation
import HeadlessSession
import Testing

extension TocsinKitTests {
    /// Tests/AlarmKitStyle — AlarmKit code as Apple writes it, built in Swift 5 mode — run against
    /// the agent: its RepeatIntent, a LiveActivityIntent, runs in the app when Repeat is clicked.
    @Suite(.serialized) struct AlarmKitStyleTests {
        @Test func theSamplesRepeatIntentRunsInTheAppWhenRepeatIsClicked() async throws {
            let fixture = try KitAgentSession("alarmkit-style")
            let app = try fixture.session.launch(try KitAgentSession.binary("alarmkit-style"), ["timer", "1"])
            let question = try await fixture.notification(titled: "Allow “alarmkit-style” to set alarms?")
            try await fixture.click("Allow", on: question)

            let alert = try await fixture.notification(titled: "Food Ready!", timeout: .seconds(15)) { $0.actions.first?.label == "Stop" }
            #expect(alert.actions.map(\.label) == ["Stop", "Repeat"], "the 26.1 alert: the system's Stop, the app's Repeat")
            try await fixture.click("Repeat", on: alert)
            let performed = KitAgentSession.eventually(timeout: 5) { app.standardOutput().contains("RepeatIntent performed for ") }
            #expect(performed, "\(app.standardOutput())\n\(app.standardError())\n\(fixture.agentLog)")
            let alarms = try fixture.listedAlarms()
            #expect(alarms.map { $0["state"] as? String } == ["countdown"], "snoozed by the press: \(alarms)")

            let id = try #require(alarms.first?["id"] as? String)
            #expect(try fixture.tocsin("cancel", id).status == 0)
            let status = try await offThread { app.waitForExit(timeout: .seconds(10)) }
            #expect(status == 0, "\(app.standardOutput())\n\(app.standardError())")
            #expect(app.standardOutput().contains("alarms: []"))
        }
    }
}
