import CCanberra
import Glibc

/// What libcanberra answered: success, one of the errors it defines (`CA_ERROR_*`), or a code
/// it does not define, which is a failure like the others (`ca_strerror` answers NULL for it,
/// so it is said as a number rather than read as a C string).
public struct CanberraResult: Error, Sendable, Equatable, CustomStringConvertible {
    /// libcanberra's code: 0, or a negative `CA_ERROR_*`.
    public let code: Int32

    /// The result `code`, as libcanberra gave it.
    public init(code: Int32) {
        self.code = code
    }

    /// `CA_SUCCESS`: done (a playback: played to its end).
    public static let success = CanberraResult(code: Int32(CA_SUCCESS))
    /// `CA_ERROR_NOTFOUND`: no such sound event or file.
    public static let notFound = CanberraResult(code: Int32(CA_ERROR_NOTFOUND))
    /// `CA_ERROR_CANCELED`: the playback was cancelled.
    public static let canceled = CanberraResult(code: Int32(CA_ERROR_CANCELED))
    /// `CA_ERROR_DESTROYED`: the context went away with the playback under way.
    public static let destroyed = CanberraResult(code: Int32(CA_ERROR_DESTROYED))

    /// Whether it is success.
    public var succeeded: Bool { code == Self.success.code }

    /// Whether libcanberra defines the code.
    public var isKnown: Bool { code <= 0 && code > Int32(_CA_ERROR_MAX) }

    /// Whether it says the connection to the sound server (or the driver) is broken, so the
    /// context is good for nothing more and a new one must be opened.
    public var meansConnectionBroken: Bool {
        [CA_ERROR_DISCONNECTED, CA_ERROR_NOTAVAILABLE, CA_ERROR_STATE, CA_ERROR_NODRIVER].map(Int32.init).contains(code)
    }

    /// libcanberra's sentence for it ("Not found"), or, for a code it does not define, the number.
    public var description: String {
        guard isKnown, let text = ca_strerror(code) else { return "libcanberra error \(code), which it does not define" }
        return String(cString: text)
    }
}

/// A libcanberra context (`ca_context`), opened on the sound server, that plays sounds described
/// by properties and reports how each ended.
///
/// Not thread-safe: its owner calls it from one thread or serial queue (starting a sound can
/// block, so not the main loop). libcanberra reports a playback's end on a thread of its own,
/// with its lock held: `onFinished` runs there and must only hand the news on (`MainLoop.post`
/// never runs its closure on the calling thread, which is why it is safe there); calling the
/// context back from it would deadlock. Every result code is a `CanberraResult`, never a C
/// string read unchecked, and a playback report for another context or without its box is
/// dropped.
public final class CanberraContext {
    /// How a playback ended: its id and libcanberra's result (`success`: played to the end).
    public typealias Finished = @Sendable (_ playID: UInt32, _ result: CanberraResult) -> Void

    private let context: OpaquePointer
    /// What libcanberra's callback reaches, kept until the context is destroyed (which reports
    /// playbacks still under way as `destroyed`, on the destroying thread, before it returns).
    private let box: FinishedBox

    private init(context: OpaquePointer, onFinished: @escaping Finished) {
        self.context = context
        box = FinishedBox(context: context, onFinished: onFinished)
    }

    deinit {
        ca_context_destroy(context)
    }

    /// A context with `properties` (`application.name`…), connected to the sound server; the
    /// error when it cannot be made or opened. `onFinished` gets every playback's end.
    public static func open(properties: [String: String], onFinished: @escaping Finished) -> Result<CanberraContext, CanberraResult> {
        var made: OpaquePointer?
        let created = CanberraResult(code: ca_context_create(&made))
        guard created.succeeded else { return .failure(created) }
        guard let made else { return .failure(CanberraResult(code: Int32(CA_ERROR_INTERNAL))) }
        // A property libcanberra refuses is left out: the context works without it.
        _ = withProperties(properties) { ca_context_change_props_full(made, $0) }
        let opened = CanberraResult(code: ca_context_open(made))
        guard opened.succeeded else {
            ca_context_destroy(made)
            return .failure(opened)
        }
        return .success(CanberraContext(context: made, onFinished: onFinished))
    }

    /// Starts playing the sound `properties` describe as playback `playID`; its end comes to
    /// `onFinished`. The result says whether it started.
    public func play(_ playID: UInt32, properties: [String: String]) -> CanberraResult {
        Self.withProperties(properties) { ca_context_play_full(context, playID, $0, Self.finished, Unmanaged.passUnretained(box).toOpaque()) }
    }

    /// Stops playback `playID` (its end then comes as `canceled`).
    @discardableResult
    public func cancel(_ playID: UInt32) -> CanberraResult {
        CanberraResult(code: ca_context_cancel(context, playID))
    }

    /// Runs `body` with a libcanberra property list holding `properties`; the error when the
    /// list cannot be made or a property is refused (a key that is not printable ASCII, a value
    /// that is not UTF-8).
    static func withProperties(_ properties: [String: String], _ body: (OpaquePointer) -> Int32) -> CanberraResult {
        var list: OpaquePointer?
        let created = CanberraResult(code: ca_proplist_create(&list))
        guard created.succeeded else { return created }
        guard let list else { return CanberraResult(code: Int32(CA_ERROR_INTERNAL)) }
        defer { ca_proplist_destroy(list) }
        for (key, value) in properties.sorted(by: { $0.key < $1.key }) {
            let set = CanberraResult(code: ca_proplist_sets(list, key, value))
            guard set.succeeded else { return set }
        }
        return CanberraResult(code: body(list))
    }

    /// Called by libcanberra on its own thread, with its lock held, when a playback ends.
    static let finished: ca_finish_callback_t = { context, playID, code, userData in
        guard let userData else { return }
        let box = Unmanaged<FinishedBox>.fromOpaque(userData).takeUnretainedValue()
        guard context == box.context else { return }
        box.onFinished(playID, CanberraResult(code: code))
    }
}

/// The context and closure libcanberra's callback reaches.
final class FinishedBox: @unchecked Sendable {
    // Immutable after init; read from libcanberra's thread.
    let context: OpaquePointer
    let onFinished: CanberraContext.Finished

    init(context: OpaquePointer, onFinished: @escaping CanberraContext.Finished) {
        self.context = context
        self.onFinished = onFinished
    }
}
