import Foundation
import HeadlessSession
import Testing
import TocsinCore

/// Alarms on schedules, with the real agent: exact instants, pre-alert countdowns, local times,
/// repeating alarms and what happens after the agent was away.
@Suite(.serialized) struct ScheduledAlarmTests {
    @Test func alarmAtAnExactInstantRingsThen() throws {
        let fixture = try AgentSession("instant")
        let recording = try fixture.session.startRecording()
        let (due, text) = AgentSession.instant(in: 2.5)
        let id = try fixture.setAlarm(text, "--title", "Meeting")
        let waiting = try #require(try fixture.alarm(id))
        #expect(waiting.string("state") == "scheduled")
        #expect(abs(try #require(waiting.number("at")) - due.timeIntervalSince1970) < 0.001)
        #expect(fixture.notifications(titled: "Meeting").isEmpty, "an alarm without pre-alert shows nothing before it rings")

        let alert = try fixture.waitForNotification(titled: "Meeting", timeout: .seconds(6)) { $0.urgency == 2 }
        #expect(alert.receivedAt.timeIntervalSince(due) > -0.01 && alert.receivedAt.timeIntervalSince(due) < 0.3)
        #expect(alert.body.hasPrefix("Alarm ringing since"), "\(alert.body)")
        #expect(alert.buttonLabels == ["Stop", "Snooze"], "an alarm offers Snooze by default (tocsin config alarm-snooze)")
        #expect(fixture.eventually(timeout: 2) { recording.currentTrace().firstLoudWindow(after: due) != nil })
        _ = recording.stop()
        #expect(try fixture.tocsin("stop", id).status == 0)
        #expect(try fixture.alarm(id) == nil, "a one-shot alarm is removed when stopped")
    }

    @Test func preAlertCountdownStartsBeforeTheAlarm() throws {
        let fixture = try AgentSession("prealert")
        let (due, text) = AgentSession.instant(in: 5)
        _ = try fixture.setAlarm(text, "--title", "Train", "--pre-alert", "3s")
        let countdown = try fixture.waitForNotification(titled: "Train", timeout: .seconds(5)) { $0.urgency != 2 }
        let startedBefore = due.timeIntervalSince(countdown.receivedAt)
        #expect(startedBefore > 2.8 && startedBefore < 3.2, "the countdown appeared \(startedBefore) s before the alarm")
        #expect(countdown.remainingSeconds == 3)
        #expect(countdown.buttonLabels == ["Pause", "Cancel"])
        let alert = try fixture.waitForNotification(titled: "Train", timeout: .seconds(5)) { $0.urgency == 2 }
        #expect(alert.id == countdown.id, "the alert replaces the pre-alert countdown in place")
        #expect(abs(alert.receivedAt.timeIntervalSince(due)) < 0.3)
        #expect(try fixture.tocsin("stop").status == 0)
    }

    @Test func localTimeAlarmRingsAtThatTimeInTheAgentsZone() throws {
        // India is UTC+5:30: a local minute boundary there is a whole minute in UTC too, but the
        // hour is not, so a wrong zone shows as an alarm hours off.
        let zone = ["TZ": "Asia/Kolkata"]
        let fixture = try AgentSession("localtime", agentEnvironment: zone)
        let kolkata = TimeZone(identifier: "Asia/Kolkata")!
        // The next whole local minute at least 4 s away.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = kolkata
        var due = calendar.nextDate(after: Date().addingTimeInterval(4), matching: DateComponents(second: 0), matchingPolicy: .nextTime)!
        let components = calendar.dateComponents([.hour, .minute], from: due)
        let time = String(format: "%02d:%02d", components.hour!, components.minute!)
        let result = try fixture.tocsin(["alarm", time, "--title", "Chai", "--repeat", "daily"], environment: zone)
        try #require(result.status == 0, "\(result)")
        let id = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(result.stderr.contains("rings") && result.stderr.contains("UTC+5:30"), "\(result.stderr)")
        let waiting = try #require(try fixture.alarm(id))
        #expect(waiting.number("fire-time") == due.timeIntervalSince1970, "the agent resolved \(time) in the wrong zone")
        #expect(waiting.string("weekdays") == "mon,tue,wed,thu,fri,sat,sun")

        let alert = try fixture.waitForNotification(titled: "Chai", timeout: .seconds(70)) { $0.urgency == 2 }
        #expect(abs(alert.receivedAt.timeIntervalSince(due)) < 0.3)
        #expect(try fixture.tocsin("stop", id).status == 0)
        // Stopping a repeating alarm waits for its next occurrence: the same time tomorrow.
        let next = try #require(try fixture.alarm(id), "the repeating alarm was removed when stopped")
        #expect(next.string("state") == "scheduled")
        due = calendar.date(byAdding: .day, value: 1, to: due)!
        #expect(next.number("fire-time") == due.timeIntervalSince1970)
    }

