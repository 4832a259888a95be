import Foundation
import HeadlessSession
import Testing

/// Tocsin on GNOME Shell 43, as a person sees and uses it: the banners and the message list read
/// off the screen, clicks where GNOME draws what is clicked, the alarm heard. GNOME keeps up a
/// banner that is updated (a per-second countdown pinned one for minutes), draws no buttons on a
/// banner updated while it shows, and shows a replaced alert without its buttons; this test is
/// what shows Tocsin copes. One test, so one shell (about 3 s to start), for the whole tier.
@Suite(.serialized) struct GnomeDesktopTests {
    @Test func aCountdownPinsNoBannerAClickPausesItAndTheAlertShowsStopThroughDoNotDisturb() throws {
        let fixture = try AgentSession("gnome", notificationServer: .gnomeShell)
        try Self.waitUntilTheAgentKnowsTheShell(fixture)
        try Self.letTheStartUpBannersGo(fixture)
        let id = try fixture.startTimer("5m", "--title", "Pasta")
        // The pointer rests where the banner comes, as soon as the shell has the notification, so
        // that the banner stays while the screen is read: unhovered, 43 lets it go after 4 s, and
        // in a clean-clone run beside other builds and tests (load 7) no reading of the whole
        // screen caught it in time.
        _ = try fixture.waitForNotification(titled: "Pasta")
        let banner = try Self.whileHoveringWhereBannersCome(fixture) {
            try fixture.session.waitForScreen("the countdown's banner") { $0.contains("Pasta") && $0.contains("remaining") }
        }
        #expect(banner.contains("Click to pause"), "the banner does not say what a click does:\n\(banner)")
        banner.keepForREADME(as: "gnome-countdown.png")

        // A person moving the mouse: the banner goes after its few seconds, though the countdown goes on.
        let gone = try Self.whileMovingThePointer(fixture) {
            try fixture.session.waitForScreen(timeout: .seconds(15), "the banner gone") { !$0.contains("Pasta") }
        }
        #expect(!gone.contains("remaining"))
        // The agent's own calls: the bus also carries the notification service's to the shell.
        let all = fixture.notifications(titled: "Pasta")
        let sent = all.filter { $0.sender == all.first?.sender }
        #expect(Set(sent.map(\.id)).count == 1, "not replaced in place: \(sent.map(\.id))")
        #expect(sent.first?.urgency == 1 && sent.dropFirst().allSatisfy { $0.urgency == 0 }, "updates must be low urgency: \(sent.map(\.urgency))")

        // The message list, opened with a click on the clock in the middle of the top bar, follows it.
        try fixture.session.click(x: 640, y: 12)
        let listed = try fixture.session.waitForScreen("the countdown in the message list") { $0.contains("Pasta") && $0.contains("remaining") }
        let firstTime = listed.timeLeft
        try fixture.session.waitForScreen("the time left changing in the list") {
            $0.contains("Pasta") && $0.timeLeft.map { $0 != firstTime } ?? false
        }

        // A click on it pauses it, once: GNOME repeats the click for every update it got. The
        // entry is rebuilt with each second's update, and once in a full run beside other
        // desktops' tests a click never reached the agent (no pause, nothing logged): a person
        // clicks again, and so does the test, three times at most.
        #expect(try fixture.click("Pasta", until: { try fixture.alarm(id)?.string("state") == "paused" }), "three clicks did not pause it")
        Thread.sleep(forTimeInterval: 1.5)
        #expect(try fixture.alarm(id)?.string("state") == "paused", "the repeated clicks resumed it")
        #expect(!fixture.agentLog.contains("did nothing"), "\(fixture.agentLog)")

        // The list shows it paused; a click on it again resumes it.
        try fixture.session.waitForScreen("the paused timer in the list") { $0.contains("Pasta") && $0.contains("Paused") }
        try fixture.session.clickOnScreen("Pasta")
        #expect(try fixture.eventually { try fixture.alarm(id)?.string("state") == "countdown" }, "the second click did not resume it")
        try fixture.session.pressKeys("Escape")
        #expect(try fixture.tocsin("cancel", id).status == 0)
        try theAlertShowsStopThroughDoNotDisturbRingsAndStops(fixture)
    }

