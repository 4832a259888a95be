import Foundation
import HeadlessSession
import Testing

/// A timer rings while gtklock 4 (Debian 13's, with gtklock-playerctl-module 4.0.0) has sway
/// 1.10 locked through ext-session-lock-v1: what its media row shows of Tocsin's player, and
/// whether its buttons snooze and stop the alarm without unlocking. The sound is the one recorded
/// at the sink; the screen is read from grim's screenshots; the buttons are clicked with the
/// pointer where the screenshot shows them; "locked" is gtklock running, locked by its own
/// account, and sway refusing a second lock.
///
/// The module draws its row for the player there when the screen locks, and for one that comes
/// after a player left; for a player that comes while nothing left yet, its `player_appeared`
/// finds the row already made, empty, and returns: only a later change of the player's metadata
/// or status fills it. Tocsin’s player says its metadata again half a second after it appears
/// (`RingingPlayer.reannouncements`), so the first alarm to ring after the lock shows too.
@Suite(.serialized) struct GtklockTests {
    @Test func gtklocksMediaRowShowsEveryRingAndItsButtonsSnoozeAndStopItWhileLocked() throws {
        let fixture = try AgentSession("lock-gtklock", notificationServer: .mako, swayRelease: .trixie)
        let lock = try fixture.session.lockScreen(with: .gtklock)
        print("lock-screen observation: gtklock: locked and drawn \(lock.lockingDuration) after it started")
        #expect(try lock.isLocked, "sway does not hold gtklock's lock")
        // tocsin doctor, run where the user runs it (a terminal in sway, with its WAYLAND_DISPLAY).
        let doctor = try fixture.doctorOnceItSays("ok       locked screen: gtklock's media controls (its playerctl module) show a ringing alarm with its title",
                                                  environment: fixture.session.compositorEnvironment ?? [:])
        #expect(doctor.contains("playerctl -p tocsin play-pause"), "\(doctor)")
        let recording = try fixture.session.startRecording()
        let (id, due) = try LockedScreenTests.timer(fixture, "2s", "--title", "Pasta", "--snooze", "6s")

        // The first ring after the lock: heard, and shown in the module's row once the player
        // said its metadata again (half a second after it appeared).
        #expect(fixture.eventually(timeout: 5) { recording.currentTrace().firstLoudWindow(after: due) != nil }, "the alarm was never heard")
        let first = try Self.mediaRow(fixture, showing: "Pasta", from: due, until: due.addingTimeInterval(10))
        LockedScreenTests.figure("gtklock", "due → title in the media row (the first ring after the lock)", first.shown.timeIntervalSince(due))
        #expect(first.screen.contains("Play/Pause"), "no artist line in the row:\n\(first.screen)")

        // playerctl next, as a key bound with bindsym --locked sends it: snoozed into silence.
        let next = try RingingPlayerTests.playerctl(fixture, "next")
        let snoozed = Date()
        #expect(next.status == 0, "\(next)")
        #expect(try fixture.eventually(timeout: 5) { try fixture.alarm(id)?.string("state") == "countdown" }, "playerctl next did not snooze it")
        #expect(LockedScreenTests.silent(recording, after: snoozed), "still sound after next")

        // Its player left the bus: the ring after the snooze shows, title and artist line.
        let second = Date(timeIntervalSince1970: try #require(try fixture.alarm(id)?.number("fire-time")))
        let row = try Self.mediaRow(fixture, showing: "Pasta", from: snoozed, until: second.addingTimeInterval(15))
        LockedScreenTests.figure("gtklock", "due → title in the media row (the ring after a snooze)", row.shown.timeIntervalSince(second))
        row.screen.keepForREADME(as: "gtklock-lock-screen.png")
        #expect(row.shown > second.addingTimeInterval(-0.5), "the row showed the alarm before it rang again")
        #expect(row.screen.contains("Play/Pause"), "no artist line in the row:\n\(row.screen)")
        #expect(fixture.eventually(timeout: 5) { recording.currentTrace().firstLoudWindow(after: second.addingTimeInterval(-0.5)) != nil },
                "the ring after the snooze was not heard")
        let buttons = try Self.mediaButtons(fixture, shownAt: row.shown, title: "Pasta")
        // Previous greyed (Tocsin has none); play/pause and next drawn dark.
        #expect(buttons.count == 2, "not play/pause and next (dark buttons at \(buttons))")

        // The module's next, clicked: snoozed into silence, the row gone with the player.
        let nextButton = try #require(buttons.last)
        try fixture.session.click(x: nextButton.x, y: nextButton.y)
        let clicked = Date()
        #expect(try fixture.eventually(timeout: 5) { try fixture.alarm(id)?.string("state") == "countdown" }, "the row's next did not snooze it: \(fixture.agentLog)")
        #expect(fixture.agentLog.contains("The media player's Next"), "the click came not as Next: \(fixture.agentLog)")
        #expect(LockedScreenTests.silent(recording, after: clicked), "still sound after the row's next")
        #expect(try lock.isLocked, "the screen was unlocked by snoozing")

        // And the ring after that shows again; its play/pause, clicked, stops it into silence.
        let third = Date(timeIntervalSince1970: try #require(try fixture.alarm(id)?.number("fire-time")))
        let again = try Self.mediaRow(fixture, showing: "Pasta", from: clicked.addingTimeInterval(1), until: third.addingTimeInterval(15))
        LockedScreenTests.figure("gtklock", "due → title in the media row (the next ring after a snooze)", again.shown.timeIntervalSince(third))
        let buttonsAgain = try Self.mediaButtons(fixture, shownAt: again.shown, title: "Pasta")
        #expect(buttonsAgain.count == 2, "not play/pause and next (dark buttons at \(buttonsAgain))")
        let playPause = try #require(buttonsAgain.first, "no button drawn in the row:\n\(again.screen)")
        try fixture.expectStoppedIntoSilence(id, recording: recording) { try fixture.session.click(x: playPause.x, y: playPause.y) }
        #expect(fixture.agentLog.contains("The media player's PlayPause"), "the click came not as PlayPause: \(fixture.agentLog)")
        #expect(lock.processes.allSatisfy { $0.isRunning }, "gtklock is gone")
        #expect(try lock.isLocked, "the screen was unlocked by stopping the alarm")
    }

    // MARK: Helpers

    /// Where gtklock's playerctl module draws its row at 1280×800 (`--position top-center`, its
    /// default): album art, title over artist, previous / play-pause / next, centred at the top.
    static let rowRegion = (x: 300...980, y: 0...90)

    /// Reads the row until it shows `title` or `until` passes, about a reading a second; the
    /// last reading, and when `title` was first read if it was.
    static func lookAtTheRow(_ fixture: AgentSession, for title: String, until: Date) throws -> (screen: ScreenText, shown: Date?) {
        while true {
            let asked = Date()
            let row = try fixture.session.readScreen(region: rowRegion)
            if row.contains(title) { return (row, asked) }
            if Date() >= until { return (row, nil) }
        }
    }

    /// The row once it shows `title`, read from `from` (waiting until then) until `until`.
    static func mediaRow(_ fixture: AgentSession, showing title: String, from: Date, until: Date) throws -> (screen: ScreenText, shown: Date) {
        if from > Date() { Thread.sleep(forTimeInterval: from.timeIntervalSinceNow) }
        let look = try lookAtTheRow(fixture, for: title, until: until)
        guard let shown = look.shown else { throw IntegrationError("gtklock's media row never showed “\(title)”; it read:\n\(look.screen)") }
        return (look.screen, shown)
    }

    /// The centres of the buttons drawn dark in the row, left to right: play/pause, and next
    /// when the player can go next (a greyed button's icon is light). The module greys its
    /// buttons a second after it fills the row (it reads what the player can do again then;
    /// before, it drew previous dark too), so the row is read anew 1.5 s after `shownAt`. The
    /// module lays out art, a 180-pixel column of labels (title over artist) and then its
    /// buttons, all centred on one row: the buttons start 195 pixels right of the title's left
    /// edge, and their centre is halfway between the title's top and the artist's bottom.
    static func mediaButtons(_ fixture: AgentSession, shownAt: Date, title: String) throws -> [(x: Int, y: Int)] {
        let settled = shownAt.addingTimeInterval(1.5)
        if settled > Date() { Thread.sleep(forTimeInterval: settled.timeIntervalSinceNow) }
        let screen = try fixture.session.readScreen(region: rowRegion)
        let shot = try #require(screen.screenshot)
        let titleWord = try #require(screen.word(title), "no “\(title)” read:\n\(screen)")
        let artistWord = try #require(screen.word("Play/Pause"), "no artist line read:\n\(screen)")
        let centre = (titleWord.top + artistWord.top + artistWord.height) / 2
        let left = titleWord.left + 185
        let strip = try fixture.session.pixels(of: shot, x: left, y: centre - 8, width: 160, height: 17)
        let dark = (0..<strip.width).map { x in (0..<strip.height).contains { y in ScreenPixels.brightness(of: strip[x, y]) < 100 } }
        return ScreenPixels.runs(of: dark, joiningGapsUpTo: 6).map { (left + ($0.lowerBound + $0.upperBound) / 2, centre) }
    }
}
