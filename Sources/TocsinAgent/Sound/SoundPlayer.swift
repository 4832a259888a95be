import Dispatch
import TocsinEdge

/// The libcanberra context (`CanberraContext`), driven from a thread of its own.
///
/// Starting a sound can block for milliseconds (the first play of a sound decodes and uploads it
/// to the sound server) or much longer when the sound server hangs; on its own serial queue that
/// never delays the agent's main loop, so an alarm's state changes and signals go out on time.
///
/// `@unchecked Sendable`: `context` is touched only on `queue`.
final class SoundPlayer: @unchecked Sendable {
    /// How a playback ended or failed to start: its id and libcanberra's result (success = played to the end).
    typealias Report = @Sendable (_ playID: UInt32, _ result: CanberraResult) -> Void

    private let queue = DispatchQueue(label: "io.github.tocsin.sound")
    private var context: CanberraContext?
    private let onStarted: Report
    private let onFinished: Report

    /// A player; `onStarted` (success, or why it could not start) and `onFinished` are called on
    /// the player's thread (`onFinished` on libcanberra's, with its lock held: hand it on only).
    init(onStarted: @escaping Report, onFinished: @escaping Report) {
        self.onStarted = onStarted
        self.onFinished = onFinished
    }

    /// Connects to the sound server now, so the first alarm does not pay for it; `completion`
    /// gets libcanberra's result.
    func open(completion: @escaping @Sendable (CanberraResult) -> Void) {
        queue.async { [self] in completion(ensureContext()) }
    }

    /// Plays a sound described by libcanberra `properties` as playback `playID`.
    func play(_ playID: UInt32, properties: [String: String]) {
        queue.async { [self] in
            var result = ensureContext()
            if result.succeeded, let context {
                result = context.play(playID, properties: properties)
            }
            if !result.succeeded && result.meansConnectionBroken { dropContext() }
            onStarted(playID, result)
        }
    }

    /// Stops playback `playID` (its finish report then carries `CanberraResult.canceled`).
    func cancel(_ playID: UInt32) {
        queue.async { [self] in
            context?.cancel(playID)
        }
    }

    /// Forgets the connection after a playback failed mid-way; the next play reconnects.
    func reset() {
        queue.async { [self] in dropContext() }
    }

    /// A readable sentence for a libcanberra result.
    static func describe(_ result: CanberraResult) -> String {
        result.description
    }

    /// libcanberra's "not found" (a missing sound event or file).
    static let notFound = CanberraResult.notFound
    /// libcanberra's "cancelled".
    static let cancelled = CanberraResult.canceled

    private func ensureContext() -> CanberraResult {
        if context != nil { return .success }
        switch CanberraContext.open(properties: ["application.name": "Tocsin", "application.id": "io.github.tocsin.Agent"],
                                    onFinished: onFinished) {
        case .success(let opened):
            context = opened
            return .success
        case .failure(let result):
            return result
        }
    }

    private func dropContext() {
        context = nil
    }
}
