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
        // Plasma keeps a popup up for as long as it is updated: the countdown's popup must go by
        // itself, into the history, and go on counting down there.
        _ = try fixture.session.waitForScreen(timeout: .seconds(12), "the countdown's popup gone by itself") { !$0.contains("Pasta") }
        let history = try openHistory(fixture, showing: "Pasta")
        let first = try #require(history.timeLeft, "no time left in the history: \(history.lines)")
        let later = try fixture.session.waitForScreen(timeout: .seconds(10), "the history's entry counting down") {
            $0.timeLeft.map { $0 != first } ?? false
        }
        #expect(later.contains("Pasta"))
        later.keepForREADME(as: "plasma-history.png")
        let all = fixture.notifications(titled: "Pasta")
        #expect(Set(all.map(\.id)).count == 1, "not replaced in place: \(all.map(\.id))")
        try fixture.session.clickOnScreen("Pause")
        #expect(try fixture.eventually { try fixture.alarm(id)?.string("state") == "paused" }, "the click did not pause it")
        try fixture.session.clickOnScreen("Resume")
        #expect(try fixture.eventually { try fixture.alarm(id)?.string("state") == "countdown" }, "the click did not resume it")
        #expect(try fixture.tocsin("cancel", id).status == 0)
        try fixture.session.click(x: Self.bell.x, y: Self.bell.y)

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

    /// Where Plasma's panel draws its notifications bell (1280×800, the panel at the bottom)
    /// while the history holds something (before, it hides among the tray's hidden items); a
    /// click opens and closes the history.
    static let bell = (x: 1072, y: 778)

    /// Opens the notification history by its bell, the way a person does, and waits for `title` in it.
    func openHistory(_ fixture: AgentSession, showing title: String) throws -> ScreenText {
        try fixture.session.click(x: Self.bell.x, y: Self.bell.y)
        return try fixture.session.waitForScreen(timeout: .seconds(10), "\(title) in Plasma's notification history") {
            $0.contains(title) && $0.word("Pause") != nil
        }
    }
}
