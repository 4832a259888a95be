import FoundationEssentials

/// The one place that decides what happens to alarms: given the state, an input and the time,
/// it changes the state and returns the effects, in the order the agent must carry them out.
/// Pure — no clock, no files, no D-Bus; `now` is an input like any other.
///
/// It is `(state, input, now) -> (state, [effect])`, written with `inout` so that a change to
/// one alarm of thousands does not copy the book.
///
/// The order of the effects is a rule of its own, kept here and tested:
/// - sound first (ring or silence), so nothing the agent does next delays the ring or its end,
///   and right after it the output raised for a sound that starts, or put back after the last
///   one stops (its record saved first), then the media player that shows the ringing alarm;
/// - then the D-Bus signal, which clients time the transition by;
/// - then the notification, which waits for nobody (another thread shows it) but is not what
///   tells a client the state changed;
/// - then the follow-ups: the do-not-disturb check of a fired alarm, the notices, app intents,
///   hooks;
/// - then, for what time changed, the save (an fsync must not delay the ring, and the change
///   happens whether or not it can be saved); a change someone asked for is saved before any of
///   its effects instead (`.commit`), so a change that cannot be saved is refused, not lost;
/// - then what the lock screen shows, which follows the book as the decision left it;
/// - last, the timers for what comes next, and the tray.
public enum AlarmDecider {
    /// Decides what `input`, at `now`, does to `state`, and returns what the agent must do.
    public static func decide(_ state: inout AgentState, _ input: AgentInput, now: Date) -> [AgentEffect] {
        var effects: [AgentEffect] = []
        // The agent answers a commit before anything else; if it did not, the change it waits
        // for is undone rather than left half made.
        if state.pendingChange != nil, !input.reportsSave {
            effects += state.abandonPendingChange()
        }
        switch input {
        case .started(let zone):
            effects += state.start(in: zone, now: now)
        case .timePassed:
            effects += state.passTime(to: now)
            effects += state.tray(at: CountdownClock.wholeSecond(atOrBefore: now))
        case .asked(let change, let origin):
            // What was due happens first, as it would have had the timer woken the agent.
            effects += state.passTime(to: now)
            effects += state.tray(at: CountdownClock.wholeSecond(atOrBefore: now))
            effects += state.make(change, by: origin, now: now)
        case .changeSaved:
            effects += state.changeSaved(now: now)
        case .changeNotSaved(let reason):
            effects += state.changeNotSaved(reason: reason)
        case .notificationClosed(let id):
            effects += state.notificationClosed(id, now: now)
        case .notificationLost(let id, let why):
            effects += state.notificationLost(id, why, now: now)
        case .timeZoneChanged(let zone):
            effects += state.adopt(timeZone: zone, now: now)
        case .clockSet(let offset):
            effects += state.clockWasSet(by: offset, now: now)
        case .notificationServerChanged:
            effects += state.showAgain(now: now) { _ in true }
        case .soundProblemChanged(let problem):
            state.contentWriter.soundProblem = problem
            effects += state.showAgain(now: now) { $0.state.name == .alerting }
        case .panelChanged(let isShown):
            state.screen.panelIsShown = isShown
            effects += state.tray(at: now)
            effects += state.arm(now: now)
        case .phoneSettingsChanged(let settings):
            effects += state.adopt(phoneRings: settings, now: now)
        case .phonesRung(let alarm):
            effects += state.phonesRung(for: alarm)
        case .soundOutputChanged(let report):
            effects += state.adopt(soundOutput: report, now: now)
        case .outputRaiseSettingsChanged(let settings):
            effects += state.adopt(outputRaise: settings, now: now)
        case .lockScreenSettingsChanged(let settings):
            effects += state.adopt(lockScreen: settings, now: now)
        case .lockScreenKeepingPlayerChanged(let isUp):
            effects += state.adopt(lockScreenKeepingPlayer: isUp, now: now)
        }
        let displayWake = state.screen.nextDisplayWake
        effects = state.guardingOutput(effects, now: now)
        // A ring's start or end, seen only now, moved the display's next wake: the deadline
        // armed before it is armed again, in its place.
        if state.screen.nextDisplayWake != displayWake {
            let deadline = state.arm(now: now)[0]
            if let armed = effects.lastIndex(where: { if case .armDeadline = $0 { true } else { false } }) {
                effects[armed] = deadline
            } else {
                effects.append(deadline)
            }
        }
        // What the lock screen shows follows the book as this decision left it (and so does the
        // media player waiting there between rings); it goes out before the save of time's
        // changes, the timers and the tray, which stay last.
        let lockScreen = state.followLockScreen() + state.followPlayer(now: now)
        guard !lockScreen.isEmpty else { return effects }
        let timers = effects.lastIndex { !$0.endsADecision }.map { $0 + 1 } ?? 0
        effects.insert(contentsOf: lockScreen, at: timers)
        return effects
    }
}

extension AgentEffect {
    /// Whether this saves what time changed, arms a timer or shows the tray: the effects that end
    /// a decision.
    var endsADecision: Bool {
        switch self {
        case .save, .saveAll, .armDeadline, .armWake, .showTray: true
        default: false
        }
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
