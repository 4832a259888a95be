import Foundation
import Testing
@testable import HeadlessSession

extension RealSessionTests {
    @Suite("Observing notifications")
    struct Observation {
        @Test("a notify-send call is observed with its actions, urgency, progress and hints; an update keeps its id")
        func fieldsHintsAndReplacement() throws {
            let session = try HeadlessSession(label: "observe")
            defer { session.stop() }
            let notifySend = try Tool.path("notify-send")

            let waiter = try session.launch(notifySend, [
                "--wait", "-a", "TocsinTest", "-A", "pause=Pause", "-A", "cancel=Cancel", "-u", "critical",
                "-h", "int:value:40", "-h", "boolean:resident:true", "-h", "boolean:suppress-sound:true",
                "Title", "Body"])
            let shown = try session.waitForNotification(timeout: .seconds(5)) { $0.summary == "Title" }
            #expect(shown.id > 0)
            #expect(shown.replacesID == 0)
            #expect(shown.appName == "TocsinTest")
            #expect(shown.body == "Body")
            #expect(shown.actions == [NotificationAction(key: "pause", label: "Pause"),
                                      NotificationAction(key: "cancel", label: "Cancel")])
            #expect(shown.urgency == 2)
            #expect(shown.value == 40)
            #expect(shown.hints["urgency"] == "2")
            #expect(shown.hints["value"] == "40")
            #expect(shown.hasTrueHint("resident"))
            #expect(shown.hasTrueHint("suppress-sound"))
            #expect(shown.expireTimeout == -1)
            #expect(abs(shown.receivedAt.timeIntervalSinceNow) < 5)
            #expect(waiter.isRunning, "notify-send --wait should still wait")

            let update = try session.run(notifySend, [
                "-r", String(shown.id), "-a", "TocsinTest", "-u", "critical", "-h", "int:value:60", "Title", "Updated"])
            #expect(update.succeeded, "\(update)")
            let updated = try session.waitForNotification(timeout: .seconds(5)) { $0.body == "Updated" }
            #expect(updated.id == shown.id)
            #expect(updated.replacesID == shown.id)
            #expect(updated.value == 60)
            #expect(session.notifications().map(\.id) == [shown.id, shown.id])
            #expect(try session.displayedNotificationCount() == 1)
            #expect(session.rejectedNotifications().isEmpty)
        }

        @Test("closing is observed: CloseNotification calls and expiry signals")
        func closings() throws {
            let session = try HeadlessSession(label: "close")
            defer { session.stop() }
            let notifySend = try Tool.path("notify-send")

            // dunst honours an application's own timeout, for critical notifications too.
            #expect(try session.run(notifySend, ["-u", "critical", "-t", "300", "Expiring"]).succeeded)
            let expiring = try session.waitForNotification(timeout: .seconds(5)) { $0.summary == "Expiring" }
            let expiry = try session.waitForNotificationClosed(id: expiring.id, timeout: .seconds(5))
            #expect(expiry.source == .closedSignal(reason: 1))
            #expect(expiry.at.timeIntervalSince(expiring.receivedAt) >= 0.25)

            let printed = try session.run(notifySend, ["-p", "-t", "0", "Closable"])
            let id = try #require(UInt32(printed.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
            let gdbus = try session.run(try Tool.path("gdbus"), [
                "call", "--session", "--dest", "org.freedesktop.Notifications",
                "--object-path", "/org/freedesktop/Notifications",
                "--method", "org.freedesktop.Notifications.CloseNotification", String(id)])
            #expect(gdbus.succeeded, "\(gdbus)")
            let closed = try session.waitForNotificationClosed(id: id, timeout: .seconds(5))
            #expect(closed.source == .closeCall)
            #expect(session.closedNotificationIDs() == [expiring.id, id])

            #expect(throws: HeadlessSessionError.self) {
                _ = try session.waitForNotification(timeout: .milliseconds(200)) { $0.summary == "Never sent" }
            }
        }

        @Test("while paused dunst shows nothing, critical included, yet Notify still returns an id")
        func paused() throws {
            let session = try HeadlessSession(label: "paused")
            defer { session.stop() }
            try session.setNotificationsPaused(true)
            #expect(try session.notificationsPaused())
            let waiter = try session.launch(try Tool.path("notify-send"),
                                            ["--wait", "-u", "critical", "-A", "stop=Stop", "Hidden"])
            let hidden = try session.waitForNotification(timeout: .seconds(5)) { $0.summary == "Hidden" }
            #expect(hidden.id > 0)
            #expect(try session.displayedNotificationCount() == 0)
            #expect(throws: HeadlessSessionError.self) {
                try session.clickAction(label: "Stop", onNotification: hidden.id)
            }

            try session.setNotificationsPaused(false)
            #expect(try Polling.until(timeout: .seconds(3)) { try session.displayedNotificationCount() == 1 })
            try session.clickAction(label: "Stop", onNotification: hidden.id)
            #expect(waiter.waitForExit(timeout: .seconds(5)) == 0)
            #expect(waiter.standardOutput() == "stop\n")
        }
    }
}