    /// The second half of the tier's test, on the same shell (it takes seconds to start).
    private func theAlertShowsStopThroughDoNotDisturbRingsAndStops(_ fixture: AgentSession) throws {
        try fixture.session.setDoNotDisturb(true)
        let doctor = try fixture.doctorOnceItSays("on (GNOME's do not disturb (banners off)); alarm alerts still show")
        #expect(doctor.contains("notifications: gnome-shell 43"), "\(doctor)")

        let recording = try fixture.session.startRecording()
        let started = Date()
        // A countdown first, which the alert must not replace: GNOME would show it without Stop.
        let id = try fixture.startTimer("4s", "--title", "Tea", "--snooze", "5m")
        let ringing = try fixture.session.waitForScreen(timeout: .seconds(15), "the alert with Stop and Snooze") {
            $0.contains("Tea") && $0.word("Stop") != nil && $0.word("Snooze") != nil
        }
        ringing.keepForREADME(as: "gnome-alert.png")
        #expect(fixture.eventually(timeout: 3) { recording.currentTrace().firstLoudWindow(after: started) != nil }, "no sound")
        let shown = fixture.notifications(titled: "Tea")
        let alert = try #require(shown.last { $0.urgency == 2 })
        #expect(alert.replacesID == 0, "the alert replaced the countdown: \(shown)")

        try fixture.expectStoppedIntoSilence(id, recording: recording) { try fixture.session.clickOnScreen("Stop") }
        try fixture.session.waitForScreen("the alert gone") { !$0.contains("Tea") }
    }

    /// The agent knows it talks to GNOME Shell: what it shows before is for an unknown server (a
    /// countdown sent then, and updated at low urgency once the shell is known, shows no banner).
    static func waitUntilTheAgentKnowsTheShell(_ fixture: AgentSession, release: GnomeShellRelease = .system) throws {
        try fixture.doctorOnceItSays("notifications: gnome-shell \(release.version)")
    }

    /// The shell greets a session with banners of its own ("Screen Lock disabled", "Logged in as
    /// a privileged user"), which stay while the user is idle and hold back every other banner:
    /// the pointer moves until they are gone, as a person arriving at the desk moves it.
    static func letTheStartUpBannersGo(_ fixture: AgentSession) throws {
        try whileMovingThePointer(fixture) {
            _ = try fixture.session.waitForScreen(timeout: .seconds(20), "the shell's start-up banners gone") {
                !$0.contains("Screen Lock") && !$0.contains("privileged")
            }
            Thread.sleep(forTimeInterval: 1)
            _ = try fixture.session.waitForScreen(timeout: .seconds(10), "the shell's start-up banners gone") {
                !$0.contains("Screen Lock") && !$0.contains("privileged")
            }
        }
    }

    /// Runs `body` while the pointer rests (moving a pixel to and fro) on the top middle of the
    /// screen, where GNOME Shell 43 and 48 draw a banner: a hovered banner stays until read.
    static func whileHoveringWhereBannersCome<T>(_ fixture: AgentSession, _ body: () throws -> T) throws -> T {
        try whileMovingThePointer(fixture, at: 640, 64, body)
    }

    /// Runs `body` while the pointer moves a pixel to and fro every third of a second at `x`, `y`
    /// (by default far from the banners).
    static func whileMovingThePointer<T>(_ fixture: AgentSession, at x: Int = 900, _ y: Int = 600, _ body: () throws -> T) throws -> T {
        let mover = try fixture.session.launch(try HeadlessSession.executable("sh"), ["-c",
            "while true; do xdotool mousemove \(x) \(y); sleep 0.33; xdotool mousemove \(x + 1) \(y + 1); sleep 0.33; done"])
        defer { mover.terminate() }
        return try body()
    }
}
