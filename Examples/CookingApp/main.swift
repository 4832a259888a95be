// A cooking app written with TocsinKit the way an iOS app uses AlarmKit: a recipe of three timed
// steps, each a timer whose "Next step" button (a LiveActivityIntent) starts the next. See
// Examples/README.md.
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

switch options.mode {
case .cook:
    exit(await CookingSession(recipe: Recipe.spaghetti(quick: options.quick), quick: options.quick, manager: .shared).run())
case .performIntents:
    // AlarmManager.shared takes the press as it is made; the intent starts the next step.
    // Leave once that step's timer is set, or after half a minute if none comes.
    let events = AlarmManager.shared.alarmEvents
    Task {
        try await Task.sleep(for: .seconds(30))
        exit(1)
    }
    for await event in events where event.kind == .scheduled {
        if let step = event.alarm.metadata(as: CookingStep.self) { say("Started step \(step.number) for Tocsin.") }
        exit(0)
    }
}
