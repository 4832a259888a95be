import Foundation
import HeadlessSession
import Testing

/// AlarmKit's consent model on Linux: an application other than the user's command line asks
/// once, through a notification the user answers, before its alarms may ring.
@Suite(.serialized) struct AuthorizationTests {
    /// A `gdbus call` to the agent: an application the agent knows as "gdbus".
    static func gdbus(_ method: String, _ arguments: String...) -> [String] {
        ["call", "--session", "--timeout", "60", "--dest", "io.github.tocsin.Agent", "--object-path", "/io/github/tocsin/Agent",
         "--method", "io.github.tocsin.Alarms1.\(method)"] + arguments
    }

    @Test func anotherApplicationIsAskedOnceAndTheAnswerHolds() throws {
        let fixture = try AgentSession("consent")
        let gdbus = try HeadlessSession.executable("gdbus")
        // Scheduling waits for the answer.
        let waiting = try fixture.session.launch(gdbus, Self.gdbus("Schedule", "{'duration': <60.0>, 'title': <'From an app'>}"))
        let question = try fixture.waitForNotification(titled: "Allow “gdbus” to set alarms?", timeout: .seconds(5))
        #expect(question.buttonLabels == ["Allow", "Don’t Allow"])
        #expect(question.urgency == 2)
        Thread.sleep(forTimeInterval: 0.5)
        #expect(waiting.isRunning, "Schedule answered before the user did")
        #expect(try fixture.alarms().isEmpty)

        try fixture.session.clickAction(label: "Allow", onNotification: question.id)
        #expect(waiting.waitForExit(timeout: .seconds(5)) == 0, "\(waiting.standardError())")
        let id = waiting.standardOutput().firstMatch(of: /'([0-9a-f-]{36})'/).map { String($0.1) }
        let alarmID = try #require(id, "gdbus printed no id: \(waiting.standardOutput())")
        let alarm = try #require(try fixture.alarm(alarmID))
        #expect(alarm.string("app-id") == "gdbus")
        _ = try fixture.session.waitForNotificationClosed(id: question.id, timeout: .seconds(3))
        #expect(try fixture.tocsin("auth", "list").stdout.contains("gdbus  authorized"))

        // Asked once: the next request goes through at once.
        let second = try fixture.session.run(gdbus, Self.gdbus("Schedule", "{'duration': <60.0>}"))
        #expect(second.status == 0, "\(second)")
        #expect(fixture.notifications(titled: "Allow “gdbus” to set alarms?").count == 1)

        // Revoked: refused with a clear error.
        #expect(try fixture.tocsin("auth", "revoke", "gdbus").status == 0)
        let refused = try fixture.session.run(gdbus, Self.gdbus("Schedule", "{'duration': <60.0>}"))
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("io.github.tocsin.Error.NotAuthorized"), "\(refused.stderr)")
        #expect(refused.stderr.contains("“gdbus” may not set alarms: the user did not allow it"), "\(refused.stderr)")
    }

    @Test func dontAllowLeadsToDenied() throws {
        let fixture = try AgentSession("consent-denied")
        let gdbus = try HeadlessSession.executable("gdbus")
        let waiting = try fixture.session.launch(gdbus, Self.gdbus("RequestAuthorization"))
        let question = try fixture.waitForNotification(titled: "Allow “gdbus” to set alarms?", timeout: .seconds(5))
        try fixture.session.clickAction(label: "Don’t Allow", onNotification: question.id)
        #expect(waiting.waitForExit(timeout: .seconds(5)) == 0)
        #expect(waiting.standardOutput().contains("('denied',)"), "\(waiting.standardOutput())")
        let refused = try fixture.session.run(gdbus, Self.gdbus("Schedule", "{'duration': <60.0>}"))
        #expect(refused.stderr.contains("NotAuthorized"), "\(refused.stderr)")
        #expect(try fixture.alarms().isEmpty)
        // Reset: it is asked again.
        #expect(try fixture.tocsin("auth", "reset", "gdbus").status == 0)
        let again = try fixture.session.run(gdbus, Self.gdbus("GetAuthorization"))
        #expect(again.stdout.contains("('notDetermined',)"), "\(again)")
    }

    @Test func applicationsSeeTheirOwnAlarmsAndHaveALimit() throws {
        let fixture = try AgentSession("app-limit", agentArguments: ["--app-alarm-limit", "2"])
        let gdbus = try HeadlessSession.executable("gdbus")
        #expect(try fixture.tocsin("auth", "grant", "gdbus").status == 0)
        let mine = try fixture.startTimer("10m", "--title", "The user's")
        for _ in 0..<2 {
            #expect(try fixture.session.run(gdbus, Self.gdbus("Schedule", "{'duration': <600.0>, 'metadata': <'{\"step\": 1}'>}")).status == 0)
        }
        let third = try fixture.session.run(gdbus, Self.gdbus("Schedule", "{'duration': <600.0>}"))
        #expect(third.stderr.contains("io.github.tocsin.Error.LimitReached"), "\(third.stderr)")
        #expect(third.stderr.contains("“gdbus” already holds 2 alarms, the most an application may"), "\(third.stderr)")
        // The command line is not limited by it, and sees every alarm; the app sees its own.
        #expect(try fixture.startTimer("10m").isEmpty == false)
        #expect(try fixture.alarms().count == 4)
        let appList = try fixture.session.run(gdbus, Self.gdbus("List"))
        #expect(appList.stdout.components(separatedBy: "'app-id': <'gdbus'>").count - 1 == 2, "\(appList.stdout)")
        #expect(!appList.stdout.contains("The user's"))
        #expect(appList.stdout.contains("'metadata': <'{\"step\": 1}'>"), "\(appList.stdout)")
        let cancelOthers = try fixture.session.run(gdbus, Self.gdbus("Cancel", mine))
        #expect(cancelOthers.stderr.contains("io.github.tocsin.Error.NotFound"), "\(cancelOthers.stderr)")
        let listAuth = try fixture.session.run(gdbus, Self.gdbus("ListAuthorizations"))
        #expect(listAuth.stderr.contains("NotAuthorized"), "an application read the authorizations: \(listAuth)")
    }

    @Test func hooksReceiveTheMetadataAndFireTime() throws {
        let fixture = try AgentSession("metadata")
        let output = fixture.session.directory.appendingPathComponent("hook-env.txt")
        #expect(try fixture.tocsin("auth", "grant", "gdbus").status == 0)
        let gdbus = try HeadlessSession.executable("gdbus")
        let hook = "env | grep ^TOCSIN_ | sort > \(output.path)"
        let schedule = try fixture.session.run(gdbus, Self.gdbus("Schedule", "{'duration': <1.0>, 'title': <'Step'>, 'metadata': <'{\"recipe\": \"bread\"}'>, 'hooks': <{'fire': '\(hook)'}>}"))
        #expect(schedule.status == 0, "\(schedule)")
        #expect(fixture.eventually(timeout: 4) { ((try? String(contentsOf: output, encoding: .utf8)) ?? "").contains("TOCSIN_TITLE") })
        let environment = try String(contentsOf: output, encoding: .utf8)
        #expect(environment.contains("TOCSIN_METADATA={\"recipe\": \"bread\"}\n"), "\(environment)")
        #expect(environment.contains("TOCSIN_APP_ID=gdbus\n"))
        #expect(environment.contains("TOCSIN_EVENT=fire\n"))
        #expect(environment.firstMatch(of: /TOCSIN_FIRE_TIME=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z\n/) != nil, "\(environment)")
        let tooBig = String(repeating: "x", count: 5000)
        let refused = try fixture.session.run(gdbus, Self.gdbus("Schedule", "{'duration': <60.0>, 'metadata': <'\"\(tooBig)\"'>}"))
        #expect(refused.stderr.contains("at most 4096 are kept with an alarm"), "\(refused.stderr.prefix(300))")
        #expect(try fixture.tocsin("stop").status == 0)
    }
}
