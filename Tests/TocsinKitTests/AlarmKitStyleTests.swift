import Foundation
import HeadlessSession
import Testing

extension TocsinKitTests {
    /// Tests/AlarmKitStyle — AlarmKit code as Apple writes it, built in Swift 5 mode — run against
    /// the agent: its intents (LiveActivityIntents) run in the app when their button is clicked,
    /// in the running app, or in the app the agent starts for it — by the program it registered,
    /// or by D-Bus activation — and `openAppWhenRun` asks the app to come to the front.
    @Suite(.serialized) struct AlarmKitStyleTests {
        /// The app's consent question answered by clicking Allow, as the user does.
        static func allow(_ app: String, in fixture: KitAgentSession) async throws {
            let question = try await fixture.notification(titled: "Allow “\(app)” to set alarms?")
            try await fixture.click("Allow", on: question)
        }

        /// The ringing "Food Ready!" alert, its buttons checked.
        static func foodReadyAlert(in fixture: KitAgentSession) async throws -> ObservedNotification {
            let alert = try await fixture.notification(titled: "Food Ready!", timeout: .seconds(15)) { $0.actions.first?.label == "Stop" }
            #expect(alert.actions.map(\.label) == ["Stop", "Repeat"], "the 26.1 alert: the system's Stop, the app's Repeat")
            return alert
        }

        /// The id `app` printed as it scheduled, once it has exited with 0.
        static func scheduledID(by app: SessionProcess) async throws -> String {
            let status = try await offThread { app.waitForExit(timeout: .seconds(10)) }
            #expect(status == 0, "\(app.standardOutput())\n\(app.standardError())")
            let line = app.standardOutput().split(separator: "\n").first { $0.hasPrefix("scheduled ") }
            return String(try #require(line, "\(app.standardOutput())").dropFirst("scheduled ".count))
        }

        /// Whether the app started for the intent wrote "RepeatIntent performed for `id`" to
        /// `output` within ten seconds, and what it wrote.
        static func performedRepeat(of id: String, writtenTo output: URL) -> (Bool, String) {
            let performed = KitAgentSession.eventually(timeout: 10) {
                ((try? String(contentsOf: output, encoding: .utf8)) ?? "").contains("RepeatIntent performed for \(id)")
            }
            return (performed, (try? String(contentsOf: output, encoding: .utf8)) ?? "(nothing)")
        }

        @Test func theSamplesRepeatIntentRunsInTheAppWhenRepeatIsClicked() async throws {
            let fixture = try KitAgentSession("alarmkit-style")
            let app = try fixture.session.launch(try KitAgentSession.binary("alarmkit-style"), ["timer", "1"])
            try await Self.allow("alarmkit-style", in: fixture)
            try await fixture.click("Repeat", on: try await Self.foodReadyAlert(in: fixture))
            let performed = await KitAgentSession.eventually(timeout: 5) { app.standardOutput().contains("RepeatIntent performed for ") }
            #expect(performed, "\(app.standardOutput())\n\(app.standardError())\n\(fixture.agentLog)")
            #expect(await KitAgentSession.eventually(timeout: 5) { fixture.agentLog.contains("“alarmkit-style” took the secondary intent of “Food Ready!”.") }, "\(fixture.agentLog)")
            #expect(!fixture.agentLog.contains("Starting “alarmkit-style”"), "the running app took it; none was started")
            let alarms = try fixture.listedAlarms()
            #expect(alarms.map { $0["state"] as? String } == ["countdown"], "snoozed by the press: \(alarms)")

            let id = try #require(alarms.first?["id"] as? String)
            #expect(try fixture.tocsin("cancel", id).status == 0)
            let status = try await offThread { app.waitForExit(timeout: .seconds(10)) }
            #expect(status == 0, "\(app.standardOutput())\n\(app.standardError())")
            #expect(app.standardOutput().contains("alarms: []"))
        }

        @Test func ofTwoRunningProcessesOfTheAppTheOldestAloneIsHandedThePress() async throws {
            let fixture = try KitAgentSession("alarmkit-two")
            let first = try fixture.session.launch(try KitAgentSession.binary("alarmkit-style"), ["timer", "2"])
            try await Self.allow("alarmkit-style", in: fixture)
            #expect(await KitAgentSession.eventually(timeout: 5) { first.standardOutput().contains("scheduled ") })
            let second = try fixture.session.launch(try KitAgentSession.binary("alarmkit-style"), ["timer", "600"])
            #expect(await KitAgentSession.eventually(timeout: 5) { second.standardOutput().contains("scheduled ") })

            try await fixture.click("Repeat", on: try await Self.foodReadyAlert(in: fixture))
            #expect(await KitAgentSession.eventually(timeout: 5) { first.standardOutput().contains("RepeatIntent performed for ") },
                    "\(first.standardOutput())\n\(fixture.agentLog)")
            try await Task.sleep(for: .seconds(1))
            let performed = (first.standardOutput() + second.standardOutput()).components(separatedBy: "RepeatIntent performed").count - 1
            #expect(performed == 1, "once, in one process:\n\(first.standardOutput())\n\(second.standardOutput())")

            for alarm in try fixture.listedAlarms() {
                #expect(try fixture.tocsin("cancel", try #require(alarm["id"] as? String)).status == 0)
            }
            for app in [first, second] {
                let status = try await offThread { app.waitForExit(timeout: .seconds(10)) }
                #expect(status == 0, "\(app.standardOutput())\n\(app.standardError())")
            }
        }

