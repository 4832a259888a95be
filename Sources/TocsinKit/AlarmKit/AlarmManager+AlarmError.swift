import Foundation
import TocsinCore

extension AlarmManager {
    /// Why scheduling or a call on an alarm failed — AlarmKit's `AlarmManager.AlarmError`.
    ///
    /// AlarmKit's one case, `.maximumLimitReached`, is here as AlarmKit has it, so
    /// `catch AlarmManager.AlarmError.maximumLimitReached` and `error == .maximumLimitReached`
    /// port as written. Everything else the agent refuses, or the agent being out of reach, is
    /// Tocsin's one case of its own, `.tocsin(Reason)`, with a sentence for a person:
    ///
    /// ```swift
    /// catch let error as AlarmManager.AlarmError {
    ///     switch error {
    ///     case .maximumLimitReached: showLimitAlert()
    ///     @unknown default: showError(error.localizedDescription)
    ///     }
    /// }
    /// ```
    ///
    /// (Swift 6 asks AlarmKit code for that `@unknown default` already: AlarmKit's enum may
    /// gain cases.)
    public enum AlarmError: Error, Hashable, Sendable, CustomStringConvertible, LocalizedError {
        /// The application holds as many alarms as it may (100 unless the agent was started with
        /// `--app-alarm-limit`), or the agent as many as it will: cancel some first.
        case maximumLimitReached
        /// Tocsin: any other reason, which AlarmKit reports in errors of its own.
        case tocsin(Reason)

        /// Why the agent refused, or could not be asked — every answer but the limit.
        public enum Reason: Hashable, Sendable, CustomStringConvertible {
            /// The user has not allowed this application to set alarms: they chose Don't Allow, or
            /// (`tocsin auth revoke`) took it back. `requestAuthorization()` says which.
            case notAuthorized(String)
            /// This application has no alarm with the id.
            case notFound(String)
            /// The alarm is not in a state that allows this: pausing a timer that is not counting
            /// down, stopping an alarm that is not ringing, snoozing one without a post-alert
            /// countdown.
            case invalidState(String)
            /// The configuration cannot be scheduled: a time that does not exist or has passed, a
            /// duration that is not a positive number of seconds, an id already in use…
            case invalidArgument(String)
            /// The metadata, encoded as JSON with the alarm's id, is `size` bytes; the agent keeps
            /// at most `limit` with an alarm.
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
                case .notAuthorized(let message), .notFound(let message), .invalidState(let message), .invalidArgument(let message),
                     .storageFailed(let message), .agentUnavailable(let message), .protocolError(let message):
                    message
                case .metadataTooLarge(let size, let limit):
                    "The alarm's metadata is \(size) bytes of JSON (with the alarm's id); the agent keeps at most \(limit) with an alarm."
                }
            }

            /// The sentence for a person.
            public var description: String { message }
        }

        /// The sentence for a person.
        public var message: String {
            switch self {
            case .maximumLimitReached:
                "This application holds as many alarms as it may; cancel some before scheduling more."
            case .tocsin(let reason):
                reason.message
            }
        }

        /// The sentence for a person.
        public var description: String { message }

        /// The sentence for a person, which `error.localizedDescription` gives.
        public var errorDescription: String? { message }

        /// The error for what the low-level client reported.
        init(_ error: TocsinError) {
            self = switch error.kind {
            case .refused(.limitReached): .maximumLimitReached
            case .refused(.notAuthorized): .tocsin(.notAuthorized(error.message))
            case .refused(.notFound): .tocsin(.notFound(error.message))
            case .refused(.invalidState): .tocsin(.invalidState(error.message))
            case .refused(.invalidArgument): .tocsin(.invalidArgument(error.message))
            case .refused(.storageFailed): .tocsin(.storageFailed(error.message))
            case .agentUnavailable: .tocsin(.agentUnavailable(error.message))
            case .protocolError: .tocsin(.protocolError(error.message))
            }
        }

        /// The error for what the agent answered to a `Schedule` carrying `metadata`: an
        /// `InvalidArgument` for a request whose metadata is over the agent's limit is about the
        /// metadata, whatever else the agent's sentence says.
        init(_ error: TocsinError, schedulingMetadata metadata: String?) {
            if error.name == .invalidArgument, let size = metadata?.utf8.count, size > AlarmRequest.maximumMetadataSize {
                self = .tocsin(.metadataTooLarge(size: size, limit: AlarmRequest.maximumMetadataSize))
            } else {
                self.init(error)
            }
        }
    }
}
