import Foundation
import Testing
@testable import HeadlessSession

extension RealSessionTests {
    @Suite("Isolation between sessions")
    struct Isolation {
        @Test("two sessions at once have their own display, bus, sound and notifications",
              arguments: SoundServerKind.allCases)
        func twoSessionsDoNotInterfere(sound: SoundServerKind) throws {
            let first = try HeadlessSession(label: "first", soundServer: sound)
            defer { first.stop() }
            let second = try HeadlessSession(label: "second", soundServer: sound)
            defer { second.stop() }

            #expect(first.display != second.display)
            #expect(first.busAddress != second.busAddress)
            #expect(first.soundServerAddress != second.soundServerAddress)
            #expect(first.environment["HOME"] != second.environment["HOME"])

            let notifySend = try Tool.path("notify-send")
            #expect(try first.run(notifySend, ["Only in first"]).succeeded)
            #expect(try second.run(notifySend, ["Only in second"]).succeeded)
            _ = try first.waitForNotification(timeout: .seconds(5)) { $0.summary == "Only in first" }
            _ = try second.waitForNotification(timeout: .seconds(5)) { $0.summary == "Only in second" }
            #expect(first.notifications().map(\.summary) == ["Only in first"])
            #expect(second.notifications().map(\.summary) == ["Only in second"])

            let heardByFirst = try first.startRecording()
            let heardBySecond = try second.startRecording()
            let launched = Date()
            #expect(try second.run(try Tool.path("paplay"), [Tool.bell.path]).succeeded)
            let exited = Date()
            Thread.sleep(forTimeInterval: 0.05)
            let firstTrace = heardByFirst.stop()
            let secondTrace = heardBySecond.stop()
            #expect(secondTrace.peakRMS > 0.05)
            #expect(firstTrace.isSilent(from: launched, to: exited))

            // Stopping one leaves the other working.
            first.stop()
            #expect(try second.run(notifySend, ["Still here"]).succeeded)
            _ = try second.waitForNotification(timeout: .seconds(5)) { $0.summary == "Still here" }
        }
    }
}
