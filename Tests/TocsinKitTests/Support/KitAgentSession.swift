import Foundation
import HeadlessSession
import Testing
@testable import TocsinKit

/// A headless desktop session with the real `tocsind` in it, and `AlarmManager`s in this test
/// process talking to it.
///
/// A minimal copy of IntegrationTests' `AgentSession` (test targets cannot import each other);
/// the two belong in a shared support target.
///
/// `TocsinClient` connects to "the session bus" of the process, DBUS_SESSION_BUS_ADDRESS: the
/// fixture points it at its session's bus, which is why every TocsinKit test runs one at a time
/// (`TocsinKitTests` is `.serialized`). The managers it made stop listening before the session
/// ends, so nothing in the process holds on to a bus that is gone.
final class KitAgentSession: @unchecked Sendable {
    let session: HeadlessSession
    let stateDirectory: URL
    private(set) var agent: SessionProcess
    private let lock = NSLock()
    private var managers: [AlarmManager] = []

    /// Starts a session (whose bus may start the `activatable` services) and the agent (with
    /// extra `agentArguments` and `agentEnvironment`), waits until it answers, and points this
    /// process's session bus at it.
    init(_ label: String, agentArguments: [String] = [], agentEnvironment: [String: String] = [:],
         activatable: [String: String] = [:]) throws {
        session = try HeadlessSession(label: "kit-\(label)", activatable: activatable)
        stateDirectory = session.directory.appendingPathComponent("tocsin-state")
        agent = try session.launch(try Self.binary("tocsind"), ["--state-dir", stateDirectory.path] + agentArguments,
                                   extraEnvironment: agentEnvironment)
        let answered = Self.eventually(timeout: 10) { (try? tocsin("list").status) == 0 }
        guard answered else { throw KitTestError("the agent did not answer within 10 s; its log:\n\(agentLog)") }
        // Overwritten, never unset: unsetenv would move the environment array under threads of
        // other tests that may be reading it.
        setenv("DBUS_SESSION_BUS_ADDRESS", session.busAddress, 1)
    }

    deinit {
        for manager in lock.withLock({ managers }) {
            manager.watcher.stop()
        }
        session.stop()
    }

    /// A manager for `appID`, stopped with the session.
    func manager(_ appID: String) -> AlarmManager {
        let manager = AlarmManager(appID: appID)
        lock.withLock { managers.append(manager) }
        return manager
    }

    /// A manager for `appID`, which the user has allowed to set alarms (`tocsin auth grant`).
    func authorizedManager(_ appID: String) throws -> AlarmManager {
        let granted = try tocsin("auth", "grant", appID)
        try #require(granted.status == 0, "tocsin auth grant failed: \(granted)")
        return manager(appID)
    }

    /// Runs `tocsin` with `arguments` in the session.
    @discardableResult
    func tocsin(_ arguments: String...) throws -> CommandResult {
        try session.run(try Self.binary("tocsin"), arguments, timeout: .seconds(30))
    }

    /// Every alarm as `tocsin list --json` describes it (the command line sees every application's).
    func listedAlarms() throws -> [[String: Any]] {
        let result = try tocsin("list", "--json")
        try #require(result.status == 0, "tocsin list failed: \(result)")
        return try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    /// Everything the agent logged so far.
    var agentLog: String { agent.standardError() }

    /// Waits, off Swift concurrency's threads, for a notification titled `summary` matching
    /// `predicate`.
    func notification(titled summary: String, timeout: Duration = .seconds(10),
                      where predicate: @escaping @Sendable (ObservedNotification) -> Bool = { _ in true }) async throws -> ObservedNotification {
        let session = session
        return try await offThread {
            try session.waitForNotification(timeout: timeout) { $0.summary == summary && predicate($0) }
        }
    }

    /// Clicks the button `label` on `notification`, as the user would, off Swift concurrency's threads.
    func click(_ label: String, on notification: ObservedNotification) async throws {
        let session = session
        _ = try await offThread { try session.clickAction(label: label, onNotification: notification.id) }
    }

    /// The built product `name`, next to the test bundle.
    static func binary(_ name: String) throws -> URL {
        let candidates = [
            Bundle.main.bundleURL,
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(".build/debug"),
        ].map { $0.appendingPathComponent(name) }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw KitTestError("\(name) is not built; run “swift build” first (looked in \(candidates.map(\.path)))")
        }
        return found
    }

    /// Waits until `condition` holds, checking every 20 ms; false when `timeout` passed first.
    static func eventually(timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition()
    }

    /// Waits until `condition` holds, checking every 20 ms without holding a thread of Swift's
    /// cooperative pool: a test that waits for work of its own running in a `Task` must use this
    /// one. On a two-core machine the pool has two threads; a blocking wait on one, beside another
    /// test's, left the `Task` no thread to run on (a clean-clone run's unit phase: no answer
    /// within 5 s to a call answered in 0.02 s on its own).
    static func eventually(timeout: TimeInterval, _ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }
}

/// A failure of the test set-up itself, with what went wrong.
struct KitTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs blocking `body` on a thread of its own: the session's waits poll with sleeps, and Swift
/// concurrency has as few threads as the machine has cores, which the update sequences need.
func offThread<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Swift.Result { try body() }) }.start()
    }
}
