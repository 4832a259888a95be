import Foundation
import TocsinCore
import TocsinKit

/// The agent as the commands talk to it: the calls of TocsinKit's `TocsinClient` they make. A
/// protocol so the unit tests can give a command an agent of their own (`CommandContext.connect`).
protocol AgentClient: AnyObject {
    /// Schedules what `request` describes; returns the new alarm's id.
    func schedule(_ request: AlarmRequest) throws(TocsinError) -> UUID
    /// Performs `intent` (stop, snooze, pause…) on the alarm `id`.
    func perform(_ intent: AlarmIntent, on id: UUID) throws(TocsinError)
    /// Every alarm and timer.
    func alarms() throws(TocsinError) -> [Alarm]
    /// The alarm `id`.
    func alarm(_ id: UUID) throws(TocsinError) -> Alarm
    /// The agent's status dictionary (`AlarmWireFormat.StatusKey`).
    func status() throws(TocsinError) -> [String: WireValue]
    /// The applications that asked to set alarms.
    func applications() throws(TocsinError) -> [ApplicationRecord]
    /// Records the user's answer for `app`.
    func setAuthorization(_ state: AuthorizationState, for app: String) throws(TocsinError)
    /// Whether the session bus can start the agent on demand.
    func agentIsActivatable() -> Bool
    /// Calls `handler` on the main loop for every change the agent announces (TocsinKit's
    /// `AlarmChange`: TocsinCore has one of that name too, the decider's).
    func watch(_ handler: @escaping (TocsinKit.AlarmChange) -> Void)
    /// Calls `handler` when the agent appears (`true`) or goes away (`false`), and once at once.
    func watchAgentPresence(_ handler: @escaping (Bool) -> Void)
}

extension TocsinClient: AgentClient {}
