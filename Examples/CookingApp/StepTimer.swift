import Foundation
import TocsinKit

/// Starts the timer of one step, configured as an AlarmKit app does (iOS 26.1 and later): a
/// countdown, then an alert whose Stop button the system supplies and whose "Next step" button
/// runs `NextStepIntent` in the app. The last step has no "Next step" button; stopping it ends
/// the session.
struct StepTimer {
    let recipe: Recipe
    let session: UUID
    let quick: Bool
    let manager: AlarmManager

    /// Schedules step `number`'s timer and returns it.
    @discardableResult
    func start(step number: Int) async throws -> Alarm {
        let step = recipe.step(number)
        let title = LocalizedStringResource(recipe.title(ofStep: number))
        let alert: AlarmPresentation.Alert
        var nextStep: NextStepIntent?
        if recipe.isLast(number) {
            alert = AlarmPresentation.Alert(title: title)
        } else {
            let nextStepButton = AlarmButton(text: "Next step", textColor: .white, systemImageName: "forward.end.fill")
            alert = AlarmPresentation.Alert(title: title, secondaryButton: nextStepButton, secondaryButtonBehavior: .custom)
            nextStep = NextStepIntent(session: session, step: number + 1, quick: quick)
        }
        let presentation = AlarmPresentation(
            alert: alert,
            countdown: .init(title: LocalizedStringResource(step.instruction), pauseButton: AlarmButton(text: "Pause", textColor: .orange, systemImageName: "pause.fill")),
            paused: .init(title: "Paused: \(step.instruction)", resumeButton: AlarmButton(text: "Resume", textColor: .orange, systemImageName: "play.fill")))
        let attributes = AlarmAttributes(presentation: presentation, metadata: CookingStep(session: session, number: number), tintColor: Color.orange)
        return try await manager.schedule(
            id: Alarm.ID(),
            configuration: .timer(duration: step.duration, attributes: attributes, secondaryIntent: nextStep))
    }
}
