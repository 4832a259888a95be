import TocsinCore

extension AlarmManager {
    /// Why the agent refused, or could not be asked — AlarmKit's `AlarmManager.AlarmError`, with
    /// one case per answer the agent can give. Each case carries one sentence for a person
    /// (`message`); match a case without its payload, as AlarmKit code does:
    ///
    /// ```swift
    /// catch AlarmManager.AlarmError.maximumLimitReached { … }
    /// ```
    public enum AlarmError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The application holds as many alarms as one may (100 unless the agent was started
        /// with `--app-alarm-limit`), or the agent as many as it will: cancel some first.
        case maximumLimitReached(String)
        /// The user has not allowed this application to set alarms: they chose Don't Allow, or
        /// (`tocsin auth revoke`) took it back. `requestAuthorization()` says which.
        case notAuthorized(String)
        /// This application has no alarm with the id.
        case notFound(String)
        /// The alarm is not in a state that allows this: pausing a timer that is not counting
        /// down, stopping an alarm that is not ringing, snoozing one without a post-alert
        /// countdown.
        case invalidState(String)
        /// The configuration cannot be scheduled: a time in the past, an unreadable sound file,
        /// a bad duration, a schedule the agent does not understand, an id already in use…
        case invalidArgument(String)
        /// The metadata, encoded as JSON with the alarm's id, is `size` bytes; the agent keeps at
        /// most `limit` with an alarm.
        case metadataTooLarge(size: Int, limit: Int)
        /// The agent could not save the change, so it did not make it (a full disk, an
        /// unwritable state directory).
        case storageFailed(String)
        /// The agent cannot be reached: no session bus, `tocsind` neither running nor
        /// installed for D-Bus activation, or not answering.
        case agentUnavailable(String)
        /// The agent answered something this version of TocsinKit does not understand.
        case protocolError(String)

        /// The sentence for a person.
        public var message: String {
            switch self {
            case .maximumLimitReached(let message), .notAuthorized(let message), .notFound(let message),
                 .invalidState(let message), .invalidArgument(let message), .storageFailed(let message),
                 .agentUnavailable(let message), .protocolError(let message):
                message
            case .metadataTooLarge(let size, let limit):
                "The alarm's metadata is \(size) bytes of JSON (with the alarm's id); the agent keeps at most \(limit) with an alarm."
            }
        }

        /// The sentence for a person.
        public var description: String { message }

        /// The error for what the low-level client reported.
        init(_ error: TocsinClientError) {
            self = switch error {
            case .limitReached(let message): .maximumLimitReached(message)
            case .notAuthorized(let message): .notAuthorized(message)
            case .notFound(let message): .notFound(message)
            case .invalidState(let message): .invalidState(message)
            case .invalidArgument(let message): .invalidArgument(message)
            case .storageFailed(let message): .storageFailed(message)
            case .agentUnavailable(let message): .agentUnavailable(message)
            case .protocolError(let message): .protocolError(message)
            }
        }

        /// The error for what the agent answered to a `Schedule` carrying `metadata`: an
        /// `InvalidArgument` for a request whose metadata is over the agent's limit is about the
        /// metadata, whatever else the agent's sentence says.
        init(_ error: TocsinClientError, schedulingMetadata metadata: String?) {
            if case .invalidArgument = error, let size = metadata?.utf8.count, size > AlarmRequest.maximumMetadataSize {
                self = .metadataTooLarge(size: size, limit: AlarmRequest.maximumMetadataSize)
            } else {
                self.init(error)
            }
        }
    }
}
