import TocsinCore

extension AlarmManager {
    /// Whether the user allowed this application to set alarms that ring through do-not-disturb
    /// — AlarmKit's `AlarmManager.AuthorizationState`.
    public enum AuthorizationState: String, Codable, Hashable, Sendable {
        /// Not asked yet: `requestAuthorization()` (or the first schedule) asks.
        case notDetermined
        /// The user chose Don't Allow; scheduling fails with `AlarmError.notAuthorized`. Only the
        /// user can change it (`tocsin auth grant <app id>`).
        case denied
        /// The user chose Allow.
        case authorized

        init(_ state: TocsinCore.AuthorizationState) {
            self = switch state {
            case .notDetermined: .notDetermined
            case .denied: .denied
            case .authorized: .authorized
            }
        }
    }

    /// The application's authorization now, without asking the user; `.notDetermined` too when
    /// the agent cannot be reached (nothing could ring then anyway).
    public var authorizationState: AuthorizationState {
        (try? agent.call { client throws(TocsinError) in try client.authorization() }).map(AuthorizationState.init) ?? .notDetermined
    }

    /// Asks the user, unless they already answered, whether this application may set alarms:
    /// the agent shows a notification with Allow and Don't Allow. Returns their answer —
    /// `.notDetermined` when they closed it without answering or did not answer within five
    /// minutes — or at once the answer they gave before.
    ///
    /// Runs on a thread of its own while it waits. Cancelling the task does not withdraw the
    /// question.
    /// - Throws: `AlarmError.agentUnavailable` when the agent cannot be reached.
    public func requestAuthorization() async throws -> AuthorizationState {
        AuthorizationState(try await agent.callOffThread { client throws(TocsinError) in try client.requestAuthorization() })
    }

    /// The application's authorization state, the current one first, then each change (the user
    /// answering, or `tocsin auth grant/revoke/reset`) — AlarmKit's `authorizationUpdates`.
    public var authorizationUpdates: AlarmAuthorizationStateUpdates {
        startListening()
        return AlarmAuthorizationStateUpdates(states: watcher.authorizations.subscribe())
    }
}
