import Foundation
import HeadlessSession
import Testing
import TocsinKit

extension TocsinKitTests {
    /// `AlarmManager.schedule(id:configuration:)` against the real agent: the caller's id, the
    /// alarm read back, and every kind of schedule.
    @Suite(.serialized) struct SchedulingTests {
        @Test func aTimerIsScheduledUnderTheCallersIDAndShownAsALiveCountdown() async throws {
            let fixture = try KitAgentSession("schedule")
            let manager = try fixture.authorizedManager("org.example.kit.Schedule")
            let id = UUID()

            let alarm = try await manager.schedule(id: id, configuration: TestConfigurations.timer("Pasta", seconds: 60, metadata: Note(text: "al dente")))

            #expect(alarm.id == id)
            #expect(alarm.state == .countdown)
            #expect(alarm.schedule == nil)
            // The timer's own length again after it rings, as AlarmKit takes a missing postAlert.
            #expect(alarm.countdownDuration == .init(preAlert: 60, postAlert: 60))
            #expect(alarm.title == "Pasta")
            #expect(alarm.metadata(as: Note.self) == Note(text: "al dente"))
            #expect(alarm.agentID == id, "the agent keeps the caller's id")
            #expect(try manager.alarms.map(\.id) == [id])
            let listed = try #require(try fixture.listedAlarms().first)
            #expect(listed["id"] as? String == alarm.agentID.uuidString.lowercased())
            #expect(listed["title"] as? String == "Pasta")
            #expect(listed["app-id"] as? String == "org.example.kit.Schedule")
            #expect((listed["metadata"] as? String)?.contains(#""metadata":{"text":"al dente"}"#) == true, "\(listed)")
            let countdown = try await fixture.notification(titled: "Pasta")
            #expect(countdown.actions.map(\.label) == ["Pause", "Cancel"])
        }

        @Test func everyKindOfScheduleReadsBackAsItWasWritten() async throws {
            let fixture = try KitAgentSession("schedules")
            let manager = try fixture.authorizedManager("org.example.kit.Schedules")
            let instant = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 3600).rounded())
            let schedules: [Alarm.Schedule] = [
                .fixed(instant),
                .relative(.init(time: .init(hour: 7, minute: 30), repeats: .never)),
                .relative(.init(time: .init(hour: 6, minute: 45), repeats: .weekly([.monday, .friday]))),
            ]
            for schedule in schedules {
                let alarm = try await manager.schedule(id: UUID(), configuration: .alarm(schedule: schedule, attributes: TestConfigurations.attributes("Wake up")))
                #expect(alarm.schedule == schedule)
                #expect(alarm.state == .scheduled)
                #expect(alarm.countdownDuration == nil)
            }
            #expect(try manager.alarms.compactMap(\.schedule) == schedules)

            // Tocsin's dated local alarm, beside AlarmKit's schedules: it reads back as the instant
            // it rings at (AlarmKit's `.fixed`), with its date and time beside it.
            let christmasEve = Alarm.LocalDateTime(year: 2099, month: 12, day: 24, time: .init(hour: 18, minute: 0))
            let dated = try await manager.schedule(id: UUID(), configuration: .alarm(localDateTime: christmasEve, attributes: TestConfigurations.attributes("Dinner")))
            #expect(dated.localDateTime == christmasEve)
            #expect(dated.state == .scheduled)
            guard case .fixed(let instant)? = dated.schedule else {
                Issue.record("a dated local alarm reads back as \(String(describing: dated.schedule))")
                return
            }
            let wallClock = Calendar.current.dateComponents([.year, .month, .day, .hour, .minute], from: instant)
            #expect(wallClock == DateComponents(year: 2099, month: 12, day: 24, hour: 18, minute: 0))
            #expect(try manager.alarms.first { $0.id == dated.id }?.localDateTime == christmasEve)
            #expect(try manager.alarms.filter { $0.localDateTime != nil }.count == 1, "only the dated alarm carries a local date and time")

