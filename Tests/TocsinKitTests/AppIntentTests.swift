import Foundation
import Synchronization
import Testing
@testable import TocsinKit

// App Intents the AlarmKit way (IntentRecord.swift, IntentPerformer.swift, the AppIntents
// module): an intent given as an alarm's stopIntent or secondaryIntent is stored with the alarm
// and performed in the app's own process when its button is pressed.

/// What the intents below did, in order.
let performedIntents = Mutex<[String]>([])

/// Apple's sample StopIntent, in Swift 6 spelling (`static let`).
struct StopIntent: LiveActivityIntent {
    static let title: LocalizedStringResource = "Stop"
    static let description = IntentDescription("Stop an alarm")
    @Parameter(title: "alarmID") var alarmID: String

    init(alarmID: String) { self.alarmID = alarmID }
    init() { self.alarmID = "" }

    func perform() throws -> some IntentResult {
        guard let id = UUID(uuidString: alarmID) else { throw AlarmIntentError.invalidAlarmID }
        // Already stopped by the press: answered as done, as on iOS.
        try AlarmManager.shared.stop(id: id)
        performedIntents.withLock { $0.append("stop \(alarmID)") }
        return .result()
    }
}

/// Apple's sample RepeatIntent, with a second parameter.
struct RepeatIntent: LiveActivityIntent {
    static let title: LocalizedStringResource = "Repeat"
    @Parameter(title: "alarmID") var alarmID: String
    @Parameter(title: "Round", default: 1) var round: Int
    @Parameter(title: "Note") var note: String?

    init(alarmID: String, round: Int) {
        self.alarmID = alarmID
        self.round = round
    }
    init() {}

    func perform() async throws -> some IntentResult {
        try AlarmManager.shared.countdown(id: UUID(uuidString: alarmID)!)
        performedIntents.withLock { $0.append("repeat \(alarmID) round \(round) note \(note ?? "none")") }
        return .result()
    }
}

/// An intent whose work fails.
struct FailingIntent: LiveActivityIntent {
    static let title: LocalizedStringResource = "Next step"
    init() {}
    func perform() async throws -> some IntentResult {
        if Self.title.key.isEmpty { return .result() }
        throw AlarmIntentError.invalidAlarmID
    }
}

enum AlarmIntentError: Error { case invalidAlarmID }

// In TocsinKitTests, which is serialized: each fixture points the process's session bus at its own.
extension TocsinKitTests {
    @Suite("App Intents, stored and performed")
    struct AppIntentTests {
        @Test("An intent is stored as its type's name and its parameters, and made again with them")
        func recordRoundTrip() throws {
            let id = UUID().uuidString
            let record = try IntentRecord(RepeatIntent(alarmID: id, round: 3))
            #expect(record.title == "Repeat")
            #expect(record.parameters == ["alarmID": "\"\(id)\"", "round": "3"], "an unset optional is not stored")
            #expect(!record.opensApp)
            let decoded = try JSONDecoder().decode(IntentRecord.self, from: JSONEncoder().encode(record))
            let intent = try #require(try decoded.makeIntent() as? RepeatIntent)
            #expect(intent.alarmID == id)
            #expect(intent.round == 3)
            #expect(intent.note == nil)
        }

        @Test("A record whose type this program does not have says so")
        func unknownType() throws {
            var record = try IntentRecord(FailingIntent())
            record.type = "7Unknown4TypeV"
            #expect(throws: IntentRecord.Failure.self) { try record.makeIntent() }
            record = try IntentRecord(StopIntent(alarmID: "x"))
            record.parameters["step"] = "2"
            let failure = #expect(throws: IntentRecord.Failure.self) { try record.makeIntent() }
            #expect(failure?.description.contains("no parameter “step”") == true)
        }

        @Test("The configuration's app intents go into the alarm's metadata; a command still goes to the agent's hooks")
        func requestCarriesIntents() throws {
            let id = UUID()
            let attributes = TestConfigurations.attributes("Tea", secondaryButton: "Repeat", behavior: .countdown)
            let configuration = AlarmManager.AlarmConfiguration(
                countdownDuration: .init(preAlert: 60, postAlert: 30), attributes: attributes,
                stopIntent: StopIntent(alarmID: id.uuidString), secondaryIntent: RepeatIntent(alarmID: id.uuidString, round: 2))
            let request = try ScheduleRequestBuilder.request(for: configuration, id: id)
            let header = try #require(request.metadata.flatMap(AlarmMetadataEnvelope.header(from:)))
            #expect(header.intents?["stop"]?.title == "Stop")
            #expect(header.intents?["secondary"]?.parameters["round"] == "2")
            #expect(request.hooks[.stop] == nil && request.hooks[.snooze] == nil)

            let commanded = try ScheduleRequestBuilder.request(
                for: .timer(duration: 60, attributes: TestConfigurations.attributes("Rice"), stopIntent: .command("echo done")), id: UUID())
            #expect(commanded.hooks[.stop] == "echo done")
            #expect(commanded.metadata.flatMap(AlarmMetadataEnvelope.header(from:))?.intents == nil)
        }

