import Foundation
import Testing
import TocsinCore

// Shared fixtures. Time is always an input: every instant is built from `t0`, never from the clock.

/// The instant the tests count from (2027-01-15 08:00:00 UTC).
let t0 = Date(timeIntervalSince1970: 1_800_000_000)

/// `seconds` after `t0`.
func at(_ seconds: TimeInterval) -> Date {
    t0.addingTimeInterval(seconds)
}

/// A fixed, readable id: `00000000-0000-0000-0000-0000000000nn`.
func fixedID(_ number: Int) -> UUID {
    let digits = String(number)
    return UUID(uuidString: "00000000-0000-0000-0000-" + String(repeating: "0", count: 12 - digits.count) + digits)!
}

enum Fixture {
    static let snoozeButton = SecondaryButton(label: "Snooze", behavior: .countdown)
    static let customButton = SecondaryButton(label: "Next step", behavior: .custom)

    /// An alarm built directly (no validation). By default: "Pasta", a 60 s timer created at `t0`,
    /// counting down to `at(60)`, ringing for at most 600 s, no second button.
    static func alarm(
        id: UUID = fixedID(1),
        title: String = "Pasta",
        duration: TimeInterval = 60,
        snooze: TimeInterval? = nil,
        button: SecondaryButton? = nil,
        sound: AlarmSound = .standard,
        ringLimit: TimeInterval = 600,
        hooks: AlarmHooks = AlarmHooks(),
        state: AlarmState? = nil,
        createdAt: Date = t0
    ) -> Alarm {
        Alarm(
            id: id, title: title, kind: .timer, countdownDuration: duration,
            snoozeDuration: snooze, secondaryButton: button, sound: sound, ringLimit: ringLimit,
            hooks: hooks,
            state: state ?? .countdown(CountdownPhase(fireDate: createdAt.addingTimeInterval(duration), duration: duration)),
            createdAt: createdAt
        )
    }

    /// A 60 s timer with a 300 s snooze behind a "Snooze" button, in the state named `name`.
    static func snoozable(in name: AlarmStateName) -> Alarm {
        alarm(snooze: 300, button: snoozeButton, state: state(name))
    }

    /// A representative state of a 60 s timer started at `t0`, for each state name:
    /// scheduled for `at(60)`, counting down to `at(60)`, paused with 50 s left, ringing since `at(60)`.
    static func state(_ name: AlarmStateName) -> AlarmState {
        switch name {
        case .scheduled: .scheduled(fireDate: at(60))
        case .countdown: .countdown(CountdownPhase(fireDate: at(60), duration: 60))
        case .paused: .paused(PausedPhase(remaining: 50, duration: 60))
        case .alerting: .alerting(since: at(60))
        }
    }

    /// One alarm per state, each with different buttons, hooks and sounds, for round trips.
    static let varied: [Alarm] = [
        alarm(id: fixedID(1), title: "Scheduled", sound: .themeEvent("bell"), state: .scheduled(fireDate: at(3600)), createdAt: at(1)),
        alarm(id: fixedID(2), title: "Tea", duration: 180, snooze: 300, button: snoozeButton,
              hooks: AlarmHooks([.fire: "notify-send tea", .snooze: "echo snoozed"]), createdAt: at(2)),
        alarm(id: fixedID(3), title: "Bread – 2nd rise 🍞", duration: 2700, snooze: 60,
              button: SecondaryButton(label: "Repeat", behavior: .countdown), sound: .file("/usr/share/sounds/freedesktop/stereo/bell.oga"),
              ringLimit: 120, state: .paused(PausedPhase(remaining: 1234.5, duration: 2700)), createdAt: at(3)),
        alarm(id: fixedID(4), title: "Laundry", duration: 3600, button: customButton,
              hooks: AlarmHooks([.fire: "a", .stop: "b", .snooze: "c", .secondary: "d", .cancel: "e"]),
              state: .alerting(since: at(3604)), createdAt: at(4)),
    ]
}

/// A fresh directory under the system temporary directory, removed after `body`.
func withTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("TocsinCoreTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    return try body(directory)
}