            // The full initializer: a countdown before the time, and a snooze after it rings.
            let withCountdowns = try await manager.schedule(id: UUID(), configuration: AlarmManager.AlarmConfiguration(
                countdownDuration: .init(preAlert: 600, postAlert: 300),
                schedule: .fixed(instant),
                attributes: TestConfigurations.attributes("Meeting", secondaryButton: "Snooze", behavior: .countdown)))
            #expect(withCountdowns.countdownDuration == .init(preAlert: 600, postAlert: 300))
            let listed = try #require(try fixture.listedAlarms().first { $0["title"] as? String == "Meeting" })
            #expect((listed["snooze"] as? NSNumber)?.doubleValue == 300, "\(listed)")
            #expect((listed["duration"] as? NSNumber)?.doubleValue == 600, "\(listed)")
            #expect(listed["button-label"] as? String == "Snooze")
        }

        /// The issue's own example: AlarmKit 26.0's Stop-only alert with a snooze intent and a
        /// five-minute postAlert, and a sound no theme has — scheduled as AlarmKit schedules it.
        @Test func aStopOnlyAlertWithASnoozeIntentAndAnUnknownSoundIsScheduledAndSnoozes() async throws {
            let fixture = try KitAgentSession("stop-only")
            let manager = try fixture.authorizedManager("org.example.kit.StopOnly")
            let id = UUID()
            let alarm = try await manager.schedule(id: id, configuration: AlarmManager.AlarmConfiguration(
                countdownDuration: .init(preAlert: 1, postAlert: 300),
                attributes: TestConfigurations.attributes("Stop only"),
                secondaryIntent: RepeatIntent(alarmID: id.uuidString, round: 1),
                sound: .named("no-such-sound-in-any-theme")))
            #expect(alarm.countdownDuration == .init(preAlert: 1, postAlert: 300))

            let ringing = try await fixture.notification(titled: "Stop only", timeout: .seconds(15)) { $0.urgency == 2 }
            #expect(ringing.actions.map(\.label) == ["Stop"], "the intent has no button, so none is shown")
            let listed = try #require(try fixture.listedAlarms().first)
            #expect(listed["sound"] as? String == "default", "\(listed)")
            #expect(fixture.agentLog.contains("“Stop only” of “org.example.kit.StopOnly” will ring with the standard sound: No installed sound theme has the sound “no-such-sound-in-any-theme”"),
                    "\(fixture.agentLog)")

            #expect(await KitAgentSession.eventually(timeout: 5) { (try? manager.alarms.first?.state) == .alerting })
            try manager.countdown(id: id)
            let snoozed = try #require(try manager.alarms.first)
            #expect(snoozed.state == .countdown, "postAlert snoozes it, button or not")
            guard case .countdown(let countdown)? = snoozed.presentationState?.mode else {
                Issue.record("a snoozed alarm shows \(String(describing: snoozed.presentationState))")
                return
            }
            #expect(countdown.totalCountdownDuration == 300)
        }

        @Test func anIDAlreadyInUseIsRefused() async throws {
            let fixture = try KitAgentSession("duplicate")
            let manager = try fixture.authorizedManager("org.example.kit.Duplicate")
            let id = UUID()
            try await manager.schedule(id: id, configuration: TestConfigurations.timer("First", seconds: 60))
            await #expect {
                try await manager.schedule(id: id, configuration: TestConfigurations.timer("Second", seconds: 60))
            } throws: { error in
                guard case AlarmManager.AlarmError.tocsin(.invalidArgument(let message)) = error else { return false }
                return message == "An alarm with the id \(id.uuidString.lowercased()) already exists."
            }
            #expect(try manager.alarms.map(\.title) == ["First"])
            // The agent holds it under the app's own id, so `tocsin cancel <id>` reaches it too.
            #expect(try fixture.listedAlarms().map { $0["id"] as? String } == [id.uuidString.lowercased()])
        }
    }
}
