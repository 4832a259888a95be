import Foundation

/// A recipe: timed steps, one after the other.
struct Recipe: Sendable {
    /// One timed step.
    struct Step: Sendable {
        /// What to do ("Cook the spaghetti").
        let instruction: String
        /// How long it takes, in seconds.
        let duration: TimeInterval
    }

    /// The recipe's name.
    let name: String
    /// Its steps, in order.
    let steps: [Step]

    /// The step numbered `number` (from 1).
    func step(_ number: Int) -> Step { steps[number - 1] }

    /// Whether `number` is the last step.
    func isLast(_ number: Int) -> Bool { number == steps.count }

    /// The step's title, shown in its notification: "Step 2 of 3: Cook the spaghetti".
    func title(ofStep number: Int) -> String { "Step \(number) of \(steps.count): \(step(number).instruction)" }

    /// The recipe this app cooks; in `quick` mode (for tests and demos) every step takes 2 seconds.
    static func spaghetti(quick: Bool) -> Recipe {
        Recipe(name: "Spaghetti al pomodoro", steps: [
            Step(instruction: "Bring the water to a boil", duration: quick ? 2 : 8 * 60),
            Step(instruction: "Cook the spaghetti", duration: quick ? 2 : 9 * 60),
            Step(instruction: "Toss with the sauce and let it rest", duration: quick ? 2 : 2 * 60),
        ])
    }
}
