import FoundationEssentials

// The alarms' sounds: each ring and silence written to the plan's sound stage, and the record of
// what plays (`Output.soundsPlaying`) kept with it, at once — so that what follows the sounds at
// the end of the decision (the output, the media player, the display: `follow`) reads the state,
// not the effects.
extension AgentState {
    /// Starts `alarm`'s sound as `ring` says. A sound started again while it plays keeps its
    /// place; those a restart starts again, in the book's order, are put in the order their
    /// alarms started ringing, which the output's level goes by.
    mutating func startSound(of alarm: Alarm, _ ring: AlarmRing, into plan: inout EffectPlan) {
        plan.add(.ring(alarm.id, ring), to: .sound)
        guard !output.soundsPlaying.contains(where: { $0.id == alarm.id }) else { return }
        let sound = PlayingSound(id: alarm.id, since: ring.since, choice: alarm.outputRaise)
        let place = output.soundsPlaying.lastIndex { $0.since <= sound.since }.map { $0 + 1 } ?? 0
        output.soundsPlaying.insert(sound, at: place)
    }

    /// Stops alarm `id`'s sound (said even when none plays: the agent's ringer is told, whatever
    /// it holds).
    mutating func stopSound(of id: UUID, into plan: inout EffectPlan) {
        plan.add(.silence(id), to: .sound)
        output.soundsPlaying.removeAll { $0.id == id }
    }
}
