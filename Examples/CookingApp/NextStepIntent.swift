import AppIntents
import Foundation
import TocsinKit

/// The "Next step" button's intent: starts the following step's timer, in this app's process —
/// AlarmKit's `secondaryIntent`, written as an AlarmKit app writes it.
///
/// When the app is running (cooking), it performs the intent itself. When it is not, the agent
/// starts it again with `--tocsin-intents` (or by D-Bus activation, for an app installed with a
/// `DBusActivatable` desktop file) and the new process performs it.
struct NextStepIntent: LiveActivityIntent {
    static let title: LocalizedStringResource = "Next step"
    static let description = IntentDescription("Starts the recipe's next step")

    @Parameter(title: "Cooking session")
    var session: String

    @Parameter(title: "Step")
    var step: Int

    @Parameter(title: "Quick")
    var quick: Bool

    init(session: UUID, step: Int, quick: Bool) {
        self.session = session.uuidString
        self.step = step
        self.quick = quick
    }

    init() {
        self.session = ""
        self.step = 0
        self.quick = false
    }

    func perform() async throws -> some IntentResult {
        guard let session = UUID(uuidString: session) else { throw NextStepError.unknownSession(session) }
        let recipe = Recipe.spaghetti(quick: quick)
        guard (1...recipe.steps.count).contains(step) else { throw NextStepError.noSuchStep(step) }
        try await StepTimer(recipe: recipe, session: session, quick: quick, manager: .shared).start(step: step)
        return .result()
    }
}

/// Why the "Next step" intent could not start a step.
enum NextStepError: Error {
    case unknownSession(String)
    case noSuchStep(Int)
}
