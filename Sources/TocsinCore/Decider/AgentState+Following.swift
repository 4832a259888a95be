import FoundationEssentials

// What follows the state as a decision left it, worked out once, at the end, from the state
// rather than from the effects written so far: the output, the media player and the display,
// which follow the sounds playing; what the lock screen shows; the timers. Each goes to its own
// stage of the plan, so it comes out where `AlarmDecider`'s order puts it.
extension AgentState {
    /// Follows the state as the decision left it. `soundsBefore` is what played when the
    /// decision began: the output is reconsidered only when this decision started or stopped a
    /// sound (its settings and the sound server's news reconsider it themselves).
    ///
    /// Never while a change waits for its save: the book holds that change already, but nothing
    /// of it has happened yet, and it is undone if it cannot be saved. `.asked` follows what time
    /// did before the change is made; every other input finds no change waiting (it was saved,
    /// or undone).
    mutating func follow(soundsBefore: [PlayingSound], now: Date, into plan: inout EffectPlan) {
        if output.soundsPlaying != soundsBefore { followOutput(now: now, into: &plan) }
        plan.add(followPlayer(now: now), to: .player)
        let displayWake = screen.nextDisplayWake
        plan.add(followDisplay(now: now), to: .display)
        plan.add(followLockScreen(), to: .lockScreen)
        // Armed from the state as it is now, once. A ring's start or end moves the display's next
        // wake, which the deadline waits for too.
        if plan.armsTimers || screen.nextDisplayWake != displayWake {
            plan.add(arm(now: now), to: .timers)
        }
    }
}