        @Test("Texts: literals, interpolations and strings; stored as plain strings")
        func localizedStringResource() throws {
            let step = 2
            let texts: [LocalizedStringResource] = ["Food Ready!", "Step \(step)", LocalizedStringResource("Stop")]
            #expect(texts.map(\.key) == ["Food Ready!", "Step 2", "Stop"])
            #expect(String(localized: texts[1]) == "Step 2")
            #expect(String(decoding: try JSONEncoder().encode(texts[0]), as: UTF8.self) == "\"Food Ready!\"")
        }

        @Test("AlarmKit 26.1's alert: the system's Stop button; the 26.0 one keeps its own, and both encode alike")
        func alertInitializers() throws {
            let alert = AlarmPresentation.Alert(title: "Wake up")
            #expect(alert.storedStopButton.text == "Stop")
            #expect(alert.secondaryButton == nil && alert.secondaryButtonBehavior == nil)
            let json = String(decoding: try JSONEncoder().encode(alert), as: UTF8.self)
            #expect(json.contains("\"stopButton\""), "\(json)")
            #expect(try JSONDecoder().decode(AlarmPresentation.Alert.self, from: Data(json.utf8)) == alert)
        }

        @Suite(.serialized) struct AgainstTheAgent {
            @Test func theStopIntentIsPerformedInTheAppWhenStopIsClicked() async throws {
                let fixture = try KitAgentSession("stop-intent")
                let manager = try fixture.authorizedManager("org.example.kit.StopIntent")
                let id = UUID()
                try await manager.schedule(id: id, configuration: .timer(
                    duration: 1, attributes: TestConfigurations.attributes("Pasta"), stopIntent: StopIntent(alarmID: id.uuidString)))
                let alert = try await fixture.notification(titled: "Pasta") { $0.actions.map(\.label) == ["Stop"] }
                try await fixture.click("Stop", on: alert)
                #expect(await KitAgentSession.eventually(timeout: 5) { performedIntents.withLock { $0.contains("stop \(id.uuidString)") } },
                        "\(performedIntents.withLock { $0 })\n\(fixture.agentLog)")
                #expect(try manager.alarms.isEmpty)
            }

            @Test func theRepeatIntentIsPerformedWithItsParametersAndAThrowingIntentIsReported() async throws {
                let fixture = try KitAgentSession("repeat-intent")
                let manager = try fixture.authorizedManager("org.example.kit.RepeatIntent")
                let failures = StreamRecorder(manager.intentFailures)
                let id = UUID()
                try await manager.schedule(id: id, configuration: AlarmManager.AlarmConfiguration(
                    countdownDuration: .init(preAlert: 1, postAlert: 30),
                    attributes: TestConfigurations.attributes("Tea", secondaryButton: "Repeat", behavior: .countdown),
                    secondaryIntent: RepeatIntent(alarmID: id.uuidString, round: 2)))
                let alert = try await fixture.notification(titled: "Tea") { $0.actions.map(\.label) == ["Stop", "Repeat"] }
                try await fixture.click("Repeat", on: alert)
                #expect(await KitAgentSession.eventually(timeout: 5) { performedIntents.withLock { $0.contains("repeat \(id.uuidString) round 2 note none") } },
                        "\(performedIntents.withLock { $0 })\n\(fixture.agentLog)")
                #expect(try manager.alarms.first?.state == .countdown, "snoozed once, by the press; the intent's countdown(id:) was answered as done")
                guard case .countdown(let countdown)? = try manager.alarms.first?.presentationState?.mode else {
                    Issue.record("no countdown presentation state: \(try manager.alarms)")
                    return
                }
                #expect(countdown.totalCountdownDuration == 30, "the snooze's countdown, as a live activity draws it")
                #expect(countdown.fireDate.timeIntervalSinceNow > 25 && countdown.fireDate.timeIntervalSinceNow <= 30)
                try manager.cancel(id: id)

                let failing = UUID()
                try await manager.schedule(id: failing, configuration: .timer(
                    duration: 1, attributes: TestConfigurations.attributes("Bread", secondaryButton: "Next step", behavior: .custom),
                    secondaryIntent: FailingIntent()))
                let bread = try await fixture.notification(titled: "Bread") { $0.actions.map(\.label) == ["Stop", "Next step"] }
                try await fixture.click("Next step", on: bread)
                let reported = await failures.wait { !$0.isEmpty }
                #expect(reported.first?.alarmID == failing)
                #expect(reported.first?.intentTitle == "Next step")
                #expect(reported.first?.reason.contains("invalidAlarmID") == true, "\(reported)")
            }
        }
    }
}
