import FoundationEssentials

/// The effects of one decision as they are written: one place per stage of `AlarmDecider`'s
/// order, so that each handler writes what it decides where it belongs, in any order, and the
/// decision comes out in order by construction — nothing is moved, inserted or replaced after
/// it is written. Within a stage, effects keep the order they were written in.
struct EffectPlan {
    /// The stages of a decision, in the order their effects go out (`AlarmDecider` says why).
    enum Stage: Int, CaseIterable {
        /// The report of a change's save answered (or a change left unreported undone): before
        /// anything else, so that a client making many changes in a row need not wait for each
        /// one's effects.
        case answer
        /// What happened, said in the log, and the sounds it starts or stops.
        case sound
        /// The output raised for a sound that started, or put back after the last one stopped.
        case output
        /// Tocsin's media player.
        case player
        /// The display woken for a ring that started, held lit while alarms ring, let go after.
        case display
        /// The D-Bus signals.
        case signal
        /// The notifications shown, updated or taken away.
        case notification
        /// The follow-ups: a sound copy deleted, the do-not-disturb check of a fired alarm, the
        /// notices, app intents, hooks, the phones rung, the display woken again.
        case followUps
        /// What the lock screen's surfaces show.
        case lockScreen
        /// The save of what time changed (`.save`, `.saveAll`).
        case save
        /// The timers for what comes next.
        case timers
        /// The tray.
        case tray
        /// The change someone asked for: its `.commit`, or the answer to one refused or with
        /// nothing to do. Last: time's own effects come before it, as if the timer had woken the
        /// agent, and the change's own wait for its save.
        case change
    }

    private var stages = Array(repeating: [AgentEffect](), count: Stage.allCases.count)

    /// Whether the timers are armed at the end of the decision.
    private(set) var armsTimers = false

    /// Writes `effect` at the end of `stage`.
    mutating func add(_ effect: AgentEffect, to stage: Stage) {
        stages[stage.rawValue].append(effect)
    }

    /// Writes `effects` at the end of `stage`, in their order.
    mutating func add(_ effects: [AgentEffect], to stage: Stage) {
        stages[stage.rawValue] += effects
    }

    /// Asks for the timers to be armed at the end of the decision, for the state as it leaves
    /// it (`AgentState.follow`): however many parts of a decision ask, they are armed once.
    mutating func armTimers() {
        armsTimers = true
    }

    /// Every effect, stage after stage: what `AlarmDecider.decide` returns.
    var effects: [AgentEffect] {
        Array(stages.joined())
    }
}
