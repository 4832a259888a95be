// Built, not run, by the test suite; run by hand it schedules the timer against the agent.
import Foundation

if CommandLine.arguments.dropFirst().first == "timer" {
    let alarm = try await scheduleFoodTimer()
    print("scheduled \(alarm.id)")
}
