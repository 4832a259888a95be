import Foundation
import HeadlessSession
import Testing
import TocsinKit

extension TocsinKitTests {
    /// `alarmUpdates` and `alarmEvents`, fed by the agent's signals on TocsinKit's own main loop,
    /// while every intent (pause, resume, stop, countdown, cancel, the secondary button) moves
    /// an alarm through its states.
    @Suite(.serialized) struct UpdatesAndIntentsTests {
        /// The states the snapshots gave alarm `id`, one per snapshot in which it changed; `nil`
        /// marks a snapshot without it (removed).
        static func states(of id: Alarm.ID, in snapshots: [[Alarm]]) -> [Alarm.State?] {
            var states: [Alarm.State?] = []
            var seen = false
            for snapshot in snapshots {
                let state = snapshot.first { $0.id == id }?.state
                seen = seen || state != nil
                if seen && states.last != .some(state) { states.append(state) }
            }
            return states
        }

        @Test func aTimersSnapshotsFollowPauseResumeAndStopInOrder() async throws {
            let fixture = try KitAgentSession("timer-updates")
            let manager = try fixture.authorizedManager("org.example.kit.Updates")
            _ = try fixture.tocsin("timer", "10m", "--title", "The user's own")
            let snapshots = StreamRecorder(manager.alarmUpdates)
            let events = StreamRecorder(manager.alarmEvents)
            let initial = await snapshots.wait { !$0.isEmpty }
            #expect(initial.first == [], "the first snapshot is the current list, without the command line's timer")

            let id = UUID()
            try await manager.schedule(id: id, configuration: TestConfigurations.timer("Tea", seconds: 2))
            await snapshots.wait { Self.states(of: id, in: $0).last == .countdown }
            try manager.pause(id: id)
            await snapshots.wait { Self.states(of: id, in: $0).last == .paused }
            #expect(try manager.alarms.first?.state == .paused)
            try await Task.sleep(for: .seconds(2.5))
            #expect(Self.states(of: id, in: snapshots.recorded).last == .paused, "a paused timer does not ring")
            try manager.resume(id: id)
            await snapshots.wait(timeout: .seconds(8)) { Self.states(of: id, in: $0).last == .alerting }
            _ = try await fixture.notification(titled: "Tea") { $0.actions.map(\.label) == ["Stop"] }
            try manager.stop(id: id)
            let recorded = await snapshots.wait { Self.states(of: id, in: $0).last == .some(nil) }

            #expect(Self.states(of: id, in: recorded) == [.countdown, .paused, .countdown, .alerting, nil])
            #expect(recorded.allSatisfy { $0.allSatisfy { $0.title == "Tea" } }, "another application's alarm appeared")
            let kinds = await events.wait { $0.contains { $0.kind == .stopped } }.map(\.kind)
            #expect(kinds == [.scheduled, .paused, .resumed, .fired, .stopped])
            #expect(events.recorded.last?.alarmRemoved == true)
            #expect(events.recorded.allSatisfy { $0.alarm.id == id })
            #expect(try manager.alarms.isEmpty)
        }

        /// The agent answers Schedule before it announces the alarm, and holds its signals for
        /// half a second after it starts (as here); a list read from `alarmUpdates` right after
        /// `schedule` or `pause` returned still shows the change (CI once saw an app end its
        /// loop on a first list without the timer it had just set).
        @Test func theFirstListAfterAScheduleOrAPauseShowsIt() async throws {
            let fixture = try KitAgentSession("first-list")
            let manager = try fixture.authorizedManager("org.example.kit.FirstList")
            var scheduled: [Alarm.ID] = []
            for round in 1...12 {
                let id = UUID()
                try await manager.schedule(id: id, configuration: TestConfigurations.timer("Round \(round)", seconds: 600))
                scheduled.append(id)
                var updates = manager.alarmUpdates.makeAsyncIterator()
                let first = await updates.next()
                #expect(first?.map(\.id) == scheduled, "round \(round)")
            }
            try manager.pause(id: scheduled[0])
            var updates = manager.alarmUpdates.makeAsyncIterator()
            let first = await updates.next()
            #expect(first?.first?.state == .paused)
            for id in scheduled { try manager.cancel(id: id) }
        }