    @Test func alarmMissedWhileTheAgentWasAwayIsReportedNotRung() throws {
        let fixture = try AgentSession("missed")
        let (due, text) = AgentSession.instant(in: 2)
        let id = try fixture.setAlarm(text, "--title", "Wake up", "--late-limit", "1s")
        fixture.agent.kill(signal: SIGKILL)
        _ = fixture.agent.waitForExit(timeout: .seconds(5))
        // Away until it is more than its late limit late.
        Thread.sleep(forTimeInterval: max(0, due.timeIntervalSinceNow) + 1.5)
        let watch = try fixture.session.launch(try AgentSession.binary("tocsin"), ["watch", "--json"])
        let recording = try fixture.session.startRecording()
        let restarted = Date()
        try fixture.restartAgent()

        let notice = try fixture.waitForNotification(titled: "Missed: Wake up (\(Self.timeOfDay(due)))", timeout: .seconds(5))
        #expect(notice.urgency != 2)
        #expect(notice.body.contains("did not ring more than 1 s late"), "\(notice.body)")
        #expect(fixture.eventually(timeout: 3) { watch.standardOutput().contains("\"event\":\"missed\"") }, "\(watch.standardOutput())")
        watch.terminate()
        Thread.sleep(forTimeInterval: 1)
        let trace = recording.stop()
        #expect(trace.isSilent(from: restarted.addingTimeInterval(0.3), to: Date().addingTimeInterval(-0.1)), "a missed alarm rang")
        #expect(fixture.notifications(titled: "Wake up").isEmpty, "a missed alarm showed its alert")
        #expect(try fixture.alarm(id) == nil)
        #expect(fixture.agentLog.contains("was missed"))
    }

    @Test func alarmLateWithinItsLateLimitStillRings() throws {
        let fixture = try AgentSession("late")
        let (due, text) = AgentSession.instant(in: 1.5)
        let id = try fixture.setAlarm(text, "--title", "Pills", "--late-limit", "1m")
        fixture.agent.kill(signal: SIGKILL)
        _ = fixture.agent.waitForExit(timeout: .seconds(5))
        Thread.sleep(forTimeInterval: max(0, due.timeIntervalSinceNow) + 1.5)
        try fixture.restartAgent()
        _ = try fixture.waitForNotification(titled: "Pills", timeout: .seconds(5)) { $0.urgency == 2 }
        #expect(try fixture.alarm(id)?.string("state") == "alerting")
        #expect(try fixture.tocsin("stop", id).status == 0)
    }

    @Test func fiftyAlarmsSetAtOnceAllSurviveARestart() throws {
        let fixture = try AgentSession("fifty")
        let tocsin = try AgentSession.binary("tocsin")
        let processes = try (0..<50).map { index in
            try fixture.session.launch(tocsin, ["alarm", "7:\(String(format: "%02d", index))", "--in-days", "1", "--title", "Alarm \(index)"])
        }
        let statuses = processes.map { $0.waitForExit(timeout: .seconds(60)) }
        #expect(statuses.allSatisfy { $0 == 0 }, "exit statuses: \(statuses); \(processes.first { $0.terminationStatus != 0 }?.standardError() ?? "")")
        let ids = Set(processes.map { $0.standardOutput().trimmingCharacters(in: .whitespacesAndNewlines) })
        #expect(ids.count == 50)
        fixture.agent.kill(signal: SIGKILL)
        _ = fixture.agent.waitForExit(timeout: .seconds(5))
        try fixture.restartAgent()
        let after = try fixture.alarms()
        #expect(Set(after.compactMap { $0.string("id") }) == ids)
        #expect(Set(after.compactMap { $0.string("title") }).count == 50)
    }

    @Test func pastTimesAndBadTimesAreClearErrors() throws {
        let fixture = try AgentSession("alarm-errors")
        let past = try fixture.tocsin("alarm", "2020-01-01T07:00:00Z")
        #expect(past.status == 2)
        #expect(past.stderr.contains("in the past (understood as Wed 1 Jan 2020"), "\(past.stderr)")
        let pastDate = try fixture.tocsin("alarm", "7:00", "--date", "2020-02-02")
        #expect(pastDate.status == 2 && pastDate.stderr.contains("“2020-02-02 07:00” is in the past"), "\(pastDate.stderr)")
        for (arguments, message) in [
            (["alarm", "25:00"], "“25:00” is not a time of day"),
            (["alarm", "7:00", "--date", "2026-02-30"], "2026-02-30"),
            (["alarm", "7:00", "--repeat", "funday"], "“funday” is not a repeat"),
            (["alarm", "7:00", "--repeat", "daily", "--tomorrow"], "not both"),
            (["alarm", "7:00", "--repeat", "daily", "--fixed"], "--fixed"),
        ] {
            let result = try fixture.tocsin(arguments, environment: [:])
            #expect(result.status == 2, "\(arguments): \(result)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        #expect(try fixture.alarms().isEmpty)
    }

    @Test func statusSaysWhetherTheMachineCanBeWoken() throws {
        let fixture = try AgentSession("status", agentEnvironment: ["TZ": "Europe/Berlin"])
        let status = try fixture.tocsin("status", "--json")
        #expect(status.status == 0, "\(status)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
        #expect(object["time-zone"] as? String == "Europe/Berlin")
        let canWake = try #require(object["can-wake-system"] as? Bool)
        // Root has CAP_WAKE_ALARM; whether the machine has a wake-capable clock decides the rest.
        if !canWake {
            #expect((object["wake-problem"] as? String)?.isEmpty == false, "no reason given for not waking the machine")
        }
        let text = try fixture.tocsin("status")
        #expect(text.stdout.contains("wakes the machine: \(canWake ? "yes" : "no")"), "\(text.stdout)")
    }

    /// A time of day as the agent writes it (same zone and locale as this process).
    private static func timeOfDay(_ date: Date) -> String {
        NotificationContentWriter(localeIdentifier: NotificationContentWriter.environmentLocale(ProcessInfo.processInfo.environment)).timeOfDay(date)
    }
}
