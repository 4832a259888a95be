import Foundation
import HeadlessSession
import Testing

/// GNOME Shell 49 and later, without Tocsin's extension: the lock screen's own media controls
/// (49 shows every MPRIS player there) show a ringing timer — Tocsin's media player, its title
/// and, below it, what the controls do — and their play/pause stops it without unlocking. Run on
/// GNOME 50 (Debian testing's, headless on a Wayland display of its own:
/// `GnomeShellRelease.forky`), the one release here with them; 43 and 48 have none (and their
/// tests, GnomeLockScreenTests, do not run on 50: the GNOME 45+ build of the extension declares
/// shell versions up to 49). Prints its figure (due → title read) as a "lock-screen figure: …"
/// line, as GnomeLockScreenTests do.
///
/// The screen is read from the shell's screenshots by OCR, the sound from the sink's monitor,
/// the lock from `org.gnome.ScreenSaver.GetActive`; the click is mutter's remote-desktop
/// pointer, which the shell takes as a mouse's.
@Suite(.serialized) struct GnomeMediaControlsLockTests {
    @Test func gnome50sLockScreenMediaControlsShowTheRingingTimerAndTheirPlayPauseStopsItWithoutUnlocking() throws {
        let locked = try LockedGnome("gnome-lock-media", release: .forky, withExtension: false)
        let fixture = locked.fixture
        try fixture.doctorOnceItSays("warning  locked screen: GNOME Shell 50's lock screen shows a ringing alarm in its media controls, with its title: play/pause stops it")
        let recording = try fixture.session.startRecording()
        try locked.lockAndWaitUntilBlack()
        // Set once locked: its countdown's notification may light the screen (GNOME's own
        // waking), but no player is on the bus until it rings.
        let id = try fixture.startTimer("6s", "--title", "Porridge")
        let due = try locked.dueTime(of: id)

        let (screen, readAt) = try locked.waitForScreen(timeout: 30, "the ringing timer in the media controls") { $0.mediaTitle("Porridge") != nil }
        locked.report("without the extension: due → title in the media controls (screenshot taken)", from: due, to: readAt)
        #expect(readAt > due.addingTimeInterval(-1), "the media controls showed the timer \(due.timeIntervalSince(readAt)) s before it was due")
        screen.keepForREADME(as: "gnome-50-lock-screen-media.png", crop: (x: 380...899, y: 250...799))
        #expect(fixture.eventually(timeout: 3) { recording.currentTrace().firstLoudWindow(after: due.addingTimeInterval(-1)) != nil }, "no sound")
        #expect(try fixture.session.isScreenLocked)

        // Play/pause: the one bright button of the row (previous and next are greyed: a timer
        // without a snooze has neither), clicked while locked. Looked for on screenshots from the
        // one the title was read on, until the row has settled: read the moment the controls
        // appeared (16 ms after due, in a clean-clone run), their buttons were not drawn yet.
        var (shown, title) = (screen, try #require(screen.mediaTitle("Porridge")))
        var buttons: [Int] = []
        let settleBy = Date().addingTimeInterval(10)
        while true {
            buttons = try Self.brightButtons(fixture, in: shown, rightOf: title, centredOn: Self.buttonRow(below: title))
            guard buttons.isEmpty, Date() < settleBy else { break }
            shown = try locked.waitForScreen(timeout: 10, "the media controls again") { $0.mediaTitle("Porridge") != nil }.text
            title = try #require(shown.mediaTitle("Porridge"))
        }
        let rowCentre = Self.buttonRow(below: title)
        let playPause = try #require(buttons.first, "no button drawn in the media controls within 10 s of their title")
        #expect(buttons.count == 1, "bright buttons at \(buttons) for a timer without a snooze")
        try fixture.expectStoppedIntoSilence(id, recording: recording) { try fixture.session.click(x: playPause, y: rowCentre) }
        #expect(fixture.agentLog.contains("The media player's PlayPause"), "the click came not as PlayPause: \(fixture.agentLog)")
        #expect(try fixture.session.isScreenLocked, "play/pause unlocked the screen")
        try locked.waitForScreen("the media controls gone") { $0.mediaTitle("Porridge") == nil && $0.contains("unlock") }
    }

    /// The screen row the media controls' buttons sit on: level with the middle of the title
    /// and artist lines, below the title's centre.
    static func buttonRow(below title: ScreenText.Word) -> Int { title.center.y + 15 }

    /// The centres (screen columns) of the bright buttons in the media controls' row whose title
    /// is `title`, left to right: the strip right of the title and artist lines, where
    /// previous, play/pause and next are drawn. Greyed buttons and the row's ground stay below
    /// the threshold (greyed ones read 153 at most, a bright one 250).
    static func brightButtons(_ fixture: AgentSession, in screen: ScreenText, rightOf title: ScreenText.Word, centredOn row: Int) throws -> [Int] {
        let shot = try #require(screen.screenshot)
        let left = title.left + 140
        let strip = try fixture.session.pixels(of: shot, x: left, y: row - 12, width: 200, height: 24)
        return ScreenPixels.runs(of: strip.brightColumns(threshold: 230), joiningGapsUpTo: 6).map { left + ($0.lowerBound + $0.upperBound) / 2 }
    }
}

extension ScreenText {
    /// The word `title` as GNOME's media controls draw a player's title: the artist line right
    /// below it (Tocsin's: "Play/Pause or Stop: stop · Next: snooze", cut to "Play/Pause or …").
    /// A notification's row on the lock screen puts its body beside the title, not below.
    func mediaTitle(_ title: String) -> Word? {
        words.first { word in
            word.text == title && words.contains {
                $0.text.hasPrefix("Play/Pause") && $0.top > word.top && $0.top - word.top < 40 && abs($0.left - word.left) < 15
            }
        }
    }
}
