import Foundation

/// What the command line asks for.
struct Options {
    /// What to do.
    enum Mode {
        /// Cook the whole recipe: ask for consent, start step 1, narrate, exit after the last step.
        case cook
        /// Start one step of a running session and exit: what a step's "Next step" button runs.
        case startStep(number: Int, session: UUID)
    }

    var mode = Mode.cook
    /// Every step takes 2 seconds instead of minutes.
    var quick = false

    static let usage = """
        usage: cooking-app [--quick]
               cooking-app --step N --session UUID [--quick]

        Cooks spaghetti al pomodoro in three timed steps. Each step's timer rings with a "Next step"
        button, which starts the next step (by running “cooking-app --step N”, so it works even when
        this app is no longer running); the app exits once the last step is stopped.

          --quick                  every step takes 2 seconds (for tests and demos)
          --step N --session UUID  start step N of cooking session UUID, then exit
                                   (what a step's "Next step" button runs)
        """

    /// Reads `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var step: Int?
        var session: UUID?
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--quick":
                options.quick = true
            case "--step":
                guard let value = remaining.popFirst(), let number = Int(value), number >= 1 else { throw UsageError("--step needs a step number") }
                step = number
            case "--session":
                guard let value = remaining.popFirst(), let id = UUID(uuidString: value) else { throw UsageError("--session needs a UUID") }
                session = id
            case "--help", "-h":
                throw UsageError(nil)
            default:
                throw UsageError("unknown argument “\(argument)”")
            }
        }
        switch (step, session) {
        case (nil, nil): break
        case (let number?, let session?): options.mode = .startStep(number: number, session: session)
        default: throw UsageError("--step and --session go together")
        }
        return options
    }
}

/// A command line this app does not understand; `problem` is nil for --help.
struct UsageError: Error {
    let problem: String?
    init(_ problem: String?) { self.problem = problem }
}
