import FoundationEssentials

// What each thing that happened to an alarm means for the user: sound, signal, notification,
// notices, app intents and hooks, in `AlarmDecider`'s order.
extension AgentState {
    /// The effects of `events`, which happened at `now` — through a call of the application or
    /// command line `caller` (its `Alarm.owner` id), or, with `nil`, a button or time.
    mutating func react(to events: [AlarmEvent], now: Date, causedBy caller: String? = nil) -> [AgentEffect] {
        var effects: [AgentEffect] = []
        for event in events { effects += react(to: event, now: now, causedBy: caller) }
        return effects
    }

    /// A press of a button that carries an app intent has the application perform it, unless
    /// the application made the change itself: an app's own `stop(id:)` is not a press of Stop,
    /// and an intent that stops its alarm (as AlarmKit's do) must not be performed again by it.
    private mutating func react(to event: AlarmEvent, now: Date, causedBy caller: String?) -> [AgentEffect] {
        let alarm = event.alarm
        var effects: [AgentEffect] = [.log(.info, "“\(alarm.title)” (\(alarm.id.uuidString.lowercased())): \(event.kind.rawValue).")]
        switch event.kind {
        case .fired:
            effects.append(.ring(alarm.id, AlarmRing(of: alarm, now: now)))
            if let due = phones.settings.phoneRingDate(for: alarm.phone, ringingSince: now) { phones.due[alarm.id] = due }
        case .snoozed, .stopped, .cancelled, .secondary, .unacknowledged, .missed:
            effects.append(.silence(alarm.id))
            if phones.due.removeValue(forKey: alarm.id) != nil {
                effects.append(.log(.info, "“\(alarm.title)” was answered before the phones were rung; they are not."))
            }
        case .scheduled, .preAlert, .rescheduled, .paused, .resumed:
            break
        }
        effects.append(.signal(event))
        // A change of state shows the countdown again, even one the user had closed.
        screen.dismissedCountdowns.remove(alarm.id)
        if event.removesAlarm {
            screen.shownSeconds[alarm.id] = nil
            effects.append(.withdraw(alarm.id))
            effects.append(.discardSoundCopy(alarm.sound))
        } else {
            effects += present(alarm, now: now)
        }
        switch event.kind {
        case .fired:
            effects.append(.checkAlertVisibility(alarm))
        case .unacknowledged:
            effects.append(.announce(contentWriter.unacknowledgedNotice(for: alarm)))
        case .missed:
            let due = event.dueDate ?? now
            effects.append(.log(.warning, "“\(alarm.title)” was missed: it was due at \(contentWriter.timeOfDay(due)) and the agent could not ring it within its late limit."))
            effects.append(.announce(contentWriter.missedNotice(for: alarm, dueAt: due)))
        default:
            break
        }
        if let button = AppIntentButtons.button(pressedBy: event.kind), let mode = alarm.appIntents?.modes[button], caller != alarm.owner {
            effects.append(.performAppIntent(alarm: alarm, button: button, mode: mode))
        }
        if let hookEvent = event.kind.hookEvent, let command = alarm.hooks[hookEvent] {
            if alarm.mayRunHooks {
                effects.append(.runHook(command: command, event: hookEvent, alarm: alarm, fireTime: event.dueDate ?? alarm.fireDate))
            } else {
                let origin = alarm.appConfinement.map { "runs in a \($0.phrase)" } ?? "scheduled it before Tocsin recorded whether it runs in a sandbox"
                effects.append(.log(.warning, "Not running the \(hookEvent.rawValue) hook of “\(alarm.title)”: \(alarm.owner) \(origin), and Tocsin runs no command that could leave one."))
            }
        }
        return effects
    }
}
