import CCanberra
import Dispatch

/// The libcanberra context, driven from a thread of its own.
///
/// Starting a sound can block for milliseconds (the first play of a sound decodes and uploads it
/// to the sound server) or much longer when the sound server hangs; on its own serial queue that
/// never delays the agent's main loop, so an alarm's state changes and signals go out on time.
///
/// `@unchecked Sendable`: `context` is touched only on `queue`.
final class SoundPlayer: @unchecked Sendable {
    /// How a playback ended or failed to start: its id and libcanberra's result code (0 = played to the end).
    typealias Report = @Sendable (_ playID: UInt32, _ result: Int32) -> Void

    private let queue = DispatchQueue(label: "io.github.tocsin.sound")
    private var context: OpaquePointer?
    private let onStarted: Report
    private let onFinished: Report

    /// A player; `onStarted` (0, or why it could not start) and `onFinished` are called on the
    /// player's thread.
    init(onStarted: @escaping Report, onFinished: @escaping Report) {
        self.onStarted = onStarted
        self.onFinished = onFinished
    }

    deinit {
        if let context { ca_context_destroy(context) }
    }

    /// Connects to the sound server now, so the first alarm does not pay for it; `completion`
    /// gets libcanberra's result (0 on success).
    func open(completion: @escaping @Sendable (Int32) -> Void) {
        queue.async { [self] in completion(ensureContext()) }
    }

    /// Plays a sound described by libcanberra `properties` as playback `playID`.
    func play(_ playID: UInt32, properties: [String: String]) {
        queue.async { [self] in
            var result = ensureContext()
            if result == 0, let context {
                let proplist = Self.proplist(properties)
                result = ca_context_play_full(context, playID, proplist, Self.finished, Unmanaged.passUnretained(self).toOpaque())
                ca_proplist_destroy(proplist)
            }
            if result != 0 && Self.connectionIsBroken(result) { dropContext() }
            onStarted(playID, result)
        }
    }

    /// Stops playback `playID` (its finish report then carries `CA_ERROR_CANCELED`).
    func cancel(_ playID: UInt32) {
        queue.async { [self] in
            if let context { ca_context_cancel(context, playID) }
        }
    }

    /// Forgets the connection after a playback failed mid-way; the next play reconnects.
    func reset() {
        queue.async { [self] in dropContext() }
    }

    /// A readable sentence for a libcanberra result code.
    static func describe(_ result: Int32) -> String {
        String(cString: ca_strerror(result))
    }

    /// libcanberra's "not found" (a missing sound event or file).
    static let notFound = Int32(CA_ERROR_NOTFOUND)
    /// libcanberra's "cancelled".
    static let cancelled = Int32(CA_ERROR_CANCELED)

    private func ensureContext() -> Int32 {
        if context != nil { return 0 }
        var newContext: OpaquePointer?
        var result = ca_context_create(&newContext)
        guard result == 0, let newContext else { return result }
        let properties = Self.proplist(["application.name": "Tocsin", "application.id": "io.github.tocsin.Agent"])
        ca_context_change_props_full(newContext, properties)
        ca_proplist_destroy(properties)
        result = ca_context_open(newContext)
        guard result == 0 else {
            ca_context_destroy(newContext)
            return result
        }
        context = newContext
        return 0
    }

    private func dropContext() {
        if let context { ca_context_destroy(context) }
        context = nil
    }

    private static func connectionIsBroken(_ result: Int32) -> Bool {
        [CA_ERROR_DISCONNECTED, CA_ERROR_NOTAVAILABLE, CA_ERROR_STATE, CA_ERROR_NODRIVER].map(Int32.init).contains(result)
    }

    /// Called by libcanberra on its own thread when a playback ends.
    private static let finished: ca_finish_callback_t = { _, playID, result, userData in
        Unmanaged<SoundPlayer>.fromOpaque(userData!).takeUnretainedValue().onFinished(playID, result)
    }

    private static func proplist(_ properties: [String: String]) -> OpaquePointer {
        var proplist: OpaquePointer?
        ca_proplist_create(&proplist)
        for (key, value) in properties {
            ca_proplist_sets(proplist, key, value)
        }
        return proplist!
    }
}