        @Test func anAlarmGoesFromScheduledThroughItsCountdownToAlertingAndSnoozes() async throws {
            let fixture = try KitAgentSession("alarm-updates")
            let manager = try fixture.authorizedManager("org.example.kit.AlarmUpdates")
            let snapshots = StreamRecorder(manager.alarmUpdates)
            let events = StreamRecorder(manager.alarmEvents)
            await snapshots.wait { !$0.isEmpty }

            let id = UUID()
            let configuration = AlarmManager.AlarmConfiguration(
                countdownDuration: .init(preAlert: 1.5, postAlert: 1),
                schedule: .fixed(Date().addingTimeInterval(3)),
                attributes: TestConfigurations.attributes("Standup", secondaryButton: "Repeat", behavior: .countdown))
            let scheduled = try await manager.schedule(id: id, configuration: configuration)
            #expect(scheduled.state == .scheduled)
            await snapshots.wait(timeout: .seconds(8)) { Self.states(of: id, in: $0).last == .alerting }
            let alert = try await fixture.notification(titled: "Standup") { $0.actions.first?.label == "Stop" }
            #expect(alert.actions.map(\.label) == ["Stop", "Repeat"])
            try manager.countdown(id: id)
            await snapshots.wait { Self.states(of: id, in: $0).filter { $0 == .alerting }.count == 1 && Self.states(of: id, in: $0).last == .countdown }
            await snapshots.wait(timeout: .seconds(5)) { Self.states(of: id, in: $0).filter { $0 == .alerting }.count == 2 }
            try manager.cancel(id: id)
            let recorded = await snapshots.wait { Self.states(of: id, in: $0).last == .some(nil) }

            #expect(Self.states(of: id, in: recorded) == [.scheduled, .countdown, .alerting, .countdown, .alerting, nil])
            let kinds = await events.wait { $0.contains { $0.kind == .cancelled } }.map(\.kind)
            #expect(kinds == [.scheduled, .preAlert, .fired, .snoozed, .fired, .cancelled])
        }

        @Test func aCustomSecondaryButtonReachesTheRunningApp() async throws {
            let fixture = try KitAgentSession("secondary")
            let manager = try fixture.authorizedManager("org.example.kit.Secondary")
            let events = StreamRecorder(manager.alarmEvents)
            let id = UUID()
            try await manager.schedule(id: id, configuration: .timer(
                duration: 1, attributes: TestConfigurations.attributes("Bread", secondaryButton: "Open", behavior: .custom), secondaryIntent: .inApp))

            let alert = try await fixture.notification(titled: "Bread") { $0.actions.map(\.label) == ["Stop", "Open"] }
            try await fixture.click("Open", on: alert)

            let recorded = await events.wait { $0.contains { $0.kind == .secondary } }
            let secondary = try #require(recorded.last)
            #expect(secondary.kind == .secondary)
            #expect(secondary.alarm.id == id)
            #expect(secondary.alarmRemoved)
            #expect(try manager.alarms.isEmpty)
        }

        @Test func commandIntentsRunWithTheAlarmsIDInTheirMetadata() async throws {
            let fixture = try KitAgentSession("command-intents")
            let manager = try fixture.authorizedManager("org.example.kit.Commands")
            let output = fixture.session.directory.appendingPathComponent("intents.txt")
            let record = #"echo "$TOCSIN_EVENT $TOCSIN_APP_ID $TOCSIN_METADATA" >> "# + output.path
            let stopped = UUID()
            try await manager.schedule(id: stopped, configuration: .timer(
                duration: 1, attributes: TestConfigurations.attributes("Eggs", metadata: Note(text: "soft")), stopIntent: .command(record)))
            let pressed = UUID()
            try await manager.schedule(id: pressed, configuration: .timer(
                duration: 1, attributes: TestConfigurations.attributes("Rice", secondaryButton: "Next", behavior: .custom),
                secondaryIntent: .command(record)))

            _ = try await fixture.notification(titled: "Eggs") { $0.actions.map(\.label) == ["Stop"] }
            try manager.stop(id: stopped)
            let riceAlert = try await fixture.notification(titled: "Rice") { $0.actions.map(\.label) == ["Stop", "Next"] }
            try await fixture.click("Next", on: riceAlert)

            let written = await KitAgentSession.eventually(timeout: 5) {
                ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n").count == 2
            }
            let lines = ((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            #expect(written, "\(lines)\n\(fixture.agentLog)")
            #expect(lines.contains { $0.hasPrefix("stop org.example.kit.Commands ") && $0.contains(stopped.uuidString) && $0.contains(#""text":"soft""#) }, "\(lines)")
            #expect(lines.contains { $0.hasPrefix("secondary org.example.kit.Commands ") && $0.contains(pressed.uuidString) }, "\(lines)")
        }
    }
}
