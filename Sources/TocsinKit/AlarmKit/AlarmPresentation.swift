/// What an alarm shows in each of its states — AlarmKit's `AlarmPresentation`.
///
/// The agent shows one title for every state, `alert.title`, with its own buttons while counting
/// down (Pause, Cancel) and paused (Resume, Cancel); while ringing it shows Stop and
/// `alert.secondaryButton`. `countdown` and `paused` are kept as data for when it can show more.
/// Texts are `LocalizedStringResource`s, written as string literals; Linux shows them as written.
public struct AlarmPresentation: Codable, Hashable, Sendable {
    /// What it shows while ringing.
    public var alert: Alert
    /// What it shows while counting down, if it counts down.
    public var countdown: Countdown?
    /// What it shows while its countdown is paused.
    public var paused: Paused?

    /// A presentation with an alert and, for alarms that count down, a countdown and paused look.
    public init(alert: Alert, countdown: Countdown? = nil, paused: Paused? = nil) {
        self.alert = alert
        self.countdown = countdown
        self.paused = paused
    }

    /// The ringing alarm: a critical notification, shown through do-not-disturb.
    public struct Alert: Codable, Hashable, Sendable {
        /// The notification's title — also the alarm's title while it counts down and in
        /// `tocsin list` (at most 200 characters).
        public var title: LocalizedStringResource
        /// The stop button: since AlarmKit 26.1 the system's own, and so on Linux: "Stop".
        @available(*, deprecated, message: "The system provides the stop button; use init(title:secondaryButton:secondaryButtonBehavior:)")
        public var stopButton: AlarmButton {
            get { storedStopButton }
            set { storedStopButton = newValue }
        }
        var storedStopButton: AlarmButton
        /// The button beside Stop, if any: a snooze (`.countdown`) or your own (`.custom`).
        public var secondaryButton: AlarmButton?
        /// What the secondary button does; required with `secondaryButton`.
        public var secondaryButtonBehavior: SecondaryButtonBehavior?

        /// An alert titled `title`, with the system's Stop button and, if given, a secondary
        /// button — AlarmKit 26.1's initializer.
        public init(title: LocalizedStringResource, secondaryButton: AlarmButton? = nil,
                    secondaryButtonBehavior: SecondaryButtonBehavior? = nil) {
            self.title = title
            storedStopButton = AlarmButton.systemStop
            self.secondaryButton = secondaryButton
            self.secondaryButtonBehavior = secondaryButtonBehavior
        }

        /// An alert titled `title` with a stop button of its own and, if given, a secondary
        /// button — AlarmKit 26.0's initializer, deprecated in 26.1 as there. The button's text
        /// is kept; the agent shows "Stop".
        @available(*, deprecated, message: "The system provides the stop button; use init(title:secondaryButton:secondaryButtonBehavior:)")
        public init(title: LocalizedStringResource, stopButton: AlarmButton, secondaryButton: AlarmButton? = nil,
                    secondaryButtonBehavior: SecondaryButtonBehavior? = nil) {
            self.title = title
            storedStopButton = stopButton
            self.secondaryButton = secondaryButton
            self.secondaryButtonBehavior = secondaryButtonBehavior
        }

        private enum CodingKeys: String, CodingKey {
            case title, storedStopButton = "stopButton", secondaryButton, secondaryButtonBehavior
        }

        /// What the secondary button does.
        public enum SecondaryButtonBehavior: String, Codable, Hashable, Sendable {
            /// Snoozes: the alarm counts down its `postAlert` duration, then rings again
            /// (`AlarmManager.countdown(id:)` does the same).
            case countdown
            /// Ends the alarm and performs the configuration's `secondaryIntent` ("Open app",
            /// "Next step"); the running app sees a `.secondary` event.
            case custom
        }
    }

    /// The live countdown before it rings.
    public struct Countdown: Codable, Hashable, Sendable {
        /// Its title (the agent shows `alert.title` today).
        public var title: LocalizedStringResource
        /// The pause button (the agent always offers Pause on a countdown today).
        public var pauseButton: AlarmButton?

        /// A countdown look titled `title`.
        public init(title: LocalizedStringResource, pauseButton: AlarmButton? = nil) {
            self.title = title
            self.pauseButton = pauseButton
        }
    }

    /// A paused countdown.
    public struct Paused: Codable, Hashable, Sendable {
        /// Its title (the agent shows `alert.title` today).
        public var title: LocalizedStringResource
        /// The resume button (the agent always offers Resume when paused today).
        public var resumeButton: AlarmButton

        /// A paused look titled `title`.
        public init(title: LocalizedStringResource, resumeButton: AlarmButton) {
            self.title = title
            self.resumeButton = resumeButton
        }
    }
}
