import FoundationEssentials

// Tocsin's media player while alarms ring (`RingingPlayerContent`): there from the moment the
// first alarm starts ringing, changed when the alarm it shows is answered and another still
// rings, gone after the last. Its controls come back as presses of the alarm's buttons.
extension AgentState {
    /// What the player should show now that the sounds playing are what they are, when that is not
    /// what it shows: `.showPlayer`, or nothing.
    ///
    /// Left as it is while a change waits for its save: the book holds the change already (a
    /// stopped alarm is gone from it) but nothing of it has happened yet, and a change that cannot
    /// be saved is undone. The decision that reports the save catches up.
    mutating func followPlayer() -> [AgentEffect] {
        guard pendingChange == nil else { return [] }
        let content = RingingPlayerContent(alarms: output.soundsPlaying.compactMap { book[$0.id] }, settings: screen.lockScreenSettings)
        guard content != screen.player else { return [] }
        screen.player = content
        return [.showPlayer(content)]
    }
}
