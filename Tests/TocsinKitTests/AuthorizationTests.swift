import Foundation
import HeadlessSession
import Testing
import TocsinKit

extension TocsinKitTests {
    /// AlarmKit's consent model through TocsinKit: the question is the agent's real notification.
    @Suite(.serialized) struct AuthorizationTests {
        @Test func requestAuthorizationIsAnsweredWithTheNotificationsAllowButton() async throws {
            let fixture = try KitAgentSession("allow")
            let appID = "org.example.kit.Allow"
            let manager = fixture.manager(appID)
            #expect(manager.authorizationState == .notDetermined)
            let updates = StreamRecorder(manager.authorizationUpdates)
            #expect(await updates.wait { !$0.isEmpty } == [.notDetermined])

            async let answer = manager.requestAuthorization()
            let question = try await fixture.notification(titled: "Allow “\(appID)” to set alarms?")
            #expect(question.actions.map(\.label) == ["Allow", "Don’t Allow"])
            try await fixture.click("Allow", on: question)

            #expect(try await answer == .authorized)
            #expect(await updates.wait { $0.last == .authorized } == [.notDetermined, .authorized])
            #expect(manager.authorizationState == .authorized)
            // Answered once: asking again answers at once, and scheduling asks nothing.
            #expect(try await manager.requestAuthorization() == .authorized)
            try await manager.schedule(id: UUID(), configuration: TestConfigurations.timer("Allowed", seconds: 60))
            #expect(fixture.session.notifications().filter { $0.summary.hasPrefix("Allow “") }.count == 1)
        }

        @Test func authorizationUpdatesFollowTheUsersAnswersFromTheCommandLine() async throws {
            let fixture = try KitAgentSession("auth-updates")
            let appID = "org.example.kit.Changes"
            let manager = fixture.manager(appID)
            let updates = StreamRecorder(manager.authorizationUpdates)
            await updates.wait { !$0.isEmpty }
            for (command, state) in [("grant", AlarmManager.AuthorizationState.authorized), ("revoke", .denied), ("reset", .notDetermined)] {
                #expect(try fixture.tocsin("auth", command, appID).status == 0)
                await updates.wait { $0.last == state }
            }
            _ = try fixture.tocsin("auth", "grant", "org.example.kit.Other")
            try await Task.sleep(for: .milliseconds(300))
            #expect(updates.recorded == [.notDetermined, .authorized, .denied, .notDetermined], "another application's answer leaked in")
        }
    }
}
