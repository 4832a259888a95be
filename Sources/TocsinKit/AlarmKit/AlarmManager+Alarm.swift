import Foundation

extension AlarmManager {
    /// An alarm or timer of this application, as the agent holds it now — AlarmKit's `Alarm`.
    ///
    /// Declared inside `AlarmManager` so that code importing both TocsinKit and TocsinCore (the
    /// `tocsin` command line) can tell it from TocsinCore's `Alarm`; apps write `Alarm`, as in
    /// AlarmKit, through the top-level typealias (AlarmKitName.swift).
    public struct Alarm: Identifiable, Codable, Hashable, Sendable {
        /// An alarm's id: the UUID given to `AlarmManager.schedule(id:configuration:)`.
        public typealias ID = UUID

        /// The id the application chose when scheduling it.
        public var id: ID
        /// When it rings; `nil` for a timer.
        public var schedule: Schedule?
        /// Its countdowns: before it rings (`preAlert`: a timer's length, an alarm's pre-alert)
        /// and after the secondary button snoozes it (`postAlert`); `nil` when it has neither.
        public var countdownDuration: CountdownDuration?
        /// Where it is in its life.
        public var state: State

        /// Tocsin: the title the agent shows for it (the configuration's alert title).
        public var title: String
        /// Tocsin: the id the agent knows it by — the one `tocsin list` shows and hooks get as
        /// `TOCSIN_ID`. The agent takes the id given to `schedule(id:configuration:)`, so this
        /// equals `id`; it differs only for alarms an older agent saved under an id of its own.
        public var agentID: UUID
        /// Tocsin: what its live activity shows now — counting down, paused or ringing, with the
        /// dates and durations a view draws; `nil` while it only waits for its time.
        public var presentationState: AlarmPresentationState?
        /// Tocsin: the local date and time it rings at, for an alarm set with
        /// `AlarmConfiguration.alarm(localDateTime:…)` (or `tocsin alarm --date`); its `schedule`
        /// is then `.fixed` at the instant that is now. `nil` for every other alarm.
        public var localDateTime: LocalDateTime?
        /// The JSON kept with the alarm (TocsinKit's envelope around the metadata, see
        /// `AlarmMetadataEnvelope`), as the agent handed it back.
        var storedMetadata: String?

        /// Tocsin: the metadata given in the configuration's attributes, decoded as `type`;
        /// `nil` when it had none or it is not a `type`. AlarmKit keeps metadata for the Live
        /// Activity only; the agent hands it back with the alarm, so an app that was not running
        /// can tell its alarms apart.
        public func metadata<Metadata: AlarmMetadata>(as type: Metadata.Type = Metadata.self) -> Metadata? {
            storedMetadata.flatMap { AlarmMetadataEnvelope.metadata(as: type, from: $0) }
        }

        /// Where an alarm is in its life (AlarmKit's names, which the agent uses too).
        public enum State: String, Codable, Hashable, Sendable {
            /// Waiting for its time, without a countdown on screen.
            case scheduled
            /// Counting down, shown with the time left; rings when it reaches zero.
            case countdown
            /// A countdown on hold (`pause(id:)`), keeping what remained.
            case paused
            /// Ringing, until stopped, snoozed (`countdown(id:)`), its secondary button is pressed
            /// or it rang unanswered for ten minutes.
            case alerting
        }

        /// The countdowns around an alarm's ring — AlarmKit's `Alarm.CountdownDuration`.
        public struct CountdownDuration: Codable, Hashable, Sendable {
            /// How long it counts down before it rings: a timer's duration, an alarm's countdown
            /// before its time; `nil`: none.
            public var preAlert: TimeInterval?
            /// How long it counts down again after the secondary button with the `.countdown`
            /// behaviour snoozes it; `nil`: it cannot be snoozed.
            public var postAlert: TimeInterval?

            /// Countdowns of `preAlert` before the ring and `postAlert` after a snooze.
            public init(preAlert: TimeInterval?, postAlert: TimeInterval?) {
                self.preAlert = preAlert
                self.postAlert = postAlert
            }
        }

        init(id: ID, schedule: Schedule?, countdownDuration: CountdownDuration?, state: State, title: String, agentID: UUID,
             storedMetadata: String?, presentationState: AlarmPresentationState? = nil, localDateTime: LocalDateTime? = nil) {
            self.presentationState = presentationState
            self.localDateTime = localDateTime
            self.id = id
            self.schedule = schedule
            self.countdownDuration = countdownDuration
            self.state = state
            self.title = title
            self.agentID = agentID
            self.storedMetadata = storedMetadata
        }
    }
}
