import Foundation
import TocsinKit

/// What the app keeps with each step's timer, so it can tell its timers apart when the agent
/// announces them — even timers another process of the app started (one the agent started to
/// perform a "Next step" press).
struct CookingStep: AlarmMetadata {
    /// The cooking session: one run of the recipe, from the first step to the last.
    var session: UUID
    /// The step's number, from 1.
    var number: Int
}
