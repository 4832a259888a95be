import Foundation
import Testing
@testable import TocsinCore
import TocsinTestSupport

// LockScreenContent.swift and LockScreenSettings.swift: what a locked screen shows of the alarms.
@Suite("Lock screen content")
struct LockScreenContentTests {
    static let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    static func alarm(_ title: String, kind: AlarmKind = .timer, state: AlarmState, created: TimeInterval = 0,
                      secondary: SecondaryButton? = nil) -> Alarm {
        Alarm(id: UUID(), title: title, kind: kind, countdownDuration: 300, snoozeDuration: secondary == nil ? nil : 300,
              secondaryButton: secondary, sound: .standard, ringLimit: 600, hooks: AlarmHooks(), state: state,
              createdAt: t0.addingTimeInterval(created))
    }

    static func content(_ alarms: [Alarm], showsTitles: Bool = true) -> LockScreenContent {
        LockScreenContent(alarms: alarms, settings: LockScreenSettings(showsTitles: showsTitles), timeOfDay: { date in
            let minutes = Int(date.timeIntervalSince(t0)) / 60
            return String(format: "07:%02d", minutes)
        })
    }

    @Test("What rings first, the one ringing longest on top; then countdowns by end; then the paused; nothing waiting")
    func order() {
        let alarms = [
            Self.alarm("Later countdown", state: .countdown(CountdownPhase(fireDate: Self.t0.addingTimeInterval(900), duration: 900))),
            Self.alarm("Paused", state: .paused(PausedPhase(remaining: 59.6, duration: 300))),
            Self.alarm("Rang second", kind: .alarm, state: .alerting(since: Self.t0.addingTimeInterval(120))),
            Self.alarm("Waiting", kind: .alarm, state: .scheduled(fireDate: Self.t0.addingTimeInterval(3600))),
            Self.alarm("Sooner countdown", state: .countdown(CountdownPhase(fireDate: Self.t0.addingTimeInterval(300), duration: 300))),
            Self.alarm("Rang first", kind: .alarm, state: .alerting(since: Self.t0.addingTimeInterval(60))),
        ]
        let content = Self.content(alarms)
        #expect(content.entries.map(\.title) == ["Rang first", "Rang second", "Sooner countdown", "Later countdown", "Paused"])
        #expect(content.entries.map(\.phase.name) == ["ringing", "ringing", "counting", "counting", "paused"])
        #expect(content.entries.map(\.time) == ["07:01", "07:02", "", "", "1:00"], "the time a ring began; a paused one's time left as shown")
    }

    @Test("Buttons: Stop and the alarm's own second button while ringing; Pause/Cancel; Resume/Cancel")
    func buttons() {
        let ringing = Self.alarm("Bake", state: .alerting(since: Self.t0), secondary: SecondaryButton(label: "Take out", behavior: .custom))
        let plain = Self.alarm("Tea", state: .alerting(since: Self.t0), created: 1)
        let counting = Self.alarm("Eggs", state: .countdown(CountdownPhase(fireDate: Self.t0.addingTimeInterval(60), duration: 60)))
        let paused = Self.alarm("Rice", state: .paused(PausedPhase(remaining: 30, duration: 60)))
        let content = Self.content([ringing, plain, counting, paused])
        #expect(content.entries.map { $0.buttons.map(\.label) } == [["Stop", "Take out"], ["Stop"], ["Pause", "Cancel"], ["Resume", "Cancel"]])
        #expect(content.intent(pressing: "secondary", on: ringing.id) == .secondary)
        #expect(content.intent(pressing: "stop", on: plain.id) == .stop)
        #expect(content.intent(pressing: "secondary", on: plain.id) == nil, "a button it does not show")
        #expect(content.intent(pressing: "stop", on: counting.id) == nil, "a countdown has no Stop")
        #expect(content.intent(pressing: "resume", on: paused.id) == .resume)
        #expect(content.intent(pressing: "stop", on: UUID()) == nil, "an alarm it does not show")
    }

