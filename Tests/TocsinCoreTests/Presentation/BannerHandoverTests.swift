import Testing
@testable import TocsinCore
import TocsinTestSupport

// BannerHandover.swift: on GNOME Shell 48 a notification keeps the urgency it was created with,
// and a countdown's banner is handed over to a quiet notification in the message list.
@Suite("Banner handover (GNOME Shell 48)")
struct BannerHandoverTests {
    let t0 = ContinuousClock.now
    let limit = Duration.seconds(8)
    static let countdown = NotificationServerProfileTests.countdown
    /// The handover under test, held by reference so that `#expect` may call its mutating steps.
    final class Handover {
        var base = BannerHandover<Int>()
        func step(_ content: NotificationContent, for key: Int, live: Bool, limit: Duration, now: ContinuousClock.Instant) -> BannerHandover<Int>.Step {
            base.step(content, for: key, live: live, limit: limit, now: now)
        }
        func gone(_ key: Int) -> Bool { base.gone(key) }
        func forget(_ key: Int) { base.forget(key) }
    }

    static var paused: NotificationContent {
        var paused = countdown
        paused.role = .paused
        return paused
    }

    @Test("A countdown's first showing is a transient banner at normal urgency; its ticks are held back while the banner may show")
    func firstShowingAndTicks() {
        let handover = Handover()
        #expect(handover.step(Self.countdown, for: 1, live: false, limit: limit, now: t0) == .send(.normal, transient: true))
        for second in 1...7 {
            #expect(handover.step(Self.countdown, for: 1, live: true, limit: limit, now: t0 + .seconds(second)) == .withhold,
                    "an update at normal urgency would keep the banner up; one at low would break the message list")
        }
    }

    @Test("Once the shell let the banner go (expired), the countdown is a new notification at low urgency, and stays low")
    func shellLetItGo() {
        let handover = Handover()
        _ = handover.step(Self.countdown, for: 1, live: false, limit: limit, now: t0)
        #expect(handover.gone(1), "gone during its banner: to be shown anew")
        #expect(handover.step(Self.countdown, for: 1, live: false, limit: limit, now: t0 + .seconds(5)) == .send(.low, transient: false))
        #expect(handover.step(Self.countdown, for: 1, live: true, limit: limit, now: t0 + .seconds(6)) == .send(.low, transient: false))
        #expect(handover.step(Self.paused, for: 1, live: true, limit: limit, now: t0 + .seconds(7)) == .send(.low, transient: false),
                "paused in the message list: still low, never normal again")
        #expect(!handover.gone(1), "a quiet notification's closing is no banner going")
    }

    @Test("A banner that outstays the limit (banners off, the pointer on it, an idle session) is replaced by a quiet notification")
    func outstayed() {
        let handover = Handover()
        _ = handover.step(Self.countdown, for: 1, live: false, limit: limit, now: t0)
        #expect(handover.step(Self.countdown, for: 1, live: true, limit: limit, now: t0 + .seconds(8)) == .replace(.low))
        #expect(handover.step(Self.countdown, for: 1, live: true, limit: limit, now: t0 + .seconds(9)) == .send(.low, transient: false))
    }

    @Test("A change of state on the banner is sent at once, at the banner's urgency, and the limit counts from it")
    func changeOnTheBanner() {
        let handover = Handover()
        _ = handover.step(Self.countdown, for: 1, live: false, limit: limit, now: t0)
        #expect(handover.step(Self.paused, for: 1, live: true, limit: limit, now: t0 + .seconds(6)) == .send(.normal, transient: true))
        #expect(handover.step(Self.countdown, for: 1, live: true, limit: limit, now: t0 + .seconds(7)) == .send(.normal, transient: true),
                "resumed: a change too")
        #expect(handover.step(Self.countdown, for: 1, live: true, limit: limit, now: t0 + .seconds(14)) == .withhold)
        #expect(handover.step(Self.countdown, for: 1, live: true, limit: limit, now: t0 + .seconds(15)) == .replace(.low))
    }

    @Test("An alert is critical; the snooze's countdown that replaces it goes low (critical to low the shell counts right)")
    func alertThenSnooze() {
        let handover = Handover()
        _ = handover.step(Self.countdown, for: 1, live: false, limit: limit, now: t0)
        let alert = NotificationServerProfileTests.alert
        #expect(handover.step(alert, for: 1, live: false, limit: limit, now: t0 + .seconds(2)) == .send(.critical, transient: false))
        #expect(handover.step(Self.countdown, for: 1, live: true, limit: limit, now: t0 + .seconds(3)) == .send(.low, transient: false))
    }

    @Test("A dismissal or Tocsin's own close during the banner leaves the next showing quiet; a withdrawn alarm's next countdown has a banner again")
    func goneAndForgotten() {
        let handover = Handover()
        _ = handover.step(Self.countdown, for: 1, live: false, limit: limit, now: t0)
        _ = handover.gone(1)
        #expect(handover.step(Self.paused, for: 1, live: false, limit: limit, now: t0 + .seconds(1)) == .send(.low, transient: false))
        handover.forget(1)
        #expect(handover.step(Self.countdown, for: 1, live: false, limit: limit, now: t0 + .seconds(2)) == .send(.normal, transient: true))
        #expect(handover.step(Self.countdown, for: 2, live: false, limit: limit, now: t0 + .seconds(2)) == .send(.normal, transient: true),
                "each alarm its own")
        #expect(!handover.gone(3), "never shown")
    }

    @Test("A notice and a question are sent as they are: not transient, their own urgency")
    func noticesAndQuestions() {
        let handover = Handover()
        let notice = NotificationServerProfileTests.notice, consent = NotificationServerProfileTests.consent
        #expect(handover.step(notice, for: 1, live: false, limit: limit, now: t0) == .send(notice.urgency, transient: false))
        #expect(handover.step(consent, for: 2, live: false, limit: limit, now: t0) == .send(consent.urgency, transient: false))
        #expect(!handover.gone(2))
    }
}
