// A cooking app written with TocsinKit the way an iOS app uses AlarmKit: a recipe of three timed
// steps, each a timer whose "Next step" button starts the next. See Examples/README.md.
import Foundation
import TocsinKit

let options: Options
do throws(UsageError) {
    options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    if let problem = error.problem {
        FileHandle.standardError.write(Data("cooking-app: \(problem)\n\n\(Options.usage)\n".utf8))
        exit(2)
    }
    say(Options.usage)
    exit(0)
}

let recipe = Recipe.spaghetti(quick: options.quick)
switch options.mode {
case .cook:
    exit(await CookingSession(recipe: recipe, quick: options.quick, manager: .shared).run())
case .startStep(let number, let session):
    guard number <= recipe.steps.count else {
        FileHandle.standardError.write(Data("cooking-app: the recipe has \(recipe.steps.count) steps\n".utf8))
        exit(2)
    }
    do {
        let alarm = try await StepTimer(recipe: recipe, session: session, quick: options.quick, manager: .shared).start(step: number)
        say("Started \(recipe.title(ofStep: number)) (\(alarm.id)).")
    } catch {
        FileHandle.standardError.write(Data("cooking-app: could not start step \(number): \(error)\n".utf8))
        exit(1)
    }
}
