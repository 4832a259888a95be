import Foundation

/// The screenshots `waitForBriefScreen` takes on one thread and reads on another: a queue of
/// pictures that differ from the one before, in the order they were taken.
final class ScreenFilm: @unchecked Sendable {
    private let condition = NSCondition()
    private var pending: [URL] = []
    private var lastBytes: Data?
    private var finished = false
    private var stopped = false
    private var failure: (any Error)?

    /// Whether the reader has what it waited for (no more pictures are wanted).
    var isDone: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopped
    }

    /// Adds `shot` unless its region's pixels (`cropping`) are those of the picture before.
    func add(_ shot: URL, cropping: () throws -> Data) throws {
        let bytes = try cropping()
        condition.lock()
        defer { condition.unlock() }
        guard bytes != lastBytes else {
            try? FileManager.default.removeItem(at: shot)
            return
        }
        lastBytes = bytes
        pending.append(shot)
        condition.signal()
    }

    /// No picture could be taken: the reader is told why.
    func fail(_ error: any Error) {
        condition.lock()
        failure = error
        condition.signal()
        condition.unlock()
    }

    /// No more pictures come.
    func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    /// The reader is done: the photographer stops at its next picture.
    func stop() {
        condition.lock()
        stopped = true
        condition.unlock()
    }

    /// The next picture to read, waiting for one; `nil` once none is left and none will come.
    func next() throws -> URL? {
        condition.lock()
        defer { condition.unlock() }
        while pending.isEmpty, !finished, failure == nil { condition.wait() }
        if let failure { throw failure }
        return pending.isEmpty ? nil : pending.removeFirst()
    }
}
