import Foundation
import TocsinKit

/// Starts the timer of one step, configured as an AlarmKit app would: a countdown, then an alert
/// with a "Next step" button whose intent starts the following step.
///
/// The intent is a command that runs this app again (`cooking-app --step N --session …`): the
/// agent runs it when the button is pressed, so the next step starts even if this app is no
/// longer running. The last step has no "Next step" button; stopping it ends the session.
struct StepTimer {
    let recipe: Recipe
    let session: UUID
    let quick: Bool
    let manager: AlarmManager

    /// Schedules step `number`'s timer and returns it.
    @discardableResult
    func start(step number: Int) async throws -> Alarm {
        let step = recipe.step(number)
        var alert = AlarmPresentation.Alert(title: LocalizedStringResource(recipe.title(ofStep: number)))
        var nextStepIntent: (any LiveActivityIntent)?
        if !recipe.isLast(number) {
            alert.secondaryButton = AlarmButton(text: "Next step", textColor: .white, systemImageName: "forward.end.fill")
            alert.secondaryButtonBehavior = .custom
            nextStepIntent = .command(startCommand(forStep: number + 1))
        }
        let presentation = AlarmPresentation(
            alert: alert,
            countdown: .init(title: LocalizedStringResource(step.instruction), pauseButton: AlarmButton(text: "Pause", textColor: .orange, systemImageName: "pause.fill")),
            paused: .init(title: "Paused: \(step.instruction)", resumeButton: AlarmButton(text: "Resume", textColor: .orange, systemImageName: "play.fill")))
        let attributes = AlarmAttributes(presentation: presentation, metadata: CookingStep(session: session, number: number), tintColor: Color.orange)
        return try await manager.schedule(
            id: Alarm.ID(),
            configuration: .timer(duration: step.duration, attributes: attributes, secondaryIntent: nextStepIntent))
    }

    /// The shell command that starts step `number` of this session: this very executable, with `--step`.
    private func startCommand(forStep number: Int) -> String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var words = [executable, "--step", String(number), "--session", session.uuidString]
        if quick { words.append("--quick") }
        return words.map(Self.shellQuoted).joined(separator: " ")
    }

    /// `word` in single quotes, safe for `/bin/sh` whatever it contains.
    private static func shellQuoted(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
