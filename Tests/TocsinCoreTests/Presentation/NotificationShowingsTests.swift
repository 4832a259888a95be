import Testing
@testable import TocsinCore
import TocsinTestSupport

// NotificationShowings.swift: a first showing told from an update, also across a change of server.
@Suite("Notification showings")
struct NotificationShowingsTests {
    let t0 = ContinuousClock.now

    @Test("The first showing is nil; each later one, the time since the first")
    func updates() {
        var showings = NotificationShowings<Int>()
        #expect(showings.show(1, generation: 0, at: t0) == nil)
        #expect(showings.show(1, generation: 0, at: t0 + .seconds(1)) == .seconds(1))
        #expect(showings.show(1, generation: 0, at: t0 + .milliseconds(2_500)) == .milliseconds(2_500))
        #expect(showings.show(2, generation: 0, at: t0 + .seconds(3)) == nil, "another notification is its own")
    }

    @Test("A server that appears after the countdown was shown: the next showing is a first one, and counts from there")
    func serverChanged() {
        var showings = NotificationShowings<Int>()
        _ = showings.show(1, generation: 0, at: t0)
        _ = showings.show(1, generation: 0, at: t0 + .seconds(1))
        #expect(showings.show(1, generation: 1, at: t0 + .seconds(9)) == nil, "shown under the profile of no server")
        #expect(showings.show(1, generation: 1, at: t0 + .seconds(10)) == .seconds(1))
    }

    @Test("Forgotten (closed, gone from the server): shown again as for the first time")
    func forgotten() {
        var showings = NotificationShowings<Int>()
        _ = showings.show(1, generation: 0, at: t0)
        showings.forget(1)
        #expect(showings.show(1, generation: 0, at: t0 + .seconds(5)) == nil)
    }

    @Test("On GNOME Shell a countdown first shown before the server was known pops a banner (normal urgency), not a silent update")
    func firstShowingOnTheNewServer() {
        var showings = NotificationShowings<Int>()
        let gnome = NotificationServerProfile(for: NotificationServerProfileTests.identities[.gnomeShell]!)
        _ = showings.show(1, generation: 0, at: t0)
        let shownFor = showings.show(1, generation: 1, at: t0 + .seconds(4))
        #expect(NotificationPayload(NotificationServerProfileTests.countdown, profile: gnome, shownFor: shownFor).urgency == .normal)
        let next = showings.show(1, generation: 1, at: t0 + .seconds(5))
        #expect(NotificationPayload(NotificationServerProfileTests.countdown, profile: gnome, shownFor: next).urgency == .low)
    }
}
