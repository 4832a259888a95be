import Foundation
import Testing
@testable import HeadlessSession

extension RealSessionTests {
    /// `lockScreen(with:)`: a locker that cannot lock this session says why; one that locks is
    /// locked until ended, and the screen is the session's again afterwards.
    @Suite("Screen lock")
    struct ScreenLockTests {
        @Test("swaylock in a session without sway fails, saying it needs mako's session")
        func swaylockNeedsSway() throws {
            let session = try HeadlessSession(label: "lock-no-sway")
            defer { session.stop() }
            do {
                _ = try session.lockScreen(with: .swaylock)
                Issue.record("swaylock locked a session without sway")
            } catch let error as HeadlessSessionError {
                #expect(error.description.contains("swaylock") && error.description.contains(".mako"), "\(error)")
            }
        }

        @Test("i3lock covers the screen in its colour while it runs; ended, it leaves the screen")
        func i3lockLocksUntilEnded() throws {
            let session = try HeadlessSession(label: "lock-i3lock")
            defer { session.stop() }
            #expect(try session.screenOverview().isDark, "the bare X screen is not black")
            let lock = try session.lockScreen(with: .i3lock)
            #expect(try lock.isLocked)
            let covered = try session.screenOverview()
            #expect(covered.isOneColour && !covered.isDark)
            lock.unlock()
            #expect(try !lock.isLocked)
            #expect(try session.waitForScreenOverview("the bare screen again") { $0.isDark }.isDark)
        }
    }
}
