import Foundation

extension AlarmManager {
    /// Everything needed to schedule an alarm or a timer — AlarmKit's
    /// `AlarmManager.AlarmConfiguration`.
    ///
    /// A configuration with a `schedule` is an alarm (with an optional countdown before it rings,
    /// `countdownDuration.preAlert`); one without is a timer that counts down
    /// `countdownDuration.preAlert` from the moment it is scheduled.
    public struct AlarmConfiguration<Metadata: AlarmMetadata>: Sendable {
        /// The countdown before it rings (`preAlert`) and after a snooze (`postAlert`).
        public var countdownDuration: Alarm.CountdownDuration?
        /// When it rings; `nil` for a timer.
        public var schedule: Alarm.Schedule?
        /// What it shows and carries.
        public var attributes: AlarmAttributes<Metadata>
        /// What is performed when it is stopped: the app's own intent, performed in the app's
        /// process (see `LiveActivityIntent`), or a command the agent runs (`.command`); `nil`:
        /// only the running app learns of it (`alarmEvents`).
        public var stopIntent: (any LiveActivityIntent)?
        /// What the secondary button performs beyond its behaviour: with `.custom`, the action it
        /// stands for; with `.countdown`, what is performed on each snooze. The same kinds as
        /// `stopIntent`.
        public var secondaryIntent: (any LiveActivityIntent)?
        /// What it plays while it rings.
        public var sound: AlertConfiguration.AlertSound
        /// The entity of the application the alarm stands for (AlarmKit, iOS 27), so Siri can act
        /// on it there. Kept as data: Linux has no Siri.
        public var appEntityIdentifier: EntityIdentifier?
        /// Whether it rings the user's paired phones (KDE Connect) when nobody answers it at the
        /// desk — a Tocsin addition, like a paired watch on iOS; `nil`: as the user's `tocsin
        /// phone` setting says.
        public var phones: PhoneRings? = nil
        /// Whether, while it rings, it unmutes the user's sound output and raises it when muted
        /// or quieter than a level — a Tocsin addition, like an alarm on iOS ringing through the
        /// silent switch; `nil`: as the user's `tocsin config raise-output` and `ring-level` say
        /// (on, to 70 %, by default). The output is put back as it was after the last alarm stops.
        public var outputRaise: OutputRaise? = nil
        /// Tocsin: a local date and time to ring at, in place of `schedule` (see
        /// `alarm(localDateTime:attributes:stopIntent:secondaryIntent:sound:)`). A configuration
        /// with both is refused when scheduling.
        public var localDateTime: Alarm.LocalDateTime? = nil

        /// An alarm's own answer to whether it rings the paired phones.
        public enum PhoneRings: Sendable, Equatable {
            /// Never, whatever the user's setting says.
            case never
            /// When it has rung `after` seconds unanswered (`nil`: the user's delay, 30 s by
            /// default), even with the user's setting off.
            case whenUnanswered(after: TimeInterval? = nil)
        }

        /// An alarm's own answer to whether it raises a muted or turned-down sound output.
        public enum OutputRaise: Sendable, Equatable {
            /// Never: the output stays as the user left it, even muted.
            case never
            /// To at least `percent` % of full volume, 1 to 100 (`nil`: the user's ring level, 70 %
            /// by default), even with the user's setting off. A level outside 1–100 is refused when
            /// scheduling (`AlarmError.tocsin(.invalidArgument)`).
            case toAtLeast(percent: Int? = nil)
        }

        // AlarmKit declares its iOS 27 initialisers, with `appEntityIdentifier:`, beside the 26.0
        // ones. One declaration each, the parameter defaulted, takes both spellings.

        /// A configuration from all its parts; at least one of `countdownDuration.preAlert` (a
        /// timer) and `schedule` (an alarm) is needed.
        public init(
            countdownDuration: Alarm.CountdownDuration? = nil, schedule: Alarm.Schedule? = nil,
            attributes: AlarmAttributes<Metadata>, appEntityIdentifier: EntityIdentifier? = nil,
            stopIntent: (any LiveActivityIntent)? = nil, secondaryIntent: (any LiveActivityIntent)? = nil,
            sound: AlertConfiguration.AlertSound = .default
        ) {
            self.countdownDuration = countdownDuration
            self.schedule = schedule
            self.attributes = attributes
            self.appEntityIdentifier = appEntityIdentifier
            self.stopIntent = stopIntent
            self.secondaryIntent = secondaryIntent
            self.sound = sound
        }

        /// An alarm that rings on `schedule`, without a countdown before it.
        public static func alarm(
            schedule: Alarm.Schedule? = nil, attributes: AlarmAttributes<Metadata>, appEntityIdentifier: EntityIdentifier? = nil,
            stopIntent: (any LiveActivityIntent)? = nil, secondaryIntent: (any LiveActivityIntent)? = nil,
            sound: AlertConfiguration.AlertSound = .default
        ) -> Self {
            Self(schedule: schedule, attributes: attributes, appEntityIdentifier: appEntityIdentifier,
                 stopIntent: stopIntent, secondaryIntent: secondaryIntent, sound: sound)
        }

        /// Tocsin: an alarm that rings once, at `localDateTime` on the wall clock (it follows the
        /// time zone), however far ahead — beside AlarmKit's `alarm(schedule:…)`, whose schedules
        /// are an instant or a time within the next week.
        public static func alarm(
            localDateTime: Alarm.LocalDateTime, attributes: AlarmAttributes<Metadata>,
            stopIntent: (any LiveActivityIntent)? = nil, secondaryIntent: (any LiveActivityIntent)? = nil,
            sound: AlertConfiguration.AlertSound = .default
        ) -> Self {
            var configuration = Self(attributes: attributes, stopIntent: stopIntent, secondaryIntent: secondaryIntent, sound: sound)
            configuration.localDateTime = localDateTime
            return configuration
        }

        /// A timer that counts down `duration` seconds from the moment it is scheduled, then rings.
        /// A `.countdown` secondary button ("Repeat") counts the same duration again.
        public static func timer(
            duration: TimeInterval, attributes: AlarmAttributes<Metadata>, appEntityIdentifier: EntityIdentifier? = nil,
            stopIntent: (any LiveActivityIntent)? = nil, secondaryIntent: (any LiveActivityIntent)? = nil,
            sound: AlertConfiguration.AlertSound = .default
        ) -> Self {
            Self(countdownDuration: Alarm.CountdownDuration(preAlert: duration, postAlert: duration), attributes: attributes,
                 appEntityIdentifier: appEntityIdentifier, stopIntent: stopIntent, secondaryIntent: secondaryIntent, sound: sound)
        }
    }
}
