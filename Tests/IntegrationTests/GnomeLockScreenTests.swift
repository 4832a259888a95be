import Foundation
import HeadlessSession
import Testing

/// A ringing alarm on GNOME Shell's locked screen (43, the system's, and 48, trixie's), as a
/// person woken by it meets it: the screen, black since it locked, lights up; the alarm's title,
/// time, Stop and Snooze show on the lock screen (Tocsin's extension draws them there); a click
/// on Snooze silences it until it rings again, a click on Stop ends it, and the media key stops
/// it too — all without unlocking. In do-not-disturb, where GNOME leaves the locked screen black
/// for a notification, the ring still lights it, and keeps waking it while it rings; a title the
/// user keeps private reads "Alarm". Without the extension, GNOME's own lock-screen row shows the
/// title. Each test prints its figures (due → lit, due → title readable) as
/// "lock-screen figure: …" lines, which bench/README.md quotes.
///
/// The screen is read from screenshots by OCR, the sound from the sink's monitor, the lock from
/// `org.gnome.ScreenSaver.GetActive`, the shell's waking from its `WakeUpScreen` signal on the bus.
@Suite(.serialized) struct GnomeLockScreenTests {
    @Test(arguments: GnomeShellRelease.onX11)
    func theRingLightsTheLockedScreenWhichShowsItAndStopsAndSnoozesItWithoutUnlocking(release: GnomeShellRelease) throws {
        let locked = try LockedGnome("gnome-lock", release: release, withExtension: true)
        let fixture = locked.fixture
        // tocsin doctor says what this lock screen will show, drawn by the extension.
        try fixture.doctorOnceItSays("ok       locked screen: GNOME Shell \(release.version)'s lock screen shows a ringing alarm with its title, its time, Stop and Snooze (Tocsin's extension)")
        // GNOME's media-key handler, as a GNOME session runs it from the start.
        try fixture.session.startMediaKeys()
        // An alarm at a time of day, set before the lock: GNOME lights a locked screen for a
        // new notification itself, which must not be what lights it. (A timer's countdown
        // notification is one: a 25 s timer set just before the lock kept 43's screen from
        // ever going black in a run here; one set 3 s before the lock did not wake it.)
        let id = try fixture.setAlarm(AgentSession.instant(in: 25).text, "--title", "Porridge", "--snooze", "15s")
        let due = try locked.dueTime(of: id)
        let recording = try fixture.session.startRecording()
        let black = try locked.lockAndWaitUntilBlack()
        try #require(Date() < due.addingTimeInterval(-1), "the lock took until the alarm was due: nothing left to wake")

        let lit = try #require(try locked.waitUntilLit(timeout: 40), "the ringing alarm did not light the locked screen")
        #expect(lit.takenAt > due.addingTimeInterval(-1), "the screen lit \(due.timeIntervalSince(lit.takenAt)) s before the alarm was due: black at \(LockedGnome.clock(black)), lit at \(LockedGnome.clock(lit.takenAt)); the shell said \(locked.screenSaverSignals(since: black.addingTimeInterval(-5)))")
        let wakes = locked.wakeUpSignals(after: due.addingTimeInterval(-1))
        #expect(!wakes.isEmpty, "the shell sent no WakeUpScreen")
        let (screen, readAt) = try locked.waitForScreen("the ringing alarm with Stop and Snooze") {
            $0.word("Porridge", inARowWith: "Snooze") != nil && $0.word("Stop") != nil
        }
        if let wake = wakes.first { locked.report("due → WakeUpScreen", from: due, to: wake.at) }
        locked.report("due → lit (first lit screenshot)", from: due, to: lit.takenAt)
        locked.report("due → title read (screenshot taken)", from: due, to: readAt)
        screen.keepForREADME(as: release == .system ? "gnome-lock-screen.png" : "gnome-48-lock-screen.png")
        #expect(fixture.eventually(timeout: 3) { recording.currentTrace().firstLoudWindow(after: due.addingTimeInterval(-1)) != nil }, "no sound")

        // A countdown started now shows beside it: its time left below its title, with Pause
        // and Cancel, ticking. The top bar's item, which shows it unlocked, hides while locked:
        // its menu acts as the user, its label shows titles.
        let pasta = try fixture.startTimer("10m", "--title", "Pasta")
        let counting = try locked.waitForScreen("the countdown with Pause and Cancel") {
            $0.word("Pasta", inARowWith: "Pause") != nil && $0.word("Cancel") != nil
        }.text
        let title = try #require(counting.word("Pasta", inARowWith: "Pause"))
        let first = try #require(counting.time(below: title), "no time left below “Pasta”:\n\(counting)")
        let later = try locked.waitForScreen(timeout: 10, "the countdown's time left changing") { later in
            later.word("Pasta", inARowWith: "Pause").flatMap { later.time(below: $0) }.map { $0 != first } ?? false
        }.text
        #expect(!later.words.contains { $0.text == "Pasta" && $0.top < TopBarItem.barHeight }, "the top bar shows the countdown on the lock screen:\n\(later)")
        #expect(try fixture.session.isScreenLocked)

        // Snooze, clicked on the lock screen: silence, still locked; it rings again after 15 s.
        try fixture.session.clickOnScreen("Snooze")
        let snoozed = Date()
        #expect(try fixture.eventually(timeout: 5) { try fixture.alarm(id)?.string("state") == "countdown" }, "the click on Snooze did not snooze it")
        Thread.sleep(forTimeInterval: 1.6)
        #expect(recording.currentTrace().isSilent(from: snoozed.addingTimeInterval(0.5), to: snoozed.addingTimeInterval(1.5)), "still sound after Snooze")
        #expect(try fixture.session.isScreenLocked, "Snooze unlocked the screen")
        #expect(try fixture.eventually(timeout: 30) { try fixture.alarm(id)?.string("state") == "alerting" }, "the snoozed alarm did not ring again")
        #expect(fixture.eventually(timeout: 5) { recording.currentTrace().firstLoudWindow(after: snoozed.addingTimeInterval(10)) != nil }, "no sound as it rang again")

        // Stop, clicked on the lock screen: silence, the alarm gone from it, still locked.
        try locked.waitForScreen("Stop again") { $0.word("Porridge", inARowWith: "Stop") != nil }
        try fixture.expectStoppedIntoSilence(id, recording: recording) { try fixture.session.clickOnScreen("Stop") }
        #expect(try fixture.session.isScreenLocked, "Stop unlocked the screen")
        try locked.waitForScreen("the alarm gone, the countdown left") { $0.word("Porridge") == nil && $0.word("Pasta", inARowWith: "Pause") != nil }

        // The media key (GNOME's media-key handler sends it to Tocsin's media player) stops a
        // ringing alarm on the lock screen.
        let keyRecording = try fixture.session.startRecording()
        let bell = try fixture.startTimer("2s", "--title", "Bell")
        #expect(try fixture.eventually(timeout: 15) { try fixture.alarm(bell)?.string("state") == "alerting" }, "Bell did not ring")
        #expect(fixture.eventually(timeout: 5) { keyRecording.currentTrace().firstLoudWindow(after: .distantPast) != nil }, "Bell was not heard")
        try fixture.expectStoppedIntoSilence(bell, recording: keyRecording) { try fixture.session.pressKeys("XF86AudioPlay") }
        #expect(try fixture.session.isScreenLocked, "the media key unlocked the screen")
        #expect(try fixture.tocsin("cancel", pasta).status == 0)
    }

