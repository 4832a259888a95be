import FoundationEssentials

/// The one place that decides what happens to alarms: given the state, an input and the time,
/// it changes the state and returns the effects, in the order the agent must carry them out.
/// Pure — no clock, no files, no D-Bus; `now` is an input like any other.
///
/// It is `(state, input, now) -> (state, [effect])`, written with `inout` so that a change to
/// one alarm of thousands does not copy the book.
///
/// The order of the effects is a rule of its own, kept here and tested:
/// - the answer to the report of a change's save first (or, for a change whose save was never
///   reported, its undoing), so that a client making many changes in a row need not wait for
///   each one's effects;
/// - then sound (ring or silence, after the log line of what happened), so nothing the agent
///   does next delays the ring or its end, and right after it the output raised for a sound that
///   starts, or put back after the last one stops (its record saved first), then the media
///   player that shows the ringing alarm, then the display woken for a ring that starts and held
///   lit while alarms ring;
/// - then the D-Bus signal, which clients time the transition by;
/// - then the notification, which waits for nobody (another thread shows it) but is not what
///   tells a client the state changed;
/// - then the follow-ups: a removed alarm's sound copy deleted, the do-not-disturb check of a
///   fired alarm, the notices, app intents, hooks, the phones rung, the display woken again;
/// - then what the lock screen shows, which follows the book as the decision left it;
/// - then, for what time changed, the save (an fsync must not delay the ring, and the change
///   happens whether or not it can be saved);
/// - then the timers for what comes next, and the tray;
/// - last, when someone asked for a change, its `.commit` — after what time did meanwhile, as if
///   the timer had woken the agent first — or the answer to a change refused. A change someone
///   asked for is saved before any of its effects, which come with the report of its save, so a
///   change that cannot be saved is refused, not lost.
///
/// The order is made, not mended: each part of a decision writes its effects into an
/// `EffectPlan`, which has one place per stage (`EffectPlan.Stage`). What follows the state —
/// the output, the player and the display for the sounds playing, the lock screen, the timers —
/// is worked out once, at the end, from the state as the decision left it (`AgentState.follow`).
/// `decide` returns the stages one after the other; nothing is moved once it is written.
public enum AlarmDecider {
    /// Decides what `input`, at `now`, does to `state`, and returns what the agent must do.
    public static func decide(_ state: inout AgentState, _ input: AgentInput, now: Date) -> [AgentEffect] {
        var plan = EffectPlan()
        let soundsBefore = state.output.soundsPlaying
        // The agent answers a commit before anything else; if it did not, the change it waits
        // for is undone rather than left half made.
        if state.pendingChange != nil, !input.reportsSave {
            state.abandonPendingChange(into: &plan)
        }
        switch input {
        case .started(let zone):
            state.start(in: zone, now: now, into: &plan)
        case .timePassed:
            state.passTime(to: now, into: &plan)
            plan.add(state.tray(at: CountdownClock.wholeSecond(atOrBefore: now)), to: .tray)
        case .asked(let change, let origin):
            // What was due happens first, as it would have had the timer woken the agent, and is
            // followed as any decision is; then the change is made, which waits for its save.
            state.passTime(to: now, into: &plan)
            plan.add(state.tray(at: CountdownClock.wholeSecond(atOrBefore: now)), to: .tray)
            state.follow(soundsBefore: soundsBefore, now: now, into: &plan)
            state.make(change, by: origin, now: now, into: &plan)
            return plan.effects
        case .changeSaved:
            state.changeSaved(now: now, into: &plan)
        case .changeNotSaved(let reason):
            state.changeNotSaved(reason: reason, into: &plan)
        case .notificationClosed(let id):
            state.notificationClosed(id, now: now, into: &plan)
        case .notificationLost(let id, let why):
            plan.add(state.notificationLost(id, why, now: now), to: .notification)
        case .timeZoneChanged(let zone):
            state.adopt(timeZone: zone, now: now, into: &plan)
        case .clockSet(let offset):
            state.clockWasSet(by: offset, now: now, into: &plan)
        case .notificationServerChanged:
            plan.add(state.showAgain(now: now) { _ in true }, to: .notification)
        case .soundProblemChanged(let problem):
            state.contentWriter.soundProblem = problem
            plan.add(state.showAgain(now: now) { $0.state.name == .alerting }, to: .notification)
        case .panelChanged(let isShown):
            state.screen.panelIsShown = isShown
            plan.add(state.tray(at: now), to: .tray)
            plan.armTimers()
        case .phoneSettingsChanged(let settings):
            state.adopt(phoneRings: settings, into: &plan)
        case .phonesRung(let alarm):
            plan.add(state.phonesRung(for: alarm), to: .followUps)
        case .soundOutputChanged(let report):
            state.adopt(soundOutput: report, now: now, into: &plan)
        case .outputRaiseSettingsChanged(let settings):
            state.adopt(outputRaise: settings, now: now, into: &plan)
        case .lockScreenSettingsChanged(let settings):
            state.adopt(lockScreen: settings, now: now, into: &plan)
        case .lockScreenKeepingPlayerChanged(let isUp):
            state.adopt(lockScreenKeepingPlayer: isUp, into: &plan)
        }
        state.follow(soundsBefore: soundsBefore, now: now, into: &plan)
        return plan.effects
    }
}

extension AgentInput {
    /// Whether this is the agent's report of a commit's save.
    var reportsSave: Bool {
        switch self {
        case .changeSaved, .changeNotSaved: true
        default: false
        }
    }
}
