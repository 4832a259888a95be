import GLibSupport
import TocsinCore

/// The agent's D-Bus signals: each event and authorization change encoded for the wire and
/// handed to `SignalAudience`, which sends it to the watchers that may see it.
final class AudienceSignals: AgentSignals {
    private let audience: SignalAudience

    /// Signals delivered through `audience`.
    init(audience: SignalAudience) {
        self.audience = audience
    }

    func announce(_ event: AlarmEvent) {
        let typed = event.removesAlarm ? AlarmsInterface.removed : AlarmsInterface.changed
        audience.announce(typed.signal, arguments: Variant.tuple(of: typed.arguments.encode((event.kind, event.alarm))), concerning: event.alarm.owner)
    }

    func announceAuthorization(_ state: AuthorizationState, of app: String) {
        let typed = AlarmsInterface.authorizationChanged
        audience.announce(typed.signal, arguments: Variant.tuple(of: typed.arguments.encode((app, state))), concerning: app)
    }

    func watch(from sender: String) { audience.add(sender) }
    func forget(_ sender: String) { audience.remove(sender) }
    func open() { audience.open() }
    var watcherCount: Int { audience.count }
}