    @Test(arguments: GnomeShellRelease.onX11)
    func inDoNotDisturbTheRingStillLightsTheLockedScreenKeepsWakingItAndAPrivateTitleReadsAlarm(release: GnomeShellRelease) throws {
        let locked = try LockedGnome("gnome-lock-dnd", release: release, withExtension: true)
        let fixture = locked.fixture
        let hide = try fixture.tocsin("config", "lock-screen-titles", "hide")
        try #require(hide.status == 0, "tocsin config lock-screen-titles hide: \(hide)")
        try fixture.session.setDoNotDisturb(true)
        try fixture.doctorOnceItSays("GNOME's do not disturb")
        let id = try fixture.setAlarm(AgentSession.instant(in: 25).text, "--title", "Secret")
        let due = try locked.dueTime(of: id)
        let recording = try fixture.session.startRecording()
        let black = try locked.lockAndWaitUntilBlack()
        try #require(Date() < due.addingTimeInterval(-1), "the lock took until the alarm was due: nothing left to wake")

        // GNOME leaves the screen black for a notification in do-not-disturb: what lights it is Tocsin.
        let lit = try #require(try locked.waitUntilLit(timeout: 40), "the ringing alarm did not light the locked screen in do-not-disturb")
        #expect(lit.takenAt > due.addingTimeInterval(-1), "the screen lit \(due.timeIntervalSince(lit.takenAt)) s before the alarm was due: black at \(LockedGnome.clock(black)), lit at \(LockedGnome.clock(lit.takenAt)); the shell said \(locked.screenSaverSignals(since: black.addingTimeInterval(-5)))")
        let (screen, readAt) = try locked.waitForScreen("the ringing alarm, titled “Alarm”, with Stop") {
            $0.word("Alarm", inARowWith: "Stop") != nil
        }
        locked.report("do-not-disturb: due → lit (first lit screenshot)", from: due, to: lit.takenAt)
        locked.report("do-not-disturb: due → title read (screenshot taken)", from: due, to: readAt)
        #expect(!screen.contains("Secret"), "the private title shows on the lock screen:\n\(screen)")
        #expect(fixture.eventually(timeout: 3) { recording.currentTrace().firstLoudWindow(after: due.addingTimeInterval(-1)) != nil }, "no sound")

        // Waking it again while it rings (GNOME blanks a locked screen after 30 s): the shell's
        // WakeUpScreen as it lit, and again some 10 s later.
        let first = try #require(locked.wakeUpSignals(after: due.addingTimeInterval(-1)).first, "the shell sent no WakeUpScreen")
        #expect(fixture.eventually(timeout: 20) { locked.wakeUpSignals(after: first.at.addingTimeInterval(5)).first != nil },
                "no second WakeUpScreen while it rang: \(locked.wakeUpSignals(after: due).map(\.at))")
        #expect(try fixture.session.isScreenLocked)

