import CGLib
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
        let signal: AlarmsSignal = event.removesAlarm ? .removed : .changed
        audience.announce(signal, arguments: Variant.tuple([
            g_variant_new_string(event.kind.rawValue),
            Variant.make(dictionary: AlarmWireFormat.encode(event.alarm)),
        ]), concerning: event.alarm.owner)
    }

    func announceAuthorization(_ state: AuthorizationState, of app: String) {
        audience.announce(.authorizationChanged, arguments: Variant.tuple([g_variant_new_string(app), g_variant_new_string(state.rawValue)]), concerning: app)
    }

    func watch(from sender: String) { audience.add(sender) }
    func forget(_ sender: String) { audience.remove(sender) }
    func open() { audience.open() }
    var watcherCount: Int { audience.count }
}
