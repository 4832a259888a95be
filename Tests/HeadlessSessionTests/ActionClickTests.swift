import Foundation
import Testing
@testable import HeadlessSession

extension RealSessionTests {
    @Suite("Clicking notification actions")
    struct Clicking {
        @Test("clicking Pause on one of several notifications delivers its key to that notification only")
        func clickByLabelAndID() throws {
            let session = try HeadlessSession(label: "click")
            defer { session.stop() }
            let notifySend = try Tool.path("notify-send")

            // Two notifications with the same labels: only the id tells them apart.
            let first = try session.launch(notifySend, ["--wait", "-A", "pause=Pause", "-A", "cancel=Cancel", "Tea"])
            let second = try session.launch(notifySend, ["--wait", "-A", "pause=Pause", "-A", "cancel=Cancel",
                                                         "-u", "critical", "-h", "int:value:40", "Eggs"])
            let tea = try session.waitForNotification(timeout: .seconds(5)) { $0.summary == "Tea" }
            let eggs = try session.waitForNotification(timeout: .seconds(5)) { $0.summary == "Eggs" }
            #expect(try Polling.until(timeout: .seconds(3)) { try session.displayedNotificationCount() == 2 })

            let invoked = try session.clickAction(label: "Pause", onNotification: eggs.id)
            #expect(invoked.notificationID == eggs.id)
            #expect(invoked.actionKey == "pause")
            // notify-send --wait prints the key of the invoked action and exits.
            #expect(second.waitForExit(timeout: .seconds(5)) == 0)
            #expect(second.standardOutput() == "pause\n")
            #expect(first.isRunning, "the other notification must not have been clicked")
            #expect(session.invokedActions().map(\.notificationID) == [eggs.id])

            try session.clickAction(label: "Cancel", onNotification: tea.id)
            #expect(first.waitForExit(timeout: .seconds(5)) == 0)
            #expect(first.standardOutput() == "cancel\n")
        }

        @Test("an action that is not there fails with what the notification and dunst offer")
        func missingAction() throws {
            let session = try HeadlessSession(label: "click-missing")
            defer { session.stop() }
            _ = try session.launch(try Tool.path("notify-send"), ["--wait", "-A", "stop=Stop", "Timer"])
            let timer = try session.waitForNotification(timeout: .seconds(5)) { $0.summary == "Timer" }

            do {
                try session.clickAction(label: "Snooze", onNotification: timer.id)
                Issue.record("clicking a missing action should throw")
            } catch let error as HeadlessSessionError {
                #expect(error.description.contains("\"Stop\""), "\(error)")
            }

            // Once the notification is gone, dunst no longer offers its action.
            let gdbus = try session.run(try Tool.path("gdbus"), [
                "call", "--session", "--dest", "org.freedesktop.Notifications",
                "--object-path", "/org/freedesktop/Notifications",
                "--method", "org.freedesktop.Notifications.CloseNotification", String(timer.id)])
            #expect(gdbus.succeeded)
            _ = try session.waitForNotificationClosed(id: timer.id, timeout: .seconds(5))
            #expect(throws: HeadlessSessionError.self) {
                try session.clickAction(label: "Stop", onNotification: timer.id, timeout: .milliseconds(500))
            }
        }
    }
}