        try fixture.expectStoppedIntoSilence(id, recording: recording) { try fixture.session.clickOnScreen("Stop") }
        #expect(try fixture.session.isScreenLocked, "Stop unlocked the screen")
    }

    @Test(arguments: GnomeShellRelease.onX11)
    func withoutTheExtensionGnomeLeavesTheScreenBlackInDoNotDisturbAndOtherwiseItsOwnRowShowsTheTitle(release: GnomeShellRelease) throws {
        let locked = try LockedGnome("gnome-lock-plain", release: release, withExtension: false)
        let fixture = locked.fixture
        let doctor = try fixture.doctorOnceItSays("warning  locked screen: GNOME Shell \(release.version)'s lock screen shows a row with its title but no buttons")
        #expect(doctor.contains("gnome-extensions enable tocsin@tocsin.github.io"), "\(doctor)")

        // In do-not-disturb GNOME alone leaves the locked screen black for a ringing alarm: what
        // the extension's waking is measured against (the other tests' lit screen is Tocsin's).
        try fixture.session.setDoNotDisturb(true)
        try fixture.doctorOnceItSays("GNOME's do not disturb")
        let quiet = try fixture.setAlarm(AgentSession.instant(in: 20).text, "--title", "Muesli")
        let quietDue = try locked.dueTime(of: quiet)
        try locked.lockAndWaitUntilBlack()
        try #require(Date() < quietDue.addingTimeInterval(-1), "the lock took until the alarm was due: nothing left to wake")
        #expect(try fixture.eventually(timeout: 30) { try fixture.alarm(quiet)?.string("state") == "alerting" }, "Muesli did not ring")
        Thread.sleep(forTimeInterval: 4)
        let dark = try fixture.session.screenBrightness()
        #expect(dark.mean < LockedGnome.black, "GNOME lit the locked screen in do-not-disturb by itself (mean grey \(dark.mean), \(dark.screenshot.path))")
        #expect(locked.wakeUpSignals(after: quietDue.addingTimeInterval(-1)).isEmpty, "GNOME sent WakeUpScreen in do-not-disturb")
        #expect(try fixture.tocsin("stop", quiet).status == 0)

        // Out of it, GNOME lights the screen for the alert itself, and its row shows the title
        // because the alert says it may (x-gnome-privacy-scope "system").
        try fixture.session.setDoNotDisturb(false)
        try fixture.doctorOnceItSays("do not disturb: off")
        let id = try fixture.setAlarm(AgentSession.instant(in: 8).text, "--title", "Porridge")
        let due = try locked.dueTime(of: id)
        try #require(try fixture.session.screenBrightness().mean < LockedGnome.black, "the locked screen lit before the second alarm rang")
        let lit = try #require(try locked.waitUntilLit(timeout: 40), "GNOME did not light the locked screen for the alert")
        let (screen, readAt) = try locked.waitForScreen("the alarm's title in GNOME's row") { $0.word("Porridge") != nil }
        locked.report("without the extension: due → lit (first lit screenshot)", from: due, to: lit.takenAt)
        locked.report("without the extension: due → title read (screenshot taken)", from: due, to: readAt)
        if release == .system { screen.keepForREADME(as: "gnome-lock-screen-row.png") }
        let alert = try #require(fixture.notifications(titled: "Porridge").last { $0.urgency == 2 }, "no alert sent")
        #expect(alert.hints["x-gnome-privacy-scope"] == "system", "\(alert.hints)")
        #expect(try fixture.session.isScreenLocked)
        #expect(try fixture.tocsin("stop", id).status == 0)
    }
}
