import Foundation
import HeadlessSession
import Testing

/// Tocsin on mako 1.7 in headless sway, as a person sees and uses it: what mako shows (its own
/// listing, `makoctl list`, and the screen read with OCR), a click made the way mako makes one
/// (its default action, `makoctl invoke`), the alarm heard. mako advertises buttons and draws
/// none, and tells nobody when its do-not-disturb mode changes.
@Suite(.serialized) struct MakoDesktopTests {
    @Test func aCountdownShowsItsCommandsAndAClickPausesIt() throws {
        let fixture = try AgentSession("mako-countdown", notificationServer: .mako)
        let id = try fixture.startTimer("5m", "--title", "Pasta")
        let short = String(id.prefix(8))

        var shown: MakoNotification?
        #expect(try fixture.eventually { shown = try Self.shown(fixture, titled: "Pasta"); return shown?.body.contains("remaining") == true },
                "mako does not list the countdown")
        let countdown = try #require(shown)
        #expect(countdown.body.contains("Click to pause. Type tocsin pause \(short) to pause, tocsin cancel \(short) to cancel."), "\(countdown.body)")
        let screen = try fixture.session.waitForScreen("Pasta and its time left") { $0.contains("Pasta") && $0.contains("remaining") }
        // As read: "5:00 remaining, ends 23:05." on its own line, then "Click to pause. Type
        // tocsin pause 5ab02b60 to" (mako wraps the rest), sentences that read right joined too.
        #expect(screen.countdownSentence != nil, "the countdown does not read “m:ss remaining, ends HH:MM.” alone on its line:\n\(screen)")
        // The id is any word: tesseract once read 5c870ded as "5c8/0ded".
        #expect(screen.lines.contains { $0.contains(/^Click to pause\. Type tocsin pause \S+ to/) }, "no “Click to pause.” before the commands:\n\(screen)")
        screen.keepForREADME(as: "mako-countdown.png")

        let sent = fixture.notifications(titled: "Pasta")
        #expect(Set(sent.map(\.id)).count == 1, "not replaced in place: \(sent.map(\.id))")
        #expect(sent.last?.value != nil, "mako draws the value hint as a fill")
        #expect(sent.last?.defaultAction?.key == "default")

        // What mako does for a left click: its default action.
        try fixture.session.makoctl("invoke", "-n", String(countdown.id), "default")
        #expect(try fixture.eventually { try fixture.alarm(id)?.string("state") == "paused" }, "the click did not pause it")
        #expect(try fixture.eventually { try Self.shown(fixture, titled: "Pasta")?.body.hasPrefix("Paused") == true })

        let doctor = try fixture.tocsin("doctor").stdout
        #expect(doctor.contains("warning  notifications: mako"), "\(doctor)")
        #expect(doctor.contains("it shows no buttons"), "\(doctor)")
    }

    @Test func doNotDisturbIsReadAtOnceTheAlarmRingsHiddenAndAClickStopsIt() throws {
        let fixture = try AgentSession("mako-alert", notificationServer: .mako)
        #expect(try fixture.tocsin("doctor").stdout.contains("ok       do not disturb: off"))
        try fixture.session.setDoNotDisturb(true)
        // mako signals nothing: the agent asks before it answers, so the next doctor knows.
        let doctor = try fixture.tocsin("doctor").stdout
        #expect(doctor.contains("do not disturb: on (mako's do-not-disturb mode): even alarm alerts are hidden"), "\(doctor)")

        let recording = try fixture.session.startRecording()
        let started = Date()
        let id = try fixture.startTimer("2s", "--title", "Tea")
        #expect(fixture.eventually(timeout: 5) { recording.currentTrace().firstLoudWindow(after: started) != nil }, "no sound")
        var alert: MakoNotification?
        #expect(try fixture.eventually { alert = try Self.shown(fixture, titled: "Tea"); return alert?.body.contains("Time’s up") == true },
                "mako does not list the alert")
        let hidden = try fixture.session.readScreen()
        #expect(!hidden.contains("Tea"), "mako's do-not-disturb shows it after all:\n\(hidden)")
        #expect(fixture.eventually { fixture.agentLog.contains("“Tea” is ringing, but its alert is hidden (mako's do-not-disturb mode)") }, "\(fixture.agentLog)")

        try fixture.session.setDoNotDisturb(false)
        let ringing = try fixture.session.waitForScreen("the alert once do-not-disturb is off") { $0.contains("Tea") && $0.contains("Click to stop") }
        ringing.keepForREADME(as: "mako-alert.png")
        #expect(ringing.timersAlertSentence != nil, "the alert does not read “Time’s up: m:ss timer, rang at HH:MM.”:\n\(ringing)")
        #expect(ringing.lines.contains { $0.contains(/^Click to stop\. Type tocsin stop to stop/) }, "\(ringing)")
        let shownAlert = try #require(alert)
        #expect(shownAlert.body.contains("Click to stop. Type tocsin stop to stop"), "\(shownAlert.body)")

        try fixture.expectStoppedIntoSilence(id, recording: recording) { try fixture.session.makoctl("invoke", "-n", String(shownAlert.id), "default") }
        #expect(try fixture.eventually { try Self.shown(fixture, titled: "Tea") == nil }, "the alert is still listed")
    }

    /// A notification as `makoctl list` lists it.
    struct MakoNotification {
        let id: UInt32
        let summary: String
        let body: String
        let actions: [String: String]
    }

    /// The newest notification mako lists with this summary.
    static func shown(_ fixture: AgentSession, titled summary: String) throws -> MakoNotification? {
        let listing = try fixture.session.makoctl("list")
        guard let object = try JSONSerialization.jsonObject(with: Data(listing.utf8)) as? [String: Any],
              let outer = object["data"] as? [[[String: Any]]], let entries = outer.first else { return nil }
        func value<T>(_ entry: [String: Any], _ key: String) -> T? { (entry[key] as? [String: Any])?["data"] as? T }
        return entries.lazy.compactMap { entry -> MakoNotification? in
            guard let title: String = value(entry, "summary"), title == summary, let id: NSNumber = value(entry, "id") else { return nil }
            return MakoNotification(id: id.uint32Value, summary: title, body: value(entry, "body") ?? "", actions: value(entry, "actions") ?? [:])
        }.first
    }

}
