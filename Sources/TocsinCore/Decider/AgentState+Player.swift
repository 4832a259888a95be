import FoundationEssentials

// Tocsin's media player while alarms ring (`RingingPlayerContent`): there from the moment the
// first alarm starts ringing, changed when the alarm it shows is answered and another still
// rings, gone after the last. Its controls come back as presses of the alarm's buttons.
//
// Plasma 5.27's greeter shows no player that comes after the last one has left the bus (tried
// with two test players: the second, alone, was never drawn; with a third player staying, both
// were). While that lock screen is up, the player therefore stays between rings, waiting with the
// alarm that rings next, so that a snoozed alarm or the next morning's shows when it rings.
extension AgentState {
    /// What the player should show now that the sounds playing and the book are what they are,
    /// when that is not what it shows: `.showPlayer`, or nothing.
    mutating func followPlayer(now: Date) -> [AgentEffect] {
        var content = RingingPlayerContent(alarms: output.soundsPlaying.compactMap { book[$0.id] }, settings: screen.lockScreenSettings)
        if content == nil, screen.lockScreenKeepsPlayer {
            content = RingingPlayerContent(waitingFor: book, now: now, settings: screen.lockScreenSettings,
                                           timeOfDay: contentWriter.timeOfDay, day: contentWriter.dayOfMonth)
        }
        guard content != screen.player else { return [] }
        screen.player = content
        return [.showPlayer(content)]
    }

    /// Whether a lock screen that must keep seeing the player is up (the player itself follows at
    /// the end of the decision, as after any other).
    mutating func adopt(lockScreenKeepingPlayer isUp: Bool, into plan: inout EffectPlan) {
        guard isUp != screen.lockScreenKeepsPlayer else { return }
        screen.lockScreenKeepsPlayer = isUp
        let said: AgentEffect = isUp
            ? .log(.info, "Plasma's lock screen is up (or coming up): Tocsin's media player stays there between rings, with the next alarm.")
            : .log(.info, "Plasma's lock screen is gone: Tocsin's media player shows only while an alarm rings.")
        plan.add(said, to: .sound)
    }
}
