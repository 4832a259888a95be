import FoundationEssentials

// What each thing that happened to an alarm means for the user: sound, signal, notification,
// notices, app intents and hooks, each written to its stage of `AlarmDecider`'s order.
extension AgentState {
    /// The effects of `events`, which happened at `now` — through a call of the application or
    /// command line `caller` (its `Alarm.owner` id), or, with `nil`, a button or time.
    mutating func react(to events: [AlarmEvent], now: Date, causedBy caller: String? = nil, into plan: inout EffectPlan) {
        for event in events { react(to: event, now: now, causedBy: caller, into: &plan) }
    }

    /// A press of a button that carries an app intent has the application perform it, unless
    /// the application made the change itself: an app's own `stop(id:)` is not a press of Stop,
    /// and an intent that stops its alarm (as AlarmKit's do) must not be performed again by it.
    private mutating func react(to event: AlarmEvent, now: Date, causedBy caller: String?, into plan: inout EffectPlan) {
        let alarm = event.alarm
        plan.add(.log(.info, "“\(alarm.title)” (\(alarm.id.uuidString.lowercased())): \(event.kind.rawValue)."), to: .sound)
        switch event.kind {
        case .fired:
            startSound(of: alarm, AlarmRing(of: alarm, now: now), into: &plan)
            if let due = phones.settings.phoneRingDate(for: alarm.phone, ringingSince: now) { phones.due[alarm.id] = due }
        case .snoozed, .stopped, .cancelled, .secondary, .unacknowledged, .missed:
            stopSound(of: alarm.id, into: &plan)
            if phones.due.removeValue(forKey: alarm.id) != nil {
                plan.add(.log(.info, "“\(alarm.title)” was answered before the phones were rung; they are not."), to: .followUps)
            }
        case .scheduled, .preAlert, .rescheduled, .paused, .resumed:
            break
        }
        plan.add(.signal(event), to: .signal)
        // A change of state shows the countdown again, even one the user had closed.
        screen.dismissedCountdowns.remove(alarm.id)
        if event.removesAlarm {
            screen.shownSeconds[alarm.id] = nil
            plan.add(.withdraw(alarm.id), to: .notification)
            // A follow-up, after the silence: nothing plays the file any more.
            plan.add(.discardSoundCopy(alarm.sound), to: .followUps)
        } else {
            plan.add(present(alarm, now: now), to: .notification)
        }
        switch event.kind {
        case .fired:
            plan.add(.checkAlertVisibility(alarm), to: .followUps)
        case .unacknowledged:
            plan.add(.announce(contentWriter.unacknowledgedNotice(for: alarm)), to: .followUps)
        case .missed:
            let due = event.dueDate ?? now
            plan.add(.log(.warning, "“\(alarm.title)” was missed: it was due at \(contentWriter.timeOfDay(due)) and the agent could not ring it within its late limit."), to: .followUps)
            plan.add(.announce(contentWriter.missedNotice(for: alarm, dueAt: due)), to: .followUps)
        default:
            break
        }
        if let button = AppIntentButtons.button(pressedBy: event.kind), let mode = alarm.appIntents?.modes[button], caller != alarm.owner {
            plan.add(.performAppIntent(alarm: alarm, button: button, mode: mode), to: .followUps)
        }
        if let hookEvent = event.kind.hookEvent, let command = alarm.hooks[hookEvent] {
            if alarm.mayRunHooks {
                plan.add(.runHook(command: command, event: hookEvent, alarm: alarm, fireTime: event.dueDate ?? alarm.fireDate), to: .followUps)
            } else {
                let origin = alarm.appConfinement.map { "runs in a \($0.phrase)" } ?? "scheduled it before Tocsin recorded whether it runs in a sandbox"
                plan.add(.log(.warning, "Not running the \(hookEvent.rawValue) hook of “\(alarm.title)”: \(alarm.owner) \(origin), and Tocsin runs no command that could leave one."), to: .followUps)
            }
        }
    }
}
