import BusTestSupport
import CGLib
import Foundation
import HeadlessSession
import Testing
import TocsinCore
import TocsinFiles

/// The agent follows the machine's time zone as it changes, and handles what came due while the
/// machine slept, at once on resume.
@Suite(.serialized) struct TimeChangeTests {
    /// Runs the agent in a private mount namespace, so the test can bind-mount another zone over
    /// /etc/localtime for the agent alone: the host's clock and zone are never touched.
    @Test func localAlarmsMoveWhenTheTimeZoneChanges() throws {
        let unshare = try #require(["/usr/bin/unshare", "/bin/unshare"].first { FileManager.default.isExecutableFile(atPath: $0) }, "unshare is missing (util-linux)")
        let probe = try SpawnedProcess(URL(fileURLWithPath: unshare), ["--mount", "--propagation", "private", "true"])
        try #require(probe.waitUntilExit() == 0, "this test needs `unshare --mount` (run as root), which failed here")

        let session = try HeadlessSession(label: "tzchange")
        defer { session.stop() }
        let state = session.directory.appendingPathComponent("state")
        let trigger = session.directory.appendingPathComponent("switch-zone")
        try #require(mkfifo(trigger.path, 0o600) == 0)
        // The agent runs inside the namespace; the shell bind-mounts Tokyo over /etc/localtime
        // when the test writes to the fifo. TZ is cleared so /etc/localtime decides.
        let script = """
            unset TZ
            "$1" --state-dir "$2" &
            agent=$!
            read _ < "$3"
            mount --bind /usr/share/zoneinfo/Asia/Tokyo /etc/localtime
            wait $agent
            """
        let agent = try session.launch(URL(fileURLWithPath: unshare),
                                       ["--mount", "--propagation", "private", "/bin/sh", "-c", script, "sh",
                                        try AgentSession.binary("tocsind").path, state.path, trigger.path])
        defer { agent.terminate() }
        let tocsin = try AgentSession.binary("tocsin")
        func run(_ arguments: String...) throws -> CommandResult { try session.run(tocsin, arguments, extraEnvironment: ["TZ": "UTC"]) }
        func alarms() throws -> [[String: Any]] {
            try #require(JSONSerialization.jsonObject(with: Data(try run("list", "--json").stdout.utf8)) as? [[String: Any]])
        }
        func status() throws -> [String: Any] {
            try #require(JSONSerialization.jsonObject(with: Data(try run("status", "--json").stdout.utf8)) as? [String: Any])
        }
        try #require(try AgentSession.eventually(timeout: 10) { try run("list").status == 0 }, "the agent did not start: \(agent.standardError())")
        let zoneBefore = try status()["time-zone"] as? String
        #expect(zoneBefore != "Asia/Tokyo")

        // The CLI runs in UTC; the agent reads the same times in its own zone. Set alarms through
        // D-Bus keys that do not depend on the CLI's zone: a date and time, a daily time, an instant.
        // Two days ahead, so 07:00 that day is still ahead in Tokyo whatever the time of day now
        // (07:00 tomorrow in Tokyo has already passed after 22:00 UTC today).
        let dayAfterTomorrow = Date().addingTimeInterval(2 * 86_400).formatted(.iso8601.year().month().day())
        let local = try run("alarm", "07:00", "--date", dayAfterTomorrow, "--title", "Local")
        let daily = try run("alarm", "23:00", "--repeat", "daily", "--title", "Daily")
        let fixedInstant = Date().addingTimeInterval(3 * 86_400)
        let fixed = try run("alarm", fixedInstant.formatted(.iso8601), "--title", "Fixed")
        for result in [local, daily, fixed] { try #require(result.status == 0, "\(result)") }
        let timer = try run("timer", "10m", "--title", "Tea")
        try #require(timer.status == 0)
        let before = Dictionary(uniqueKeysWithValues: try alarms().map { ($0.string("title") ?? "", $0.number("fire-time") ?? 0) })

        let watch = try session.launch(tocsin, ["watch", "--json"])
        try #require(try AgentSession.eventually(timeout: 10) { try status()["watchers"] as? Int == 1 }, "the agent did not count tocsin watch as a watcher")
        let switched = Date()
        try "go\n".write(to: trigger, atomically: false, encoding: .utf8)

        let moved = { (title: String) in (try? alarms().first { $0.string("title") == title }?.number("fire-time")) ?? nil }
        var waited = 0.0
        while moved("Local") == before["Local"] && waited < 3 {
            Thread.sleep(forTimeInterval: 0.02)
            waited += 0.02
        }
        let noticedAfter = Date().timeIntervalSince(switched)
        #expect(noticedAfter < 1, "the zone change was noticed after \(noticedAfter) s")
        let after = Dictionary(uniqueKeysWithValues: try alarms().map { ($0.string("title") ?? "", $0.number("fire-time") ?? 0) })
        let zoneDifference = Double(TimeZone(identifier: "Asia/Tokyo")!.secondsFromGMT() - TimeZone(identifier: zoneBefore ?? "UTC")!.secondsFromGMT())
        // 07:00 in Tokyo comes nine hours sooner than 07:00 that day in UTC.
        #expect(after["Local"] == before["Local"].map { $0 - zoneDifference }, "Local: \(String(describing: before["Local"])) → \(String(describing: after["Local"]))")
        #expect(after["Fixed"] == before["Fixed"], "a fixed instant must not move")
        // A timer measures elapsed time, so it moves with every step of the wall clock (by as much):
        // on a virtual machine whose clock is stepped by a millisecond now and then (seen here:
        // fifteen steps in ten seconds after the VM was forked) it moves by those. A zone change
        // would move it by hours.
        #expect(abs((after["Tea"] ?? 0) - (before["Tea"] ?? 0)) < 0.5, "a timer must not move: \(String(describing: before["Tea"])) → \(String(describing: after["Tea"]))")
        #expect(after["Daily"] != before["Daily"], "the daily local alarm did not move")
        #expect(try status()["time-zone"] as? String == "Asia/Tokyo")
        // Both moves are printed.
        func rescheduledLines() -> Int { watch.standardOutput().components(separatedBy: "\"event\":\"rescheduled\"").count - 1 }
        _ = AgentSession.eventually(timeout: 5) { rescheduledLines() >= 2 }
        watch.terminate()
        #expect(rescheduledLines() == 2, "\(watch.standardOutput())")
        // The live countdown shows its end time in the new zone.
        let teaEnd = Date(timeIntervalSince1970: try #require(after["Tea"]))
        let endInTokyo = NotificationContentWriter(timeZone: TimeZoneRules(identifier: "Asia/Tokyo")!, localeIdentifier: NotificationContentWriter.environmentLocale(ProcessInfo.processInfo.environment)).timeOfDay(teaEnd)
        let updated = try session.waitForNotification(timeout: .seconds(3)) { $0.summary == "Tea" && $0.receivedAt > switched && $0.body.contains("ends \(endInTokyo)") }
        #expect(updated.body.contains(endInTokyo))
        #expect(agent.standardError().contains("The time zone is now Asia/Tokyo"), "\(agent.standardError())")
    }

    /// A stand-in logind on a private "system bus" tells the agent the machine slept; the agent
    /// itself is frozen meanwhile, like a suspended machine.
    @Test func alarmsDueDuringSleepAreHandledAtOnceOnResumeWithoutAStaleBurst() throws {
        let systemBus = try PrivateBus()
        defer { systemBus.stop() }
        let logind = try systemBus.connect()
        try PrivateBus.requestName("org.freedesktop.login1", on: logind)
        let fixture = try AgentSession("sleep", agentEnvironment: ["DBUS_SYSTEM_BUS_ADDRESS": systemBus.address])
        var ids: [String] = []
        for index in 0..<3 {
            ids.append(try fixture.setAlarm(AgentSession.instant(in: 2 + Double(index) * 0.5).text, "--title", "Stale \(index)", "--late-limit", "1s"))
        }
        let fresh = try fixture.setAlarm(AgentSession.instant(in: 2.5).text, "--title", "Fresh", "--late-limit", "1h")

        try PrivateBus.emitPrepareForSleep(on: logind, start: true)
        // Frozen once it has heard, as a machine suspends after logind's signal.
        try #require(fixture.eventually(timeout: 5) { fixture.agentLog.contains("The machine is going to sleep.") }, "\(fixture.agentLog)")
        fixture.agent.kill(signal: SIGSTOP)
        Thread.sleep(forTimeInterval: 5)
        let resumed = Date()
        fixture.agent.kill(signal: SIGCONT)
        try PrivateBus.emitPrepareForSleep(on: logind, start: false)

        let freshAlert = try fixture.waitForNotification(titled: "Fresh", timeout: .seconds(3)) { $0.urgency == 2 }
        #expect(freshAlert.receivedAt.timeIntervalSince(resumed) < 0.5, "the alarm within its late limit rang \(freshAlert.receivedAt.timeIntervalSince(resumed)) s after resume")
        for index in 0..<3 {
            _ = try fixture.session.waitForNotification(timeout: .seconds(3)) { $0.summary.hasPrefix("Missed: Stale \(index) (") }
            #expect(fixture.notifications(titled: "Stale \(index)").isEmpty, "a stale alarm showed its alert")
        }
        #expect(fixture.eventually(timeout: 3) { fixture.agentLog.contains("The machine woke from sleep") }, "\(fixture.agentLog)")
        #expect(fixture.agentLog.contains("The machine is going to sleep."))
        #expect(try fixture.alarms().compactMap { $0.string("id") } == [fresh], "only the ringing alarm is left")
        #expect(try fixture.tocsin("stop", fresh).status == 0)
        g_object_unref(UnsafeMutableRawPointer(logind))
    }
}

/// Setting the system clock: timers keep their remaining time, alarms keep their wall-clock time.
/// The test moves the machine's clock forward by 30 s and back again (needs CAP_SYS_TIME, which
/// root has); everything on the machine sees the jump for a moment, so it is kept short.
@Suite(.serialized) struct ClockChangeTests {
    /// Sets the wall clock by `offset` seconds with `date -s`, as an administrator would.
    private static func moveClock(by offset: Double) throws {
        let target = Date().timeIntervalSince1970 + offset
        let date = try SpawnedProcess(URL(fileURLWithPath: "/bin/date"), ["-s", String(format: "@%.6f", target)], standardOutput: .null)
        try #require(date.waitUntilExit() == 0, "setting the clock failed (this test needs CAP_SYS_TIME)")
    }

    @Test func timersKeepTheirRemainingTimeAndAlarmsTheirWallClockTime() throws {
        let fixture = try AgentSession("clockset")
        let timer = try fixture.startTimer("10m", "--title", "Timer")
        let (alarmDue, alarmText) = AgentSession.instant(in: 3600)
        let alarm = try fixture.setAlarm(alarmText, "--title", "Alarm")
        let timerBefore = try #require(try fixture.alarm(timer)?.number("fire-time"))

        try Self.moveClock(by: 30)
        var restored = false
        defer { if !restored { try? Self.moveClock(by: -30) } }
        let shifted = fixture.eventually(timeout: 3) {
            ((try? fixture.alarm(timer)?.number("fire-time")) ?? nil).map { abs($0 - (timerBefore + 30)) < 0.5 } == true
        }
        let alarmAfter = try fixture.alarm(alarm)?.number("fire-time")
        let log = fixture.agentLog
        try Self.moveClock(by: -30)
        restored = true

        #expect(shifted, "the timer did not move with the clock: \(log)")
        // The instant went through ISO 8601 text with milliseconds.
        #expect(alarmAfter.map { abs($0 - alarmDue.timeIntervalSince1970) < 0.001 } == true, "the alarm at a wall-clock instant moved: \(String(describing: alarmAfter))")
        #expect(log.contains("The system clock was set forward by 30 s"), "\(log)")
        // And back: the timer returns to where it was.
        #expect(fixture.eventually(timeout: 3) {
            ((try? fixture.alarm(timer)?.number("fire-time")) ?? nil).map { abs($0 - timerBefore) < 0.5 } == true
        })
    }
}
