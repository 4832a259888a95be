import FoundationEssentials

// A ringing alarm on a locked screen: what the lock screen's surfaces show (`LockScreenContent`),
// and the display woken when a ring starts and kept lit while it rings.
extension AgentState {
    /// How often the display is woken again while alarms ring. GNOME ignores idle inhibitors once
    /// the screen is locked and blanks the lock screen 30 s after a wake (gsd-power lights it for
    /// 15 s per `WakeUpScreen`), so a wake every 10 s keeps it lit; elsewhere a wake is a cheap
    /// no-op for a display that is lit already.
    public static let displayWakeInterval: TimeInterval = 10

    /// What the lock screen should show now, when that is not what it was given: `.showLockScreen`,
    /// or nothing.
    mutating func followLockScreen() -> [AgentEffect] {
        let content = LockScreenContent(alarms: book.onScreen, settings: screen.lockScreenSettings, timeOfDay: contentWriter.timeOfDay)
        guard content != screen.lockScreen else { return [] }
        screen.lockScreen = content
        return [.showLockScreen(content)]
    }

    /// The display woken when an alarm starts ringing (a second alarm too: it is news) and held
    /// lit from the first ring to the last; the wake-ups that keep a locked screen lit are timed
    /// by `nextDisplayWake`. Follows the sounds playing, as the media player does.
    mutating func followDisplay(now: Date) -> [AgentEffect] {
        let ringing = Set(output.soundsPlaying.map(\.id))
        let started = !ringing.subtracting(screen.displayWokenFor).isEmpty
        let wasHeld = !screen.displayWokenFor.isEmpty
        screen.displayWokenFor = ringing
        var effects: [AgentEffect] = []
        if ringing.isEmpty {
            screen.nextDisplayWake = nil
            if wasHeld { effects.append(.holdDisplayAwake(false)) }
            return effects
        }
        if !wasHeld { effects.append(.holdDisplayAwake(true)) }
        if started {
            effects.append(.wakeDisplay)
            screen.nextDisplayWake = now.addingTimeInterval(Self.displayWakeInterval)
        }
        return effects
    }

    /// The display woken again when its time came while alarms ring.
    mutating func wakeDisplayAgain(now: Date) -> [AgentEffect] {
        // Read from the book: an alarm whose ring ended in this same decision is not silenced yet.
        guard let next = screen.nextDisplayWake, next <= now,
              screen.displayWokenFor.contains(where: { book[$0]?.state.name == .alerting }) else { return [] }
        screen.nextDisplayWake = now.addingTimeInterval(Self.displayWakeInterval)
        return [.wakeDisplay]
    }

    /// The user's settings for what a locked screen shows: titles in the lock screen's content
    /// and the media player (which follow at the end of the decision), and the notifications'
    /// permission to show theirs there (shown again).
    mutating func adopt(lockScreen settings: LockScreenSettings, now: Date, into plan: inout EffectPlan) {
        guard settings != screen.lockScreenSettings else { return }
        screen.lockScreenSettings = settings
        contentWriter.showsTitlesWhenLocked = settings.showsTitles
        let said: AgentEffect = settings.showsTitles
            ? .log(.info, "A locked screen shows alarms' titles.")
            : .log(.info, "A locked screen shows “Alarm” or “Timer” instead of alarms' titles.")
        plan.add(said, to: .sound)
        plan.add(showAgain(now: now) { _ in true }, to: .notification)
    }
}
