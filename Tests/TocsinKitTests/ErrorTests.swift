import Foundation
import HeadlessSession
import Testing
import TocsinKit

extension TocsinKitTests {
    /// Every refusal of the real agent arrives as the matching `AlarmManager.AlarmError`.
    @Suite(.serialized) struct ErrorTests {
        /// True when `error` is the `AlarmError` case `expected` matches (its payload aside).
        static func isAlarmError(_ error: any Error, _ expected: (AlarmManager.AlarmError) -> Bool) -> Bool {
            (error as? AlarmManager.AlarmError).map(expected) ?? false
        }

        @Test func anUnknownIDIsNotFound() async throws {
            let fixture = try KitAgentSession("not-found")
            let manager = try fixture.authorizedManager("org.example.kit.NotFound")
            for intent in [manager.cancel, manager.pause, manager.resume, manager.stop, manager.countdown] {
                #expect {
                    try intent(UUID())
                } throws: { error in
                    Self.isAlarmError(error) { if case .tocsin(.notFound(let message)) = $0 { message.contains("No alarm or timer has the id") } else { false } }
                }
            }
        }

        @Test func anIntentInTheWrongStateIsInvalidState() async throws {
            let fixture = try KitAgentSession("invalid-state")
            let manager = try fixture.authorizedManager("org.example.kit.InvalidState")
            let id = UUID()
            try await manager.schedule(id: id, configuration: TestConfigurations.timer("Soup", seconds: 600))
            for intent in [manager.resume, manager.stop, manager.countdown] {
                #expect {
                    try intent(id)
                } throws: { error in
                    Self.isAlarmError(error) { if case .tocsin(.invalidState(let message)) = $0 { message.contains("counting down") } else { false } }
                }
            }
            // The same intents by the agent's id work too.
            let agentID = try #require(try manager.alarms.first?.agentID)
            try manager.pause(id: agentID)
            #expect(try manager.alarms.first?.state == .paused)
        }

        @Test func aRequestThatCannotSucceedIsRefusedBeforeTheUserIsAsked() async throws {
            let fixture = try KitAgentSession("refused-before-consent")
            let manager = fixture.manager("org.example.kit.NeverAsked")
            let past = AlarmManager.AlarmConfiguration.alarm(schedule: .fixed(Date().addingTimeInterval(-60)), attributes: TestConfigurations.attributes("Late"))
            // In a task: asked first, the call would wait for the user's answer.
            let outcome = Outcome()
            let refused = Task {
                do {
                    try await manager.schedule(id: UUID(), configuration: past)
                    outcome.set("scheduled")
                } catch {
                    outcome.set("\(error)")
                }
            }
            // Asked first, the call would wait for the user's answer, which never comes here. The
            // wait leaves the cooperative pool's threads to the call's task (see the async
            // `eventually`), and 20 s tells a call that waits from one slowed by a loaded machine.
            let asked = Date()
            #expect(await KitAgentSession.eventually(timeout: 20) { outcome.value != nil }, "the call waits: the user was asked first")
            print("ErrorTests: the request in the past was refused after \(String(format: "%.2f", Date().timeIntervalSince(asked))) s")
            refused.cancel()
            #expect(outcome.value?.contains("in the past") == true, "\(outcome.value ?? "no answer")")
            #expect(!fixture.session.notifications().contains { $0.summary.hasPrefix("Allow “") }, "the user was asked")
            #expect(manager.authorizationState == .notDetermined)
        }

        /// What a call running in a task answered.
        final class Outcome: @unchecked Sendable {
            private let lock = NSLock()
            private var answer: String?
            var value: String? { lock.withLock { answer } }
            func set(_ text: String) { lock.withLock { answer = text } }
        }

        @Test func requestsTheAgentRefusesAreInvalidArguments() async throws {
            let fixture = try KitAgentSession("invalid-argument")
            let manager = try fixture.authorizedManager("org.example.kit.InvalidArgument")
            let past = AlarmManager.AlarmConfiguration.alarm(schedule: .fixed(Date().addingTimeInterval(-60)), attributes: TestConfigurations.attributes("Late"))
            let noSuchTime = AlarmManager.AlarmConfiguration.alarm(
                schedule: .relative(.init(time: .init(hour: 25, minute: 0), repeats: .never)), attributes: TestConfigurations.attributes("Never"))
            let expectations: [(AlarmManager.AlarmConfiguration<Note>, String)] = [
                (past, "in the past"),
                (noSuchTime, "is not a time of day"),
                (TestConfigurations.timer("No time at all", seconds: 0), "must be longer than zero"),
                (TestConfigurations.timer("Two years", seconds: 2 * 366 * 86_400), "is too long"),
            ]
            for (configuration, phrase) in expectations {
                await #expect {
                    try await manager.schedule(id: UUID(), configuration: configuration)
                } throws: { error in
                    Self.isAlarmError(error) { if case .tocsin(.invalidArgument(let message)) = $0 { message.contains(phrase) } else { false } }
                }
            }
            #expect(try manager.alarms.isEmpty)
        }

        @Test func metadataOverTheAgentsLimitIsMetadataTooLarge() async throws {
            let fixture = try KitAgentSession("metadata-too-large")
            let manager = try fixture.authorizedManager("org.example.kit.Metadata")
            let tooLarge = Note(text: String(repeating: "x", count: 5000))
            await #expect {
                try await manager.schedule(id: UUID(), configuration: TestConfigurations.timer("Big", seconds: 60, metadata: tooLarge))
            } throws: { error in
                Self.isAlarmError(error) { if case .tocsin(.metadataTooLarge(let size, 4096)) = $0 { size > 5000 } else { false } }
            }
            // Just under the limit, with the envelope, is kept and handed back.
            let fits = Note(text: String(repeating: "y", count: 3900))
            let alarm = try await manager.schedule(id: UUID(), configuration: TestConfigurations.timer("Fits", seconds: 60, metadata: fits))
            #expect(try manager.alarms.first { $0.id == alarm.id }?.metadata(as: Note.self) == fits)
        }

        @Test func theApplicationsLimitIsMaximumLimitReached() async throws {
            let fixture = try KitAgentSession("limit", agentArguments: ["--app-alarm-limit", "1"])
            let manager = try fixture.authorizedManager("org.example.kit.Limit")
            try await manager.schedule(id: UUID(), configuration: TestConfigurations.timer("One", seconds: 600))
            do {
                try await manager.schedule(id: UUID(), configuration: TestConfigurations.timer("Two", seconds: 600))
                Issue.record("the second alarm was accepted")
            } catch AlarmManager.AlarmError.maximumLimitReached {
                // AlarmKit code catches it just like this.
            }
            // …or compares it, as AlarmKit's payload-free case allows.
            do {
                try await manager.schedule(id: UUID(), configuration: TestConfigurations.timer("Three", seconds: 600))
                Issue.record("the third alarm was accepted")
            } catch let error as AlarmManager.AlarmError {
                #expect(error == .maximumLimitReached)
                #expect(error.localizedDescription == "This application holds as many alarms as it may; cancel some before scheduling more.")
            }
        }

        @Test func schedulingAfterDontAllowIsNotAuthorized() async throws {
            let fixture = try KitAgentSession("not-authorized")
            let appID = "org.example.kit.Denied"
            let manager = fixture.manager(appID)
            async let answer = manager.requestAuthorization()
            let question = try await fixture.notification(titled: "Allow “\(appID)” to set alarms?")
            try await fixture.click("Don’t Allow", on: question)
            #expect(try await answer == .denied)

            await #expect {
                try await manager.schedule(id: UUID(), configuration: TestConfigurations.timer("Refused", seconds: 60))
            } throws: { error in
                Self.isAlarmError(error) { if case .tocsin(.notAuthorized(let message)) = $0 { message.contains("the user did not allow it") } else { false } }
            }
            #expect(manager.authorizationState == .denied)
        }

        @Test func anAgentThatIsGoneIsAgentUnavailable() async throws {
            let fixture = try KitAgentSession("unavailable")
            let manager = try fixture.authorizedManager("org.example.kit.Unavailable")
            fixture.agent.terminate()
            #expect {
                try manager.alarms
            } throws: { error in
                Self.isAlarmError(error) { if case .tocsin(.agentUnavailable(let message)) = $0 { message.contains("not running") } else { false } }
            }
            await #expect {
                try await manager.schedule(id: UUID(), configuration: TestConfigurations.timer("Nobody", seconds: 60))
            } throws: { error in
                Self.isAlarmError(error) { if case .tocsin(.agentUnavailable) = $0 { true } else { false } }
            }
            #expect(manager.authorizationState == .notDetermined)
        }
    }
}

extension AlarmManager.AlarmConfiguration {
    /// A copy changed by `change`.
    func with(_ change: (inout Self) -> Void) -> Self {
        var copy = self
        change(&copy)
        return copy
    }
}
