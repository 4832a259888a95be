import Foundation
import TocsinCore

/// Lives on the watcher's main-loop thread: receives the agent's signals for one application and
/// turns them into alarm snapshots, events and authorization states for the `Broadcast`s.
///
/// The snapshot is the agent's list, read when the agent (re)appears on the bus, kept up to date
/// by each `Changed`/`Removed` signal — so every change yields exactly one snapshot, in the order
/// the agent announced them. The agent sends this connection only its application's alarms
/// (`Watch`); the filter here also keeps out the user's own when the process is the command line.
final class AgentSignalReceiver {
    /// Where the receiver sends what it learns.
    struct Outputs: Sendable {
        let snapshots: Broadcast<[AlarmManager.Alarm]>
        let events: Broadcast<AlarmManager.AlarmEvent>
        let authorizations: Broadcast<AlarmManager.AuthorizationState>
        /// The presses of the application's intent buttons the agent handed over.
        let presses: Broadcast<IntentPress>
        /// The agent's requests to bring the application to the front.
        let activations: Broadcast<AlarmManager.ActivationRequest>
    }

    private let appID: String
    private let outputs: Outputs
    private var client: TocsinClient?
    private var presence: AgentPresenceWatch?
    private var authorizationSubscription: AuthorizationSignalSubscription?
    private var applicationExport: ApplicationExport?
    /// The application's alarms, oldest first, as last announced.
    private var alarms: [TocsinCore.Alarm] = []
    /// Whether the agent's list has been read since this receiver started.
    private var hasListed = false

    init(appID: String, outputs: Outputs) {
        self.appID = appID
        self.outputs = outputs
    }

    /// Subscribes on the calling thread's thread-default main context. Without a session bus
    /// nothing is ever received, and the update sequences stay silent.
    func start() {
        guard let client = try? TocsinClient() else { return }
        self.client = client
        applicationExport = ApplicationExport(appID: appID, handlers: .init(
            press: { [outputs] press in outputs.presses.send(press) },
            activate: { [outputs] in outputs.activations.send(AlarmManager.ActivationRequest(receivedAt: Date())) }))
        client.watch { [weak self] change in self?.receive(change) }
        authorizationSubscription = AuthorizationSignalSubscription { [weak self] app, state in
            guard let self, app == appID else { return }
            outputs.authorizations.send(AlarmManager.AuthorizationState(state))
        }
        // Subscribed first, listed second: a change in between arrives as a signal afterwards.
        presence = AgentPresenceWatch { [weak self] present in
            if present { self?.reload() }
        }
    }

    /// Reads the application's alarms and authorization again, after the agent (re)appeared: it
    /// may have changed while nobody listened, and it forgot who this connection speaks for.
    private func reload() {
        guard let client else { return }
        do throws(TocsinError) {
            try client.identifyApplication(appID)
            // Registered before listing, so no change falls between the list and the signals.
            try client.registerAsWatcher()
            offerToReceiveIntents()
            alarms = try client.alarms().filter { $0.owner == appID }
            hasListed = true
            outputs.snapshots.send(alarms.map(AlarmTranslation.kitAlarm))
            outputs.authorizations.send(AlarmManager.AuthorizationState(try client.authorization()))
        } catch {
            // The agent went away again or refused: its next appearance reloads.
        }
    }

    /// Tells the agent this process takes the application's intents, once it can be reached (a
    /// joined GApplication once it is registered). An agent older than `ReceiveIntents`
    /// (interface version 5) cannot hand presses over, and refuses the call.
    private func offerToReceiveIntents() {
        guard let applicationExport, let client else { return }
        guard applicationExport.isReachable else {
            // On the GApplication's main context: a client of its own, as a client keeps to one thread.
            applicationExport.whenRegistered { [appID] in
                guard let late = try? TocsinClient() else { return }
                try? late.identifyApplication(appID)
                try? late.receiveIntents()
            }
            return
        }
        try? client.receiveIntents()
    }

    /// Reads the application's alarms again and sends them if they differ from the last
    /// snapshot, once the agent has been seen (before that, its first appearance sends the
    /// list). A signal still on its way is applied after it as any other, and the agent's last
    /// signal for an alarm carries the state the list shows.
    func refresh() {
        guard let client, hasListed else { return }
        guard let listed = try? client.alarms().filter({ $0.owner == appID }) else { return }
        alarms = listed
        outputs.snapshots.send(alarms.map(AlarmTranslation.kitAlarm))
    }

    private func receive(_ change: AlarmChange) {
        guard change.alarm.owner == appID else { return }
        if change.isRemoval {
            alarms.removeAll { $0.id == change.alarm.id }
        } else if let index = alarms.firstIndex(where: { $0.id == change.alarm.id }) {
            alarms[index] = change.alarm
        } else {
            alarms.append(change.alarm)
            alarms.sort { $0.createdAt < $1.createdAt }
        }
        if let event = AlarmManager.AlarmEvent(change) {
            outputs.events.send(event)
        }
        outputs.snapshots.send(alarms.map(AlarmTranslation.kitAlarm))
    }
}
