import Foundation
import TocsinCore

/// How `AlarmManager` calls the agent: a `TocsinClient` per call, identified as the application
/// first, with the client's errors turned into `AlarmManager.AlarmError`.
///
/// A client per call keeps to `TocsinClient`'s rule (one client, one thread) while the manager is
/// used from any thread, and costs little: every client shares the process's session-bus
/// connection. The application is named again before every call because the agent remembers it
/// per connection only while it runs: after an agent restart an unnamed caller would be taken for
/// its executable.
struct AgentLink: Sendable {
    let appID: String

    /// Runs `body` with a client speaking for the application, on the calling thread.
    func call<Result>(
        _ body: (TocsinClient) throws(TocsinError) -> Result,
        mapError: (TocsinError) -> AlarmManager.AlarmError = AlarmManager.AlarmError.init
    ) throws(AlarmManager.AlarmError) -> Result {
        do throws(TocsinError) {
            let client = try TocsinClient()
            try client.identifyApplication(appID)
            return try body(client)
        } catch {
            throw mapError(error)
        }
    }

    /// Runs `body` like `call`, on a thread of its own: for calls that wait for the user (the
    /// consent question may stay open for minutes), which must not hold one of Swift
    /// concurrency's few threads.
    func callOffThread<Result: Sendable>(
        _ body: @escaping @Sendable (TocsinClient) throws(TocsinError) -> Result,
        mapError: @escaping @Sendable (TocsinError) -> AlarmManager.AlarmError = AlarmManager.AlarmError.init
    ) async throws(AlarmManager.AlarmError) -> Result {
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Swift.Result<Result, AlarmManager.AlarmError>, Never>) in
            let thread = Thread { [self] in
                continuation.resume(returning: Swift.Result { () throws(AlarmManager.AlarmError) -> Result in
                    try call(body, mapError: mapError)
                })
            }
            thread.name = "TocsinKit call"
            thread.start()
        }
        return try outcome.get()
    }
}
