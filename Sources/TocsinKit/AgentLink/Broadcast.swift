import Synchronization

/// Hands every value sent to it to each of its subscribers' `AsyncStream`s, from any thread.
///
/// With `replaysLatest`, a new subscriber gets the latest value first (AlarmKit's update
/// sequences start with the current state), and `send` drops a value equal to the latest, so a
/// reload that finds nothing new says nothing.
final class Broadcast<Element: Sendable & Equatable>: Sendable {
    private struct State {
        var latest: Element?
        var subscribers: [Int: AsyncStream<Element>.Continuation] = [:]
        var nextKey = 0
        var finished = false
    }

    private let state = Mutex(State())
    private let replaysLatest: Bool

    /// A broadcast that replays its latest value to new subscribers, or not.
    init(replaysLatest: Bool) {
        self.replaysLatest = replaysLatest
    }

    /// A new stream of the values sent from now on (after the latest, when replaying). It ends
    /// when the broadcast finishes; ending it early unsubscribes.
    func subscribe() -> AsyncStream<Element> {
        // Unbounded: no state a subscriber was told about may be skipped, and values are few
        // (one per change of an alarm).
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self, bufferingPolicy: .unbounded)
        let key = state.withLock { state in
            defer { state.nextKey += 1 }
            return state.nextKey
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.subscribers.removeValue(forKey: key) }
        }
        let alreadyFinished = state.withLock { state in
            guard !state.finished else { return true }
            state.subscribers[key] = continuation
            if replaysLatest, let latest = state.latest { continuation.yield(latest) }
            return false
        }
        if alreadyFinished { continuation.finish() }
        return stream
    }

    /// Gives `value` to every subscriber (when replaying, only if it differs from the latest).
    func send(_ value: Element) {
        state.withLock { state in
            if replaysLatest && state.latest == value { return }
            state.latest = value
            for continuation in state.subscribers.values {
                continuation.yield(value)
            }
        }
    }

    /// Ends every subscriber's stream, and those of later subscribers.
    func finish() {
        let subscribers = state.withLock { state in
            state.finished = true
            defer { state.subscribers = [:] }
            return Array(state.subscribers.values)
        }
        // Outside the lock: finishing calls onTermination, which takes it.
        for continuation in subscribers { continuation.finish() }
    }
}
