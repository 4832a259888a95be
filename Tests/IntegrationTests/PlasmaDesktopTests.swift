import Foundation
import HeadlessSession
import Testing

/// Tocsin on KDE Plasma 5.27's notification server (plasmashell), as a person sees and uses it:
/// popups read off the screen, buttons clicked where Plasma draws them, the alarm heard, through
/// Plasma's own do-not-disturb. A re-ring after a snooze used to read exactly like the first.
@Suite(.serialized) struct PlasmaDesktopTests {
    @Test func aCountdownIsReadablePausedAndResumedAndItsAlertRingsThroughDoNotDisturbSnoozedAndStopped() throws {
        let fixture = try AgentSession("plasma", notificationServer: .plasma)
        try fixture.doctorOnceItSays("notifications: Plasma 5.27", timeout: 15)

        let id = try fixture.startTimer("5m", "--title", "Pasta")
        let counting = try fixture.session.waitForScreen(timeout: .seconds(15), "Pasta counting down, with Pause and Cancel") {
            $0.contains("Pasta") && $0.contains("remaining") && $0.word("Pause") != nil && $0.word("Cancel") != nil
        }
        counting.keepForREADME(as: "plasma-countdown.png")
        // The popup's header names Tocsin beside its colour icon, both from the desktop entry.
        let name = try #require(counting.words.last { $0.text == "Tocsin" && $0.top > 400 }, "no “Tocsin” in the popup's header:\n\(counting)")
        let icon = try fixture.iconColours(leftOf: name, in: counting, size: 20, gap: 2)
        #expect(icon.showsTocsinsColourIcon, "no Tocsin icon in the popup's header (face and bell pixels: \(icon.tocsinIconPixels))")
        // Plasma keeps a popup up for as long as it is updated: the countdown's popup must go by
        // itself, into the history, and go on counting down there.
        _ = try fixture.session.waitForScreen(timeout: .seconds(12), "the countdown's popup gone by itself") { !$0.contains("Pasta") }
        let (bell, history) = try openHistory(fixture, showing: "Pasta")
        let first = try #require(history.timeLeft, "no time left in the history: \(history.lines)")
        let later = try fixture.session.waitForScreen(timeout: .seconds(10), "the history's entry counting down") {
            $0.timeLeft.map { $0 != first } ?? false
        }
        #expect(later.contains("Pasta"))
        later.keepForREADME(as: "plasma-history.png")
        let all = fixture.notifications(titled: "Pasta")
        #expect(Set(all.map(\.id)).count == 1, "not replaced in place: \(all.map(\.id))")
        #expect(try fixture.click("Pause", until: { try fixture.alarm(id)?.string("state") == "paused" }), "three clicks did not pause it")
        #expect(try fixture.click("Resume", until: { try fixture.alarm(id)?.string("state") == "countdown" }), "three clicks did not resume it")
        try fixture.session.click(x: bell, y: Self.trayRow)
        _ = try fixture.session.waitForScreen(timeout: .seconds(10), "the history closed") { !$0.contains("remaining") && $0.word("Resume") == nil }

        // Tocsin's own item in Plasma's tray, its menu opened by a click.
        let (_, menu) = try openTrayIcon(fixture, "Tocsin's tray menu", skipping: bell) {
            // The timer's own line ("Pasta: 4:27 left") and "Stop all ringing" are greyed out,
            // too faint for tesseract; the dbusmenu layout they come from is PanelTests'.
            $0.contains("New timer") && !$0.contains("remaining") && $0.word("Pause") != nil && $0.word("Cancel") != nil
        }
        let iconsWithTheItem = try fixture.session.iconCenters(x: Self.trayIcons, y: Self.trayRows).count
        menu.keepForREADME(as: "plasma-tray-menu.png")
        // The click comes back to the agent as dbusmenu's Event from plasmashell. Here plasmashell
        // runs as another user than the agent (the tests run as root, Plasma as tocsin-desktop),
        // so the agent refuses it, as it refuses every other user's program; that an Event from
        // the agent's own user pauses the timer is PanelTests' (waybar's tray).
        try fixture.session.clickOnScreen("Pause")
        #expect(fixture.eventually(timeout: 5) { fixture.agentLog.contains("Ignoring a click on “Pause” in the tray menu from another user's program") },
                "Plasma's click on the menu's Pause did not reach the agent: \(fixture.agentLog)")
        #expect(try fixture.alarm(id)?.string("state") == "countdown", "another user's click changed the timer")
        #expect(try fixture.tocsin("cancel", id).status == 0)
        #expect(fixture.eventually(timeout: 5) {
            ((try? fixture.session.iconCenters(x: Self.trayIcons, y: Self.trayRows)) ?? []).count == iconsWithTheItem - 1
        }, "Tocsin's item is still in the tray with nothing running")

        try fixture.session.setDoNotDisturb(true)
        try fixture.doctorOnceItSays("on (Plasma's do not disturb); alarm alerts still show")
        let recording = try fixture.session.startRecording()
        let started = Date()
        let tea = try fixture.startTimer("2s", "--title", "Tea", "--snooze", "12s")
        let ringing = try fixture.session.waitForScreen(timeout: .seconds(15), "Tea ringing with Stop and Snooze") {
            $0.contains("Tea") && $0.word("Stop") != nil && $0.word("Snooze") != nil
        }
        ringing.keepForREADME(as: "plasma-alert.png")
        #expect(fixture.eventually(timeout: 3) { recording.currentTrace().firstLoudWindow(after: started) != nil }, "no sound")
        try fixture.session.clickOnScreen("Snooze")
        #expect(try fixture.eventually { try fixture.alarm(tea)?.string("state") == "countdown" }, "Snooze did not snooze")

        let again = try fixture.session.waitForScreen(timeout: .seconds(25), "the re-ring saying it was snoozed") {
            $0.contains("again") && $0.contains("snoozed") && $0.word("Stop") != nil
        }
        #expect(again.contains("Tea"))
        try fixture.expectStoppedIntoSilence(tea, recording: recording) { try fixture.session.clickOnScreen("Stop") }
    }

    /// The row of Plasma's panel (1280×800, at the bottom) its tray icons are centred on, the
    /// rows they span, and the columns left of the clock where the tray draws them.
    static let trayRow = 778
    static let trayRows = 768...788
    static let trayIcons = 880...1145

    /// Clicks the tray icons from left to right (but the one at `known`, whose popup is some other
    /// thing) until what one opens shows `condition`, the way
    /// a person finds an icon they do not know, and returns where it was and what it showed;
    /// whatever a wrong one opened is closed again (Escape). The icons move as items come and
    /// go (Tocsin's item, the bell once the history holds something), and a pointer resting on
    /// one raised no tooltip on this display.
    func openTrayIcon(_ fixture: AgentSession, _ what: String, skipping known: Int? = nil,
                      until condition: (ScreenText) -> Bool) throws -> (icon: Int, screen: ScreenText) {
        let icons = try fixture.session.iconCenters(x: Self.trayIcons, y: Self.trayRows)
        for icon in icons where icon != known {
            try fixture.session.click(x: icon, y: Self.trayRow)
            // A reading of the screen takes about 2 s here.
            if let screen = try? fixture.session.waitForScreen(timeout: .seconds(5), what, until: condition) { return (icon, screen) }
            try fixture.session.pressKeys("Escape")
            Thread.sleep(forTimeInterval: 0.5)
        }
        throw IntegrationError("no tray icon (of those at \(icons)) opened \(what)")
    }

    /// Opens the notification history by its bell, the way a person does, and waits for `title`
    /// in it; returns where the bell is (a click on it closes the history again) and the screen.
    func openHistory(_ fixture: AgentSession, showing title: String) throws -> (bell: Int, screen: ScreenText) {
        let (icon, screen) = try openTrayIcon(fixture, "\(title) in Plasma's notification history") {
            $0.contains("Do not disturb") && $0.contains(title) && $0.word("Pause") != nil
        }
        return (icon, screen)
    }
}
