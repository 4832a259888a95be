import Testing
@testable import TocsinCore

// NotificationPayload+Tick.swift: which updates may go out as ticks, without waiting for the
// server, and which must be sent in full.
@Suite("Notification payload ticks")
struct NotificationPayloadTickTests {
    typealias Profiles = NotificationServerProfileTests

    /// The countdown as it reads `seconds` later, everything else alike.
    static func countdown(_ body: String, progress: Int) -> NotificationContent {
        var content = Profiles.countdown
        content.body = body
        content.progress = progress
        return content
    }

    @Test("A countdown's next second is a tick on every server, once it has been shown (the text, the progress and the expiry change)",
          arguments: NotificationServerFamily.allCases)
    func nextSecondIsATick(family: NotificationServerFamily) {
        let profile = Profiles.profile(family)
        let shown = NotificationPayload(Profiles.countdown, profile: profile, shownFor: .seconds(1))
        let next = NotificationPayload(Self.countdown("2:14 remaining, ends 08:03.", progress: 26), profile: profile, shownFor: .seconds(2))
        #expect(next.body != shown.body)
        #expect(next.isTick(following: shown))
    }

    @Test("Plasma's popup expiry shrinks each second and a tick carries it")
    func plasmaExpiryChanges() {
        let profile = Profiles.profile(.plasma)
        let shown = NotificationPayload(Profiles.countdown, profile: profile, shownFor: .seconds(1))
        let next = NotificationPayload(Self.countdown("2:14 remaining, ends 08:03.", progress: 26), profile: profile, shownFor: .seconds(2))
        #expect(shown.expiry != next.expiry)
        #expect(next.isTick(following: shown))
    }

    @Test("GNOME Shell's first update, quieter than the first showing, is sent in full")
    func gnomeFirstUpdateIsFull() {
        let profile = Profiles.profile(.gnomeShell)
        let first = NotificationPayload(Profiles.countdown, profile: profile)
        let update = NotificationPayload(Self.countdown("2:14 remaining, ends 08:03.", progress: 26), profile: profile, shownFor: .seconds(1))
        #expect(first.urgency != update.urgency)
        #expect(!update.isTick(following: first))
    }

    @Test("Paused, ringing, other buttons, a hint that comes or goes: sent in full")
    func changesAreFull() {
        let profile = Profiles.profile(.dunst)
        let shown = NotificationPayload(Profiles.countdown, profile: profile, shownFor: .seconds(1))
        var paused = Profiles.countdown
        paused.role = .paused
        paused.actions = [.init(.resume, label: "Resume"), .init(.cancel, label: "Cancel")]
        paused.defaultIntent = .resume
        #expect(!NotificationPayload(paused, profile: profile, shownFor: .seconds(2)).isTick(following: shown))
        #expect(!NotificationPayload(Profiles.alert, profile: profile, shownFor: .seconds(2)).isTick(following: shown))

        var otherButtons = NotificationPayload(Profiles.countdown, profile: profile, shownFor: .seconds(2))
        otherButtons.actions.removeLast()
        #expect(!otherButtons.isTick(following: shown))

        var noProgress = NotificationPayload(Profiles.countdown, profile: profile, shownFor: .seconds(2))
        noProgress.progress = nil
        #expect(!noProgress.isTick(following: shown), "the value hint would stay behind in the call replayed")

        var transient = NotificationPayload(Profiles.countdown, profile: profile, shownFor: .seconds(2))
        transient.isTransient = true
        #expect(!transient.isTick(following: shown))

        var withImage = NotificationPayload(Profiles.countdown, profile: profile, shownFor: .seconds(2))
        withImage.imagePath = "file:///usr/share/icons/hicolor/scalable/apps/io.github.tocsin.Agent.svg"
        #expect(!withImage.isTick(following: shown))

        // Lock-screen titles hidden: the privacy hint must go, not stay in the call replayed.
        var privateTitle = NotificationPayload(Profiles.countdown, profile: profile, shownFor: .seconds(2))
        privateTitle.privacyScope = nil
        #expect(shown.privacyScope == "system")
        #expect(!privateTitle.isTick(following: shown))
    }
}
