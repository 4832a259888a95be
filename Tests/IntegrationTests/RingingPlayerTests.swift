import Foundation
import HeadlessSession
import Testing

/// While an alarm rings, Tocsin is a media player on the session bus
/// (`org.mpris.MediaPlayer2.tocsin`): what a lock screen's media row, the media keys while
/// locked, phone remotes and `playerctl` reach. Driven here with `playerctl`, as those are:
/// its title is the alarm's, its Play/Pause stops the ring into silence and its Next snoozes;
/// the name is on the bus only while something rings; and the agent's pausing of other players
/// pauses a music player beside it but never its own.
@Suite(.serialized) struct RingingPlayerTests {
    /// `playerctl -p tocsin ARGUMENTS…` in the session: Tocsin's player, not another one.
    static func playerctl(_ fixture: AgentSession, _ arguments: String...) throws -> CommandResult {
        try fixture.session.run(try HeadlessSession.executable("playerctl"), ["--player=tocsin"] + arguments, timeout: .seconds(10))
    }

    /// The players on the bus, as `playerctl --list-all` names them.
    static func players(_ fixture: AgentSession) throws -> [String] {
        try fixture.session.run(try HeadlessSession.executable("playerctl"), ["--list-all"], timeout: .seconds(10))
            .stdout.split(separator: "\n").map(String.init)
    }

    @Test func playPauseStopsTheRingIntoSilenceWhileAMusicPlayerBesideItIsPausedAndResumed() throws {
        let fixture = try AgentSession("ringing-player")
        let music = try fixture.session.launch(try AgentSession.binary("fake-media-player"), [])
        defer { music.terminate() }
        #expect(fixture.eventually(timeout: 5) { music.standardOutput().contains("Ready") }, "the fake player did not start: \(music.standardError())")
        #expect(try Self.players(fixture) == ["tocsintest"], "nothing rings: Tocsin is no player")

        let recording = try fixture.session.startRecording()
        let id = try fixture.startTimer("1s", "--title", "Pasta")
        _ = try fixture.waitForNotification(titled: "Pasta") { $0.urgency == 2 }
        var shown = ""
        #expect(try fixture.eventually(timeout: 5) {
            shown = try Self.playerctl(fixture, "metadata", "--format", "{{title}}|{{artist}}|{{status}}").stdout
            return shown == "Pasta|Play/Pause or Stop: stop|Playing\n"
        }, "playerctl shows: \(shown)")
        #expect(try Self.playerctl(fixture, "metadata", "--format", "{{playerName}}").stdout == "tocsin\n")

        // The agent pauses the music while the alarm rings, and asks every player but its own.
        #expect(fixture.eventually(timeout: 5) { music.standardOutput() == "Ready\nPaused\n" }, "the music saw: \(music.standardOutput())")
        #expect(fixture.eventually(timeout: 5) { fixture.agentLog.contains("Paused the media player org.mpris.MediaPlayer2.tocsintest") })
        // Its own player, paused, would have stopped the alarm (its Pause stops, as a lock screen's does).
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try fixture.alarm(id)?.string("state") == "alerting", "Tocsin paused its own player: \(fixture.agentLog)")
        #expect(!fixture.agentLog.contains("MediaPlayer2.tocsin while"), "\(fixture.agentLog)")
        #expect(try Self.playerctl(fixture, "status").stdout == "Playing\n")
        #expect(recording.currentTrace().firstLoudWindow(after: .distantPast) != nil, "the alarm was never heard")

        try fixture.expectStoppedIntoSilence(id, recording: recording) {
            let pressed = try Self.playerctl(fixture, "play-pause")
            #expect(pressed.status == 0, "\(pressed)")
        }
        #expect(fixture.agentLog.contains("The media player's PlayPause"), "\(fixture.agentLog)")
        #expect(try fixture.eventually(timeout: 5) { try !Self.players(fixture).contains("tocsin") }, "the player stayed on the bus after the ring")
        #expect(fixture.eventually(timeout: 5) { music.standardOutput() == "Ready\nPaused\nPlaying\n" }, "the music was not resumed: \(music.standardOutput())")
    }

    @Test func nextSnoozesAndTheAlarmRingingLongestShows() throws {
        let fixture = try AgentSession("ringing-player-snooze")
        let nap = try fixture.startTimer("1s", "--title", "Nap", "--snooze", "5m")
        _ = try fixture.waitForNotification(titled: "Nap") { $0.urgency == 2 }
        let tea = try fixture.startTimer("1s", "--title", "Tea", "--no-snooze")
        _ = try fixture.waitForNotification(titled: "Tea") { $0.urgency == 2 }
        var shown = ""
        #expect(try fixture.eventually(timeout: 5) {
            shown = try Self.playerctl(fixture, "metadata", "--format", "{{title}}|{{artist}}").stdout
            return shown == "Nap|Play/Pause or Stop: stop · Next: snooze\n"
        }, "two ring: the one ringing longest shows; playerctl shows: \(shown)")
        // A client that follows the player (a lock screen's media row) learns of the change from
        // PropertiesChanged, without reading again.
        let follower = try fixture.session.launch(try HeadlessSession.executable("playerctl"),
                                                  ["--player=tocsin", "--follow", "metadata", "--format", "{{title}}|{{artist}}"])
        defer { follower.terminate() }
        #expect(fixture.eventually(timeout: 5) { follower.standardOutput().contains("Nap|") }, "the follower read: \(follower.standardOutput())")

        let pressed = try Self.playerctl(fixture, "next")
        #expect(pressed.status == 0, "\(pressed)")
        #expect(try fixture.eventually(timeout: 5) { try fixture.alarm(nap)?.string("state") == "countdown" }, "Next did not snooze it")
        // Tea still rings: the player shows it now, and says it has no Next.
        #expect(try fixture.eventually(timeout: 5) {
            shown = try Self.playerctl(fixture, "metadata", "--format", "{{title}}|{{artist}}").stdout
            return shown == "Tea|Play/Pause or Stop: stop\n"
        }, "playerctl shows: \(shown)")
        #expect(fixture.eventually(timeout: 5) { follower.standardOutput().hasSuffix("Tea|Play/Pause or Stop: stop\n") },
                "the follower read: \(follower.standardOutput())")
        // playerctl reads CanGoNext and refuses; a client that sends Next anyway (gsd-media-keys
        // reads nothing first) is answered, and nothing is done.
        #expect(try Self.playerctl(fixture, "next").status != 0)
        let sent = try fixture.session.run(try HeadlessSession.executable("dbus-send"),
                                           ["--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.tocsin", "/org/mpris/MediaPlayer2",
                                            "org.mpris.MediaPlayer2.Player.Next"], timeout: .seconds(10))
        #expect(sent.status == 0, "\(sent)")
        Thread.sleep(forTimeInterval: 0.5)
        #expect(try fixture.alarm(tea)?.string("state") == "alerting", "Next without a second button did something")

        #expect(try Self.playerctl(fixture, "stop").status == 0)
        #expect(try fixture.eventually(timeout: 5) { try fixture.alarm(tea) == nil }, "Stop did not stop it")
        #expect(try fixture.eventually(timeout: 5) { try !Self.players(fixture).contains("tocsin") }, "the player stayed on the bus after the ring")
        #expect(try fixture.alarm(nap)?.string("state") == "countdown", "the snoozed one counts down to its next ring")
    }
}
