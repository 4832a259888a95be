import Foundation
import HeadlessSession
import Testing

/// A phone's media remote stops and snoozes a ringing alarm (#35): the phone's KDE Connect app
/// lists the desk's media players and sends their controls, and while an alarm rings Tocsin is
/// one of them. Real daemons (`KDEConnectPair`): the desk's KDE Connect or GSConnect shares the
/// desk's players; the phone's kdeconnectd asks for them and sends the buttons through its
/// `mprisremote` plugin, over the same packets as KDE Connect's Android app.
@Suite(.serialized) struct PhoneMediaRemoteTests {
    @Test(arguments: [KDEConnectPair.Desk.kdeConnect, .gsConnect])
    func thePhonesMediaRemoteShowsTheRingingAlarmAndItsButtonsSnoozeAndStopIt(desk: KDEConnectPair.Desk) throws {
        let fixture = try AgentSession(desk == .kdeConnect ? "phone-remote" : "phone-remote-gsconnect")
        let pair = try fixture.session.startKDEConnectPair(desk: desk)
        let remote = PhoneRemote(pair: pair)
        let recording = try fixture.session.startRecording()
        let (id, due) = try LockedScreenTests.timer(fixture, "2s", "--title", "Porridge", "--snooze", "6s")
        #expect(try fixture.eventually(timeout: 10) { try fixture.alarm(id)?.string("state") == "alerting" }, "it never rang")

        // The phone lists Tocsin among the desk's players and shows the alarm as the track.
        var players = ""
        #expect(fixture.eventually(timeout: 15) {
            try? remote.requestPlayers()
            players = remote.players()
            return players.contains("Tocsin")
        }, "the phone's remote does not list Tocsin: \(players)\n\(pair.phoneDaemon.standardError().suffix(2000))")
        try remote.choose("Tocsin")
        var title = ""
        #expect(fixture.eventually(timeout: 10) { title = remote.string("title"); return title.contains("Porridge") },
                "the phone shows “\(title)” as the track")
        let shownAt = Date()
        print("lock-screen figure: phone (\(desk)): due → the alarm listed and shown on the phone's remote: \(String(format: "%.2f", shownAt.timeIntervalSince(due))) s")
        #expect(fixture.eventually(timeout: 5) { recording.currentTrace().firstLoudWindow(after: due) != nil }, "the alarm was never heard")

        // Next snoozes it: silence, counting down to its next ring.
        try remote.send("Next")
        let snoozed = Date()
        #expect(try fixture.eventually(timeout: 10) { try fixture.alarm(id)?.string("state") == "countdown" }, "Next did not snooze it: \(fixture.agentLog)")
        #expect(fixture.agentLog.contains("The media player's Next"), "the snooze came not through the media player: \(fixture.agentLog)")
        #expect(LockedScreenTests.silent(recording, after: snoozed), "still sound after Next")

        // It rings again; play/pause on the phone stops it.
        #expect(try fixture.eventually(timeout: 20) { try fixture.alarm(id)?.string("state") == "alerting" }, "the snoozed alarm did not ring again")
        #expect(fixture.eventually(timeout: 15) {
            try? remote.requestPlayers()
            try? remote.choose("Tocsin")
            return remote.string("title").contains("Porridge")
        }, "the phone does not show the re-ring: \(remote.players())")
        try fixture.expectStoppedIntoSilence(id, recording: recording) { try remote.send("PlayPause") }
        #expect(fixture.agentLog.contains("The media player's PlayPause"), "the stop came not through the media player: \(fixture.agentLog)")
    }
}

/// The phone's media remote: its kdeconnectd's `mprisremote` plugin for the desk, on the phone's bus.
struct PhoneRemote {
    let pair: KDEConnectPair
    var path: String { "/modules/kdeconnect/devices/\(pair.deskID)/mprisremote" }
    static let interface = "org.kde.kdeconnect.device.mprisremote"

    /// Asks the desk for its players, as the app does when its remote opens.
    func requestPlayers() throws {
        try pair.callOnPhone(path: path, method: "\(Self.interface).requestPlayerList")
    }

    /// The players the phone knows of, as gdbus prints its `playerList`.
    func players() -> String { string("playerList") }

    /// Makes `player` the one the remote shows and controls.
    func choose(_ player: String) throws {
        try pair.callOnPhone(path: path, method: "org.freedesktop.DBus.Properties.Set", Self.interface, "player", "<'\(player)'>")
    }

    /// Presses `action` ("PlayPause", "Next"…) on the remote.
    func send(_ action: String) throws {
        try pair.callOnPhone(path: path, method: "\(Self.interface).sendAction", action)
    }

    /// A property of the remote, as gdbus prints it ("" when it cannot be read).
    func string(_ property: String) -> String {
        (try? pair.callOnPhone(path: path, method: "org.freedesktop.DBus.Properties.Get", Self.interface, property)) ?? ""
    }
}