        @Test func aGApplicationTakesThePressThroughItsOwnInterfaceAndIsRaised() async throws {
            let appID = "org.example.GApplicationStyle"
            let fixture = try KitAgentSession("gapplication")
            #expect(try fixture.tocsin("auth", "grant", appID).status == 0)
            let app = try fixture.session.launch(try KitAgentSession.binary("gapplication-style"), [], extraEnvironment: ["TOCSIN_APP_ID": appID])
            let alert = try await fixture.notification(titled: "Write it down", timeout: .seconds(15)) { $0.actions.first?.label == "Stop" }
            #expect(alert.actions.map(\.label) == ["Stop", "Note"])
            try await fixture.click("Note", on: alert)
            #expect(await KitAgentSession.eventually(timeout: 5) { app.standardOutput().contains("NoteIntent performed: buy basil") },
                    "\(app.standardOutput())\n\(app.standardError())\n\(fixture.agentLog)")
            // Once as GApplication starts, once more for openAppWhenRun (the agent's Activate).
            #expect(await KitAgentSession.eventually(timeout: 5) { app.standardOutput().components(separatedBy: "activated\n").count - 1 == 2 },
                    "\(app.standardOutput())")
            #expect(!app.standardError().contains("cannot export"), "TocsinKit joined the GApplication: \(app.standardError())")
            #expect(await KitAgentSession.eventually(timeout: 5) { fixture.agentLog.contains("“\(appID)” took the secondary intent of “Write it down”.") },
                    "\(fixture.agentLog)")
        }

        @Test func theSwift6FormSchedulesObservesAndCancels() async throws {
            let fixture = try KitAgentSession("alarmkit-style-6")
            #expect(try fixture.tocsin("auth", "grant", "alarmkit-style-6").status == 0)
            let run = try fixture.session.run(try KitAgentSession.binary("alarmkit-style-6"), [], timeout: .seconds(20))
            #expect(run.status == 0, "\(run)")
            #expect(run.stdout.contains(" countdown\nobserved countdown\ncancelled\n"), "\(run)")
        }

        @Test func anAppThatIsNotRunningIsStartedByItsProgramAndPerformsTheIntent() async throws {
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("alarmkit-style-\(UUID()).out")
            defer { try? FileManager.default.removeItem(at: output) }
            let fixture = try KitAgentSession("alarmkit-started", agentEnvironment: ["ALARMKIT_STYLE_OUTPUT": output.path])
            let app = try fixture.session.launch(try KitAgentSession.binary("alarmkit-style"), ["timer-and-exit", "2"])
            try await Self.allow("alarmkit-style", in: fixture)
            let scheduled = try await Self.scheduledID(by: app)

            try await fixture.click("Repeat", on: try await Self.foodReadyAlert(in: fixture))
            let (performed, printed) = Self.performedRepeat(of: scheduled, writtenTo: output)
            #expect(performed, "the started app printed: \(printed)\n\(fixture.agentLog)")
            #expect(printed.hasPrefix("started for intents as alarmkit-style\n"))
            #expect(fixture.agentLog.contains("Starting “alarmkit-style” (\(try KitAgentSession.binary("alarmkit-style").resolvingSymlinksInPath().path) --tocsin-intents) for the secondary intent of “Food Ready!”."),
                    "\(fixture.agentLog)")
            #expect(await KitAgentSession.eventually(timeout: 5) { fixture.agentLog.contains("“alarmkit-style” took the secondary intent of “Food Ready!”.") }, "\(fixture.agentLog)")
            #expect(try fixture.listedAlarms().map { $0["state"] as? String } == ["countdown"], "snoozed once, by the press")
        }

        @Test func aProgramThatIsGoneIsReportedAndThePressStillCounts() async throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("alarmkit-gone-\(UUID())")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let copy = directory.appendingPathComponent("alarmkit-style")
            try FileManager.default.copyItem(at: try KitAgentSession.binary("alarmkit-style").resolvingSymlinksInPath(), to: copy)
            let fixture = try KitAgentSession("alarmkit-gone")
            let app = try fixture.session.launch(copy, ["timer-and-exit", "2"])
            try await Self.allow("alarmkit-style", in: fixture)
            _ = try await Self.scheduledID(by: app)
            try FileManager.default.removeItem(at: copy)

            try await fixture.click("Repeat", on: try await Self.foodReadyAlert(in: fixture))
            let reported = await KitAgentSession.eventually(timeout: 5) {
                fixture.agentLog.contains("The secondary intent of “Food Ready!” was not performed: “alarmkit-style” could not be started: ")
            }
            #expect(reported, "\(fixture.agentLog)")
            #expect(try fixture.listedAlarms().map { $0["state"] as? String } == ["countdown"], "the press itself snoozed the alarm")
        }

        @Test func aDBusActivatableAppIsStartedByTheBusAndPerformsTheIntent() async throws {
            let appID = "org.example.AlarmKitStyle"
            let output = FileManager.default.temporaryDirectory.appendingPathComponent("alarmkit-style-\(UUID()).out")
            defer { try? FileManager.default.removeItem(at: output) }
            let binary = try KitAgentSession.binary("alarmkit-style").path
            let service = "[D-BUS Service]\nName=\(appID)\nExec=/usr/bin/env TOCSIN_APP_ID=\(appID) ALARMKIT_STYLE_OUTPUT=\(output.path) \(binary) --tocsin-intents\n"
            let fixture = try KitAgentSession("alarmkit-activated", activatable: [appID: service])
            let applications = URL(fileURLWithPath: try #require(fixture.session.environment["XDG_DATA_HOME"])).appendingPathComponent("applications")
            try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
            try "[Desktop Entry]\nType=Application\nName=AlarmKit Style\nExec=\(binary)\nDBusActivatable=true\n"
                .write(to: applications.appendingPathComponent("\(appID).desktop"), atomically: true, encoding: .utf8)
            #expect(try fixture.tocsin("auth", "grant", appID).status == 0)

            let app = try fixture.session.launch(URL(fileURLWithPath: binary), ["timer-and-exit", "2"], extraEnvironment: ["TOCSIN_APP_ID": appID])
            let scheduled = try await Self.scheduledID(by: app)

            try await fixture.click("Repeat", on: try await Self.foodReadyAlert(in: fixture))
            let (performed, printed) = Self.performedRepeat(of: scheduled, writtenTo: output)
            #expect(performed, "the activated app printed: \(printed)\n\(fixture.agentLog)")
            #expect(printed.hasPrefix("started for intents as \(appID)\n"))
            #expect(fixture.agentLog.contains("Starting “\(appID)” by D-Bus activation for the secondary intent of “Food Ready!”."), "\(fixture.agentLog)")
            #expect(await KitAgentSession.eventually(timeout: 5) { fixture.agentLog.contains("“\(appID)” took the secondary intent of “Food Ready!”.") }, "\(fixture.agentLog)")
        }

        @Test func anIntentThatOpensTheAppAsksTheRunningAppToComeToTheFront() async throws {
            let fixture = try KitAgentSession("alarmkit-open")
            let app = try fixture.session.launch(try KitAgentSession.binary("alarmkit-style"), ["open", "1"])
            try await Self.allow("alarmkit-style", in: fixture)
            let alert = try await fixture.notification(titled: "Timer done", timeout: .seconds(15)) { $0.actions.first?.label == "Stop" }
            #expect(alert.actions.map(\.label) == ["Stop", "Open"])
            try await fixture.click("Open", on: alert)
            let status = try await offThread { app.waitForExit(timeout: .seconds(10)) }
            #expect(status == 0, "\(app.standardOutput())\n\(app.standardError())\n\(fixture.agentLog)")
            #expect(app.standardOutput().contains("asked to come to the front"))
            #expect(try fixture.listedAlarms().isEmpty, "a custom button ends the alarm")
        }
    }
}
