import Synchronization

/// Feeds `AlarmManager`'s update sequences: starts, the first time one is asked for, a
/// background main loop that receives the agent's signals, and ends it with the manager.
final class AgentWatcher: Sendable {
    /// The application's alarms after every change, oldest first.
    let snapshots = Broadcast<[AlarmManager.Alarm]>(replaysLatest: true)
    /// Every change of one of the application's alarms.
    let events = Broadcast<AlarmManager.AlarmEvent>(replaysLatest: false)
    /// The application's authorization state, when it changes.
    let authorizations = Broadcast<AlarmManager.AuthorizationState>(replaysLatest: true)
    /// The presses of the application's intent buttons the agent handed this process.
    let presses = Broadcast<IntentPress>(replaysLatest: false)
    /// The agent's requests to bring the application to the front.
    let activations = Broadcast<AlarmManager.ActivationRequest>(replaysLatest: false)

    private let appID: String
    private let phase = Mutex(Phase.idle)

    private enum Phase {
        case idle
        case running(BackgroundMainLoop)
        case stopped
    }

    init(appID: String) {
        self.appID = appID
    }

    /// Starts receiving, unless already started or stopped.
    func startIfNeeded() {
        phase.withLock { phase in
            guard case .idle = phase else { return }
            let outputs = AgentSignalReceiver.Outputs(snapshots: snapshots, events: events, authorizations: authorizations,
                                                      presses: presses, activations: activations)
            phase = .running(BackgroundMainLoop(name: "TocsinKit signals") { [appID] in
                let receiver = AgentSignalReceiver(appID: appID, outputs: outputs)
                receiver.start()
                return receiver
            })
        }
    }

    /// Brings the snapshots up to date with the agent before a new subscriber gets the latest
    /// one: the agent answers Schedule before it announces the alarm, and holds its signals for
    /// a moment after it starts, so the last announced list may lag behind what this process's
    /// own calls already did. Returns at once when not receiving.
    func catchUp() {
        let running = phase.withLock { phase -> BackgroundMainLoop? in
            if case .running(let loop) = phase { return loop } else { return nil }
        }
        running?.perform { receiver in (receiver as? AgentSignalReceiver)?.refresh() }
    }

    /// Stops receiving for good, lets go of the bus connection, and ends every update sequence.
    func stop() {
        let running = phase.withLock { phase -> BackgroundMainLoop? in
            defer { phase = .stopped }
            if case .running(let loop) = phase { return loop } else { return nil }
        }
        running?.stop()
        snapshots.finish()
        events.finish()
        authorizations.finish()
        presses.finish()
        activations.finish()
    }
}
