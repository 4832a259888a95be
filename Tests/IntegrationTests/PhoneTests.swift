import Foundation
import HeadlessSession
import Testing

/// Ringing the paired phones (`tocsin phone`), with the real agent and command line, and real
/// KDE Connect daemons: the desk's, and one that plays the phone, each in a network namespace of
/// its own (`KDEConnectPair`; root only, as CI runs). Without KDE Connect, nothing changes at the desk.
@Suite(.serialized) struct PhoneTests {
    @Test func theSettingIsFollowedAtOnceAndNoKDEConnectNeverDelaysTheDesk() throws {
        let fixture = try AgentSession("phone-none")
        #expect(try fixture.tocsin("phone", "status").stdout.hasPrefix("Phones: off."))
        let enabled = try fixture.tocsin("phone", "enable", "--after", "1s")
        #expect(enabled.status == 0 && enabled.stdout.hasPrefix("Phones: on. An alarm unanswered for 1 s"), "\(enabled)")
        // The agent follows the file the command line wrote, without being told.
        #expect(fixture.eventually(timeout: 5) { fixture.agentLog.contains("Alarms ring the paired phones after 1 s unanswered.") }, "\(fixture.agentLog)")
        let doctor = try fixture.tocsin("doctor").stdout
        #expect(doctor.contains("warning  phones: on after 1 s unanswered, but neither KDE Connect nor GSConnect answers (KDE Connect: "), "\(doctor)")

        let recording = try fixture.session.startRecording()
        let id = try fixture.startTimer("1s", "--title", "Tea")
        let alert = try fixture.waitForNotification(titled: "Tea") { $0.urgency == 2 }
        #expect(fixture.eventually(timeout: 3) { recording.currentTrace().firstLoudWindow(after: alert.receivedAt.addingTimeInterval(-0.5)) != nil },
                "no sound at the desk")
        #expect(fixture.eventually(timeout: 5) { fixture.agentLog.contains("No phone was rung for “Tea”: neither KDE Connect nor GSConnect answers (KDE Connect: ") },
                "\(fixture.agentLog)")
        #expect(try fixture.alarm(id)?.string("state") == "alerting", "still ringing at the desk")
        #expect(try fixture.tocsin("stop").status == 0)

        // A second unanswered alarm: the same failure is not logged again.
        let again = try fixture.startTimer("1s", "--title", "Tea")
        _ = try fixture.waitForNotification(titled: "Tea") { $0.urgency == 2 && $0.receivedAt > alert.receivedAt.addingTimeInterval(1) }
        Thread.sleep(forTimeInterval: 2)
        #expect(fixture.agentLog.components(separatedBy: "neither KDE Connect nor GSConnect answers").count == 2, "logged more than once:\n\(fixture.agentLog)")
        #expect(try fixture.tocsin("stop", again).status == 0)
        _ = recording.stop()

        // A file that cannot be read is refused by the command line and rings no phone.
        let file = fixture.session.directory.appendingPathComponent("config/tocsin/phone.json")
        try Data("{not json".utf8).write(to: file)
        let refused = try fixture.tocsin("phone", "disable")
        #expect(refused.status == 1 && refused.stderr.contains("could not be read"), "\(refused)")
        #expect(try String(contentsOf: file, encoding: .utf8) == "{not json", "written over")
        #expect(fixture.eventually(timeout: 5) { fixture.agentLog.contains("No phone will be rung:") }, "\(fixture.agentLog)")
    }

    @Test func anUnansweredAlarmRingsThePairedPhoneAndOneAnsweredInTimeDoesNot() throws {
        let fixture = try AgentSession("phone-kdeconnect")
        let pair = try fixture.session.startKDEConnectPair()
        #expect(try fixture.tocsin("phone", "enable", "--after", "2s").status == 0)
        #expect(fixture.eventually(timeout: 5) { fixture.agentLog.contains("Alarms ring the paired phones after 2 s unanswered.") }, "\(fixture.agentLog)")
        let doctor = try fixture.tocsin("doctor").stdout
        #expect(doctor.contains("ok       phones: on after 2 s unanswered: Phone will ring"), "\(doctor)")

        // Stopped at the desk within its 2 s: the phone never hears of it.
        let early = try fixture.startTimer("1s", "--title", "Early")
        _ = try fixture.waitForNotification(titled: "Early") { $0.urgency == 2 }
        #expect(try fixture.tocsin("stop", early).status == 0)
        Thread.sleep(forTimeInterval: 3)
        #expect(fixture.agentLog.contains("“Early” was answered before the phones were rung; they are not."), "\(fixture.agentLog)")
        #expect(!pair.phoneNotificationTexts().contains { $0.contains("Early") } && !pair.phoneIsRinging(), "the phone was rung for an answered alarm")

        // An alarm that says --no-phone rings at the desk only, however long.
        let deskOnly = try fixture.startTimer("1s", "--title", "Desk only", "--no-phone")
        _ = try fixture.waitForNotification(titled: "Desk only") { $0.urgency == 2 }
        Thread.sleep(forTimeInterval: 3.5)
        #expect(!pair.phoneNotificationTexts().contains { $0.contains("Desk only") }, "--no-phone rang the phone")
        #expect(try fixture.tocsin("stop", deskOnly).status == 0)

        // Unanswered: after 2 s the phone rings (its find-my-phone sound plays) and shows the ping,
        // while the desk still rings.
        let rung = fixture.session.directory.appendingPathComponent("phone-hook")
        let tea = try fixture.startTimer("1s", "--title", "Tea", "--on-phone", "echo \"$TOCSIN_EVENT $TOCSIN_TITLE\" > \(rung.path)")
        _ = try fixture.waitForNotification(titled: "Tea") { $0.urgency == 2 }
        #expect(fixture.eventually(timeout: 10) { pair.phoneNotificationTexts().contains("⏰ Tea") },
                "no ping on the phone: \(pair.phoneNotificationTexts())\n\(fixture.agentLog)")
        #expect(fixture.eventually(timeout: 10) { pair.phoneIsRinging() }, "the phone's find-my-phone did not ring\n\(pair.phoneDaemon.standardError())")
        #expect(fixture.agentLog.contains("Rang the phone \(pair.phoneID) (KDE Connect) for “Tea”."), "\(fixture.agentLog)")
        #expect(fixture.agentLog.contains("“Tea” has rung 2 s unanswered; ringing the phones."), "\(fixture.agentLog)")
        #expect(fixture.eventually(timeout: 5) { (try? String(contentsOf: rung, encoding: .utf8)) == "phone Tea\n" }, "the phone hook did not run")
        #expect(try fixture.alarm(tea)?.string("state") == "alerting", "the desk still rings")
        #expect(try fixture.tocsin("stop", tea).status == 0)
    }

    @Test func thePhoneStopsAndSnoozesARingingAlarmThroughKDEConnectsRunCommands() throws {
        let fixture = try AgentSession("phone-commands")
        let pair = try fixture.session.startKDEConnectPair()
        // A command of the user's own, which setup must keep.
        let file = pair.deskConfig.appendingPathComponent("\(pair.phoneID)/kdeconnect_runcommand/config")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "[General]\ncommands=\"@ByteArray({\\\"mine\\\":{\\\"command\\\":\\\"true\\\",\\\"name\\\":\\\"Lock\\\"}})\"\n".write(to: file, atomically: true, encoding: .utf8)
        let setup = try fixture.tocsin("phone", "setup")
        #expect(setup.status == 0 && setup.stdout.contains("\(pair.phoneID): Stop alarm and Snooze alarm added."), "\(setup)")
        let offered = pair.commandsOfferedToPhone
        #expect(fixture.eventually(timeout: 10) { offered().contains("Stop alarm") && offered().contains("Snooze alarm") && offered().contains("Lock") },
                "the phone was not offered the commands: \(offered())")

        // Snooze from the phone, then Stop from the phone.
        let tea = try fixture.startTimer("1s", "--title", "Tea", "--snooze", "1m")
        _ = try fixture.waitForNotification(titled: "Tea") { $0.urgency == 2 }
        try pair.triggerCommandFromPhone("tocsin-snooze")
        #expect(try fixture.eventually(timeout: 5) { try fixture.alarm(tea)?.string("state") == "countdown" }, "the phone's Snooze alarm did not snooze it")
        let bread = try fixture.startTimer("1s", "--title", "Bread")
        _ = try fixture.waitForNotification(titled: "Bread") { $0.urgency == 2 }
        try pair.triggerCommandFromPhone("tocsin-stop")
        #expect(try fixture.eventually(timeout: 5) { try fixture.alarm(bread) == nil }, "the phone's Stop alarm did not stop it")

        // Phones are off here; an alarm that asks for them itself still rings them.
        #expect(try fixture.tocsin("phone", "status").stdout.hasPrefix("Phones: off."))
        let own = try fixture.startTimer("1s", "--title", "Own", "--phone-after", "1s")
        #expect(try fixture.tocsin("show", own).stdout.contains("rung after 1 s unanswered"))
        #expect(fixture.eventually(timeout: 10) { pair.phoneNotificationTexts().contains("⏰ Own") }, "--phone-after did not ring the phone")
        #expect(try fixture.tocsin("stop", own).status == 0)

        let removed = try fixture.tocsin("phone", "setup", "--remove")
        #expect(removed.status == 0, "\(removed)")
        #expect(fixture.eventually(timeout: 10) { !offered().contains("Stop alarm") && offered().contains("Lock") }, "\(offered())")
        #expect(try fixture.tocsin("cancel", tea).status == 0)
    }

    /// GSConnect, GNOME's KDE Connect, as the desk, in GNOME's session (its settings in dconf):
    /// the same phone rings and gets the ping, and takes the run commands `tocsin phone setup`
    /// puts in GSConnect's settings.
    @Test func onGNOMEGSConnectRingsThePhoneAndTakesItsRunCommands() throws {
        let fixture = try AgentSession("phone-gsconnect", notificationServer: .gnomeShell)
        let pair = try fixture.session.startKDEConnectPair(desk: .gsConnect)
        #expect(try fixture.tocsin("phone", "enable", "--after", "1s").status == 0)
        #expect(fixture.eventually(timeout: 5) { fixture.agentLog.contains("Alarms ring the paired phones after 1 s unanswered.") }, "\(fixture.agentLog)")
        let doctor = try fixture.tocsin("doctor").stdout
        #expect(doctor.contains("ok       phones: on after 1 s unanswered: Phone will ring"), "\(doctor)")

        // A command of the user's own, which setup must keep.
        let settings = "org.gnome.Shell.Extensions.GSConnect.Plugin.RunCommand:/org/gnome/shell/extensions/gsconnect/device/\(pair.phoneID)/plugin/runcommand/"
        _ = try fixture.session.run(URL(fileURLWithPath: "/usr/bin/gsettings"),
                                    ["set", settings, "command-list", "{'mine': <{'name': 'Lock', 'command': 'true'}>}"])
        let offered = pair.commandsOfferedToPhone
        #expect(fixture.eventually(timeout: 10) { offered().contains("Lock") }, "GSConnect did not offer the user's command: \(offered())")
        let setup = try fixture.tocsin("phone", "setup")
        #expect(setup.status == 0 && setup.stdout.contains("\(pair.phoneID): Stop alarm and Snooze alarm added."), "\(setup)")
        #expect(fixture.eventually(timeout: 10) { offered().contains("Stop alarm") && offered().contains("Snooze alarm") && offered().contains("Lock") },
                "the phone was not offered the commands: \(offered())")

        // Unanswered for 1 s: the phone rings and shows the ping; the phone's Stop alarm stops it.
        let tea = try fixture.startTimer("1s", "--title", "Tea")
        _ = try fixture.waitForNotification(titled: "Tea") { $0.urgency == 2 }
        #expect(fixture.eventually(timeout: 10) { pair.phoneNotificationTexts().contains("⏰ Tea") },
                "no ping on the phone: \(pair.phoneNotificationTexts())\n\(fixture.agentLog)")
        #expect(fixture.eventually(timeout: 10) { pair.phoneIsRinging() }, "the phone's find-my-phone did not ring\n\(pair.phoneDaemon.standardError())")
        #expect(fixture.agentLog.contains("Rang the phone \(pair.phoneID) (GSConnect) for “Tea”."), "\(fixture.agentLog)")
        try pair.triggerCommandFromPhone("tocsin-stop")
        #expect(try fixture.eventually(timeout: 5) { try fixture.alarm(tea) == nil }, "the phone's Stop alarm did not stop it\n\(pair.deskDaemon.standardError())")

        let removed = try fixture.tocsin("phone", "setup", "--remove")
        #expect(removed.status == 0, "\(removed)")
        #expect(fixture.eventually(timeout: 10) { !offered().contains("Stop alarm") && offered().contains("Lock") }, "\(offered())")
    }
}
