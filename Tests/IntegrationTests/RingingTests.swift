import Foundation
import HeadlessSession
import Testing

/// At zero the timer rings: a critical notification with Stop, and sound played by the agent
/// itself, heard on the sound server even when notifications are paused.
@Suite(.serialized) struct RingingTests {
    @Test func ringsAtZeroAndStopsFromTheNotification() throws {
        let fixture = try AgentSession("ring")
        let recording = try fixture.session.startRecording()
        let id = try fixture.startTimer("3s", "--title", "Eggs")
        let fireTime = Date(timeIntervalSince1970: try #require(try fixture.alarm(id)?.number("fire-time")))

        let alert = try fixture.waitForNotification(titled: "Eggs") { $0.urgency == 2 }
        #expect(alert.buttonLabels == ["Stop"])
        #expect(alert.hasTrueHint("suppress-sound"))
        #expect(alert.hasTrueHint("resident"))
        #expect(alert.expireTimeout == 0)
        #expect(alert.receivedAt.timeIntervalSince(fireTime) < 0.5)

        _ = fixture.eventually(timeout: 2) { recording.currentTrace().firstLoudWindow(after: fireTime) != nil }
        let firstSound = try #require(recording.currentTrace().firstLoudWindow(after: fireTime.addingTimeInterval(-0.05)), "no sound after the due time")
        #expect(firstSound.timeIntervalSince(fireTime) < 1.0, "first sound \(firstSound.timeIntervalSince(fireTime)) s after the due time")
        #expect(try fixture.alarm(id)?.string("state") == "alerting")

        Thread.sleep(forTimeInterval: 1.0)
        let clicked = Date()
        try fixture.session.clickAction(label: "Stop", onNotification: alert.id)
        _ = try fixture.session.waitForNotificationClosed(id: alert.id, timeout: .seconds(5))
        Thread.sleep(forTimeInterval: 2.0)
        let trace = recording.stop()
        #expect(trace.rms(from: firstSound, to: clicked) > 0.01, "ringing was not loud: \(trace.rms(from: firstSound, to: clicked))")
        #expect(trace.isSilent(from: clicked.addingTimeInterval(0.5), to: clicked.addingTimeInterval(2.0)), "still sound after Stop")
        #expect(try fixture.alarm(id) == nil, "the stopped timer was not removed")
    }

    @Test func ringsWhileNotificationsArePaused() throws {
        let fixture = try AgentSession("dnd")
        try fixture.session.setNotificationsPaused(true)
        #expect(try fixture.session.notificationsPaused())
        let recording = try fixture.session.startRecording()
        let id = try fixture.startTimer("2s", "--title", "Quiet")
        let fireTime = Date(timeIntervalSince1970: try #require(try fixture.alarm(id)?.number("fire-time")))

        #expect(fixture.eventually(timeout: 3) { recording.currentTrace().firstLoudWindow(after: fireTime) != nil }, "no sound while notifications are paused")
        #expect(try fixture.session.displayedNotificationCount() == 0, "dunst showed a notification while paused")

        let stop = try fixture.tocsin("stop")
        #expect(stop.status == 0, "\(stop)")
        #expect(stop.stderr.contains("Quiet"))
        let stopped = Date()
        Thread.sleep(forTimeInterval: 1.5)
        let trace = recording.stop()
        #expect(trace.isSilent(from: stopped.addingTimeInterval(0.4), to: stopped.addingTimeInterval(1.5)))
    }

    @Test func severalTimersRingTogetherUntilTheLastIsStopped() throws {
        let fixture = try AgentSession("several")
        let recording = try fixture.session.startRecording()
        let first = try fixture.startTimer("1s", "--title", "One")
        let second = try fixture.startTimer("1s", "--title", "Two")
        let alertOne = try fixture.waitForNotification(titled: "One") { $0.urgency == 2 }
        let alertTwo = try fixture.waitForNotification(titled: "Two") { $0.urgency == 2 }
        #expect(alertOne.id != alertTwo.id, "each ringing timer has its own notification")

        Thread.sleep(forTimeInterval: 1)
        #expect(try fixture.tocsin("stop", first).status == 0)
        let firstStopped = Date()
        Thread.sleep(forTimeInterval: 2)
        #expect(try fixture.tocsin("stop", second).status == 0)
        let secondStopped = Date()
        Thread.sleep(forTimeInterval: 1.5)
        let trace = recording.stop()
        #expect(trace.rms(from: firstStopped.addingTimeInterval(0.3), to: secondStopped) > 0.005, "sound stopped with the first timer")
        #expect(trace.isSilent(from: secondStopped.addingTimeInterval(0.4), to: secondStopped.addingTimeInterval(1.4)))
    }

    @Test func ringLimitEndsAnUnansweredTimer() throws {
        let fixture = try AgentSession("ringlimit")
        let id = try fixture.startTimer("1s", "--title", "Forgotten", "--ring-for", "2s")
        let alert = try fixture.waitForNotification(titled: "Forgotten") { $0.urgency == 2 }
        let notice = try fixture.waitForNotification(titled: "Not acknowledged: Forgotten", timeout: .seconds(5))
        #expect(notice.urgency != 2)
        #expect(notice.body.contains("2 s"))
        _ = try fixture.session.waitForNotificationClosed(id: alert.id, timeout: .seconds(2))
        #expect(try fixture.alarm(id) == nil)
    }
}
