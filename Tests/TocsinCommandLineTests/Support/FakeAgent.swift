import Foundation
@testable import TocsinCommandLine
import TocsinCore
import TocsinKit

/// An agent held in memory: it answers with the alarms, status and applications a test gives it,
/// keeps what the commands asked of it (and the alarms they schedule, as the agent makes them),
/// and refuses with `refusal` when one is set.
final class FakeAgent: AgentClient {
    /// The alarms it holds.
    var held: [TocsinCore.Alarm]
    /// Its status dictionary.
    var reportedStatus: [String: WireValue]
    /// The applications it knows.
    var knownApplications: [ApplicationRecord]
    var activatable = false
    /// The error every call throws, when set (the agent refusing, or not answering).
    var refusal: TocsinError?

    /// What the commands asked, in order.
    private(set) var scheduled: [AlarmRequest] = []
    private(set) var performed: [(AlarmIntent, UUID)] = []
    private(set) var authorizations: [(AuthorizationState, String)] = []
    /// The id `schedule` gives the next alarm.
    var nextID = UUID(uuidString: "5eed0000-0000-4000-8000-000000000001")!
    /// The agent's clock and zone, with which it makes and keeps the alarms it is asked for.
    var now = t0
    var timeZone = TimeZoneRules.utc

    init(alarms: [TocsinCore.Alarm] = [], status: [String: WireValue] = [:], applications: [ApplicationRecord] = []) {
        held = alarms
        reportedStatus = status
        knownApplications = applications
    }

    func schedule(_ request: AlarmRequest) throws(TocsinError) -> UUID {
        if let refusal { throw refusal }
        scheduled.append(request)
        do {
            held.append(try request.makeAlarm(id: nextID, now: now, timeZone: timeZone))
        } catch {
            throw TocsinError(.invalidArgument, error.message)
        }
        return nextID
    }

    func perform(_ intent: AlarmIntent, on id: UUID) throws(TocsinError) {
        if let refusal { throw refusal }
        performed.append((intent, id))
    }

    func alarms() throws(TocsinError) -> [TocsinCore.Alarm] {
        if let refusal { throw refusal }
        return held
    }

    func alarm(_ id: UUID) throws(TocsinError) -> TocsinCore.Alarm {
        if let refusal { throw refusal }
        guard let alarm = held.first(where: { $0.id == id }) else { throw TocsinError(.notFound, "No alarm has the id \(id.uuidString.lowercased()).") }
        return alarm
    }

    func status() throws(TocsinError) -> [String: WireValue] {
        if let refusal { throw refusal }
        return reportedStatus
    }

    func applications() throws(TocsinError) -> [ApplicationRecord] {
        if let refusal { throw refusal }
        return knownApplications
    }

    func setAuthorization(_ state: AuthorizationState, for app: String) throws(TocsinError) {
        if let refusal { throw refusal }
        authorizations.append((state, app))
    }

    func agentIsActivatable() -> Bool { activatable }

    // Following changes needs a GLib main loop, which no unit test runs.
    func watch(_ handler: @escaping (TocsinKit.AlarmChange) -> Void) {}

    func watchAgentPresence(_ handler: @escaping (Bool) -> Void) {}
}
