import Foundation
import TocsinCore

/// What an alarm's live activity shows now — AlarmKit's `AlarmPresentationState`, the content
/// state of `AlarmAttributes`: counting down (to when), paused (how far), or ringing. An app
/// reads it from its alarms (`Alarm.presentationState`, in `alarmUpdates`) to draw its own view.
public struct AlarmPresentationState: Codable, Hashable, Sendable {
    /// The alarm it belongs to.
    public var alarmID: Alarm.ID
    /// What it shows.
    public var mode: Mode

    /// The state of alarm `alarmID` in `mode`.
    public init(alarmID: Alarm.ID, mode: Mode) {
        self.alarmID = alarmID
        self.mode = mode
    }

    /// Ringing, counting down, or paused.
    public enum Mode: Codable, Hashable, Sendable {
        case alert(Alert)
        case countdown(Countdown)
        case paused(Paused)

        /// Ringing.
        public struct Alert: Codable, Hashable, Sendable {
            /// The time of day it rang, on this machine's clock.
            public var time: Alarm.Schedule.Relative.Time

            /// Ringing since `time`.
            public init(time: Alarm.Schedule.Relative.Time) {
                self.time = time
            }
        }

        /// Counting down. The progress at an instant `t` is
        /// `(previouslyElapsedDuration + t − startDate) / totalCountdownDuration`.
        public struct Countdown: Codable, Hashable, Sendable {
            /// The whole countdown's length.
            public var totalCountdownDuration: TimeInterval
            /// What had elapsed before `startDate`. The agent keeps the fire date and the
            /// length, not when the countdown was last resumed: it says 0 and puts `startDate`
            /// where the countdown would have begun without pauses, which gives the same progress.
            public var previouslyElapsedDuration: TimeInterval
            /// When the counting that leads to `fireDate` began.
            public var startDate: Date
            /// When it rings.
            public var fireDate: Date

            /// A countdown of `totalCountdownDuration` ringing at `fireDate`.
            public init(totalCountdownDuration: TimeInterval, previouslyElapsedDuration: TimeInterval, startDate: Date, fireDate: Date) {
                self.totalCountdownDuration = totalCountdownDuration
                self.previouslyElapsedDuration = previouslyElapsedDuration
                self.startDate = startDate
                self.fireDate = fireDate
            }
        }

        /// A countdown on hold.
        public struct Paused: Codable, Hashable, Sendable {
            /// The whole countdown's length.
            public var totalCountdownDuration: TimeInterval
            /// How much of it had elapsed when it was paused.
            public var previouslyElapsedDuration: TimeInterval

            /// A countdown of `totalCountdownDuration` paused after `previouslyElapsedDuration`.
            public init(totalCountdownDuration: TimeInterval, previouslyElapsedDuration: TimeInterval) {
                self.totalCountdownDuration = totalCountdownDuration
                self.previouslyElapsedDuration = previouslyElapsedDuration
            }
        }
    }

    /// The state of alarm `alarmID` in the agent's `state`; `nil` while it only waits for its
    /// time (AlarmKit shows no live activity then). `calendar` gives a ringing alarm's time of day.
    init?(alarmID: Alarm.ID, state: AlarmState, calendar: Calendar) {
        switch state {
        case .scheduled:
            return nil
        case .countdown(let phase):
            mode = .countdown(.init(totalCountdownDuration: phase.duration, previouslyElapsedDuration: 0,
                                    startDate: phase.fireDate.addingTimeInterval(-phase.duration), fireDate: phase.fireDate))
        case .paused(let phase):
            mode = .paused(.init(totalCountdownDuration: phase.duration, previouslyElapsedDuration: max(0, phase.duration - phase.remaining)))
        case .alerting(let since):
            let parts = calendar.dateComponents([.hour, .minute], from: since)
            mode = .alert(.init(time: .init(hour: parts.hour ?? 0, minute: parts.minute ?? 0)))
        }
        self.alarmID = alarmID
    }
}
