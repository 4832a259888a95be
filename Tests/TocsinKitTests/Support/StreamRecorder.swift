import Foundation
import Synchronization

/// Records what an `AsyncStream` yields, in a task of its own, for a test to wait on.
final class StreamRecorder<Element: Sendable>: Sendable {
    private let storage = Storage()
    private let task: Task<Void, Never>

    /// Starts recording `stream`.
    init(_ stream: some AsyncSequence<Element, Never> & Sendable) {
        let storage = storage
        task = Task {
            for await element in stream {
                storage.values.withLock { $0.append(element) }
            }
        }
    }

    deinit {
        task.cancel()
    }

    /// Everything recorded so far, in order.
    var recorded: [Element] { storage.values.withLock { $0 } }

    /// Waits until what was recorded satisfies `condition`, or `timeout` passed; returns the
    /// recording either way, for the test's expectations and messages.
    @discardableResult
    func wait(timeout: Duration = .seconds(10), until condition: ([Element]) -> Bool) async -> [Element] {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let values = recorded
            if condition(values) { return values }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return recorded
    }

    private final class Storage: Sendable {
        let values = Mutex<[Element]>([])
    }
}