    @Test("A countdown carries its end, so its content does not change as it counts; its time left is written when sent")
    func countingText() throws {
        let end = Self.t0.addingTimeInterval(299.6)
        let counting = Self.alarm("Eggs", state: .countdown(CountdownPhase(fireDate: end, duration: 300)))
        let content = Self.content([counting])
        let entry = try #require(content.entries.first)
        #expect(entry.phase == .counting(end: end))
        #expect(LockScreenContent.timeText(of: entry, at: Self.t0) == "5:00", "rounded to the nearest second, as the notification shows it")
        #expect(LockScreenContent.timeText(of: entry, at: Self.t0.addingTimeInterval(240.2)) == "0:59")
        #expect(LockScreenContent.timeText(of: entry, at: end.addingTimeInterval(5)) == "0:00", "never negative")
        #expect(Self.content([counting]) == content)
    }

    @Test("Hidden titles: “Alarm” or “Timer”, on the lock screen and the media player; shown by default")
    func privacy() {
        let wake = Self.alarm("Flight to Oslo", kind: .alarm, state: .alerting(since: Self.t0))
        let tea = Self.alarm("Dentist call", state: .countdown(CountdownPhase(fireDate: Self.t0.addingTimeInterval(60), duration: 60)))
        #expect(Self.content([wake, tea]).entries.map(\.title) == ["Flight to Oslo", "Dentist call"])
        #expect(Self.content([wake, tea], showsTitles: false).entries.map(\.title) == ["Alarm", "Timer"])
        #expect(RingingPlayerContent(alarms: [wake], settings: LockScreenSettings(showsTitles: false))?.title == "Alarm")
        #expect(RingingPlayerContent(alarms: [wake])?.title == "Flight to Oslo")
        #expect(LockScreenSettings.standard.showsTitles)
    }

    @Test("tocsin config lock-screen-titles: show or hide, and words that mean them; saved as one key")
    func settings() throws {
        var settings = LockScreenSettings.standard
        #expect(settings.text(of: .lockScreenTitles) == "show")
        try settings.set(.lockScreenTitles, to: "HIDE")
        #expect(!settings.showsTitles && settings.text(of: .lockScreenTitles) == "hide")
        try settings.set(.lockScreenTitles, to: "yes")
        #expect(settings.showsTitles)
        #expect(throws: AlarmInputError.self) { try settings.set(.lockScreenTitles, to: "maybe") }
        settings.showsTitles = false
        settings.reset(.lockScreenTitles)
        #expect(settings == .standard)

        let saved = try JSONEncoder().encode(LockScreenSettings(showsTitles: false))
        #expect(String(decoding: saved, as: UTF8.self) == #"{"lock-screen-titles":"hide"}"#)
        #expect(try JSONDecoder().decode(LockScreenSettings.self, from: saved) == LockScreenSettings(showsTitles: false))
        #expect(try JSONDecoder().decode(LockScreenSettings.self, from: Data("{}".utf8)) == .standard, "a file without the key keeps the default")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(LockScreenSettings.self, from: Data(#"{"lock-screen-titles":"blur"}"#.utf8)) }
    }

    @Test("Notifications carry GNOME's x-gnome-privacy-scope “system” unless titles are hidden")
    func privacyHint() throws {
        var writer = NotificationContentWriter(localeIdentifier: "C")
        let ringing = Self.alarm("Flight to Oslo", kind: .alarm, state: .alerting(since: Self.t0))
        let shown = try #require(writer.liveActivity(for: ringing, at: Self.t0))
        #expect(NotificationPayload(shown, profile: .unknown).privacyScope == "system")
        writer.showsTitlesWhenLocked = false
        let hidden = try #require(writer.liveActivity(for: ringing, at: Self.t0))
        #expect(NotificationPayload(hidden, profile: .unknown).privacyScope == nil)
        #expect(writer.unacknowledgedNotice(for: ringing).showsOnLockScreen == false)
        #expect(writer.missedNotice(for: ringing, dueAt: Self.t0).showsOnLockScreen == false)
        #expect(NotificationContentWriter.consentQuestion(app: "org.example.App", confinement: .flatpak, alarmLimit: 10).showsOnLockScreen,
                "the consent question names an app, never an alarm: GNOME shows details only when every notification allows it")
    }
}
