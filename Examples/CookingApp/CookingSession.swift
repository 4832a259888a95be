import Foundation
import TocsinKit

/// Cooks the recipe from its first step to its last: asks for consent, starts step 1, narrates
/// what the agent announces about this session's timers, and ends when a step is stopped.
///
/// Steps 2 and 3 are started by the "Next step" intent (`NextStepIntent`), which this process
/// performs while it runs — or a process the agent starts, if this one has quit. The app
/// recognises its timers by the session id in their metadata.
struct CookingSession {
    let recipe: Recipe
    let quick: Bool
    let manager: AlarmManager
    let id = UUID()

    /// Cooks, and returns the exit status: 0 when the cook stopped a step (normally the last),
    /// 1 when the session ended otherwise (not allowed, cancelled, never answered).
    func run() async -> Int32 {
        say("\(recipe.name): \(recipe.steps.count) steps\(quick ? " (quick: 2 s each)" : "").")
        do {
            say("Asking to set alarms…")
            let authorization = try await manager.requestAuthorization()
            guard authorization == .authorized else {
                say("Not allowed to set alarms (\(authorization)); allow it with “tocsin auth grant \(manager.appID)”.")
                return 1
            }
            say("Allowed to set alarms.")
            // Subscribed before the first step starts, so its announcement is not missed.
            let events = manager.alarmEvents
            try await StepTimer(recipe: recipe, session: id, quick: quick, manager: manager).start(step: 1)
            for await event in events {
                guard let step = event.alarm.metadata(as: CookingStep.self), step.session == id else { continue }
                if let status = narrate(event.kind, step: step.number) { return status }
            }
            say("The agent's announcements ended.")
        } catch {
            say("Could not cook: \(error)")
        }
        return 1
    }

    /// Says what `kind` means for step `number`; returns the exit status when the session is over.
    private func narrate(_ kind: AlarmManager.AlarmEvent.Kind, step number: Int) -> Int32? {
        let title = recipe.title(ofStep: number)
        switch kind {
        case .scheduled:
            say("\(title) — timer set for \(spoken(recipe.step(number).duration)).")
        case .paused:
            say("\(title) — paused.")
        case .resumed:
            say("\(title) — resumed.")
        case .fired:
            say(recipe.isLast(number) ? "\(title) — time's up: press Stop when the dish is done." : "\(title) — time's up: press “Next step”.")
        case .secondary:
            say("“Next step” pressed: step \(number + 1) starts.")
        case .stopped where recipe.isLast(number):
            say("Stopped: \(recipe.name) is ready. Buon appetito!")
            return 0
        case .stopped:
            say("Stopped at step \(number): the cooking session ends here.")
            return 0
        case .cancelled, .unacknowledged, .missed:
            say("\(title) — \(kind.rawValue): the cooking session ends here.")
            return 1
        case .preAlert, .rescheduled, .snoozed:
            break
        }
        return nil
    }
}
