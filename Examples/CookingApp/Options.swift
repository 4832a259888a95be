import Foundation
import TocsinKit

/// What the command line asks for.
struct Options {
    /// What to do.
    enum Mode {
        /// Cook the whole recipe: ask for consent, start step 1, narrate, exit after the last step.
        case cook
        /// Started by the Tocsin agent to perform a "Next step" press while the app was not
        /// running: take the press (TocsinKit does), then exit.
        case performIntents
    }

    var mode = Mode.cook
    /// Every step takes 2 seconds instead of minutes.
    var quick = false

    static let usage = """
        usage: cooking-app [--quick]

        Cooks spaghetti al pomodoro in three timed steps. Each step's timer rings with a "Next step"
        button, which starts the next step (in this app, or in this app started again by Tocsin
        when it is no longer running); the app exits once the last step is stopped.

          --quick            every step takes 2 seconds (for tests and demos)
          --tocsin-intents   what Tocsin starts the app with to perform a press
        """

    /// Reads `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        for argument in arguments {
            switch argument {
            case "--quick":
                options.quick = true
            case AlarmManager.intentsLaunchArgument:
                options.mode = .performIntents
            case "--help", "-h":
                throw UsageError(nil)
            default:
                throw UsageError("unknown argument “\(argument)”")
            }
        }
        return options
    }
}

/// A command line this app does not understand; `problem` is nil for --help.
struct UsageError: Error {
    let problem: String?
    init(_ problem: String?) { self.problem = problem }
}
