import CGLib
import CPulse
import GLibSupport
import Synchronization
import TocsinCore

/// The sound server (PulseAudio, or PipeWire through pipewire-pulse, which speaks the same
/// protocol) as libpulse gives it, on a GLib main context (`pa_glib_mainloop`): the connection's
/// state, the server's name and default output, its outputs (sinks) and streams with their mute
/// and volumes, changes to them, and setting a sink's or stream's mute and volume.
///
/// libpulse hands back C structs through callbacks; every one is checked before it is read: a
/// NULL info where one is due, an error at the end of a list (`eol < 0`), a volume of no
/// channels or more than `PA_CHANNELS_MAX`, a channel out of range, a channel map that does not
/// match the volume, an unknown error code (which `pa_strerror` answers with NULL), a name that
/// is not UTF-8 or runs to megabytes. Each is a named failure (`PulseFailure`), said once per
/// kind through `NeighbourFaults`; what it touched is "not known", never a trap.
///
/// It never starts a sound server (`PA_CONTEXT_NOAUTOSPAWN`) and never tries again by itself:
/// a lost or refused connection is `.failed`, and the caller decides when to `connect()` again.
/// Lives on the thread of the GLib main context it was made on (the thread-default one).
public final class LibPulseConnection {
    /// Where the connection stands.
    public private(set) var state: PulseConnectionState = .unconnected
    /// Called when the connection becomes `.ready` or `.failed` (not on `disconnect()`).
    public var onStateChange: (PulseConnectionState) -> Void = { _ in }
    /// Called for each change the server reports to `subscribeToOutputChanges()`.
    public var onOutputsChanged: () -> Void = {}

    /// The longest name (sink, server, default sink) read: sink names are tens of bytes; one of
    /// megabytes is a wrong answer, and the name is used to set the sink by.
    public static let nameLimit = 512
    /// The longest stream property value read.
    public static let propertyLimit = 256
    /// The most sinks kept from one list; the rest are not read.
    public static let sinkLimit = 256
    /// The most matching streams kept from one list.
    public static let streamLimit = 64
    /// `PA_VOLUME_MAX`, a macro Swift does not import: the loudest volume a channel may have.
    public static let volumeMax = UInt32.max / 2
    /// How the log names the server.
    public static let neighbour = "The sound server"

    private let applicationName: String
    private let faults: NeighbourFaults
    private let mainContext: OpaquePointer?
    private let mainloop: OpaquePointer
    private var context: OpaquePointer?
    /// The addresses of this connection's questions under way (see `underWay`); dropped with
    /// their context (libpulse cancels an operation with its context, without calling it back).
    private var requests: Set<UInt> = []
    /// Every question under way in the process, by the address libpulse is handed as its
    /// callback's `userData`. A callback's `userData` is looked up here, never dereferenced:
    /// one for a question already answered, dropped, or never asked is ignored, not read.
    private static let underWay = Mutex<[UInt: Request]>([:])
    /// Contexts let go of inside one of their own callbacks, unreferenced once it has returned.
    private var retired: [OpaquePointer] = []
    private var retireSource: UnsafeMutablePointer<GSource>?

    /// A connection named `applicationName` to the server, not yet connected; wrong answers go
    /// to `faults`. libpulse runs on the calling thread's thread-default main context.
    public init(applicationName: String, faults: NeighbourFaults) {
        self.applicationName = applicationName
        self.faults = faults
        mainContext = g_main_context_ref_thread_default()
        mainloop = pa_glib_mainloop_new(mainContext)
    }

    deinit {
        if let context { Self.letGo(context) }
        context = nil
        forgetRequests()
        if let retireSource {
            g_source_destroy(retireSource)
            g_source_unref(retireSource)
        }
        retired.forEach { pa_context_unref($0) }
        pa_glib_mainloop_free(mainloop)
        g_main_context_unref(mainContext)
    }

    // MARK: Connection

    /// Starts connecting to `server` (libpulse's form: `unix:PATH`…), by default the one libpulse
    /// finds (PULSE_SERVER, client.conf, the user's runtime directory); `onStateChange` says how
    /// it went. No change while connecting or connected.
    public func connect(server: String? = nil) {
        guard context == nil else { return }
        guard let api = pa_glib_mainloop_get_api(mainloop), let context = pa_context_new(api, applicationName) else {
            return fail(PulseConnectError(code: Int32(PA_ERR_INTERNAL.rawValue), message: "libpulse could not make a context"))
        }
        self.context = context
        state = .connecting
        pa_context_set_state_callback(context, Self.stateChanged, Unmanaged.passUnretained(self).toOpaque())
        // With no server to try, libpulse fails inside this call (the callback has then said it).
        if pa_context_connect(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 { contextFailed(context) }
    }

    /// Closes the connection (no `onStateChange`); answers still to come do not come.
    public func disconnect() {
        guard let context else { return }
        retire(context)
        state = .unconnected
    }

    private static let stateChanged: pa_context_notify_cb_t = { context, userData in
        guard let context, let userData else { return }
        let connection = Unmanaged<LibPulseConnection>.fromOpaque(userData).takeUnretainedValue()
        guard context == connection.context else { return }
        switch pa_context_get_state(context) {
        case PA_CONTEXT_READY:
            connection.state = .ready
            connection.onStateChange(.ready)
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            connection.contextFailed(context)
        default:
            break
        }
    }

    private func contextFailed(_ failed: OpaquePointer) {
        guard failed == context else { return }
        let error = PulseConnectError(code: pa_context_errno(failed))
        retire(failed)
        fail(error)
    }

    private func fail(_ error: PulseConnectError) {
        state = .failed(error)
        onStateChange(state)
    }

    /// Stops listening to `context` and lets go of it once libpulse has returned: this may run
    /// inside its own callback, which must not free it.
    private func retire(_ context: OpaquePointer) {
        Self.detach(context)
        pa_context_disconnect(context)
        self.context = nil
        forgetRequests()
        retired.append(context)
        guard retireSource == nil else { return }
        let source = g_idle_source_new()!
        g_source_set_callback(source, { userData in
            let connection = Unmanaged<LibPulseConnection>.fromOpaque(userData!).takeUnretainedValue()
            connection.retired.forEach { pa_context_unref($0) }
            connection.retired.removeAll()
            if let source = connection.retireSource { g_source_unref(source) }
            connection.retireSource = nil
            return SourceResult.remove
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
        g_source_attach(source, mainContext)
        retireSource = source
    }

    private func forgetRequests() {
        let mine = requests
        requests.removeAll()
        Self.underWay.withLock { underWay in for key in mine { underWay[key] = nil } }
    }

    private static func detach(_ context: OpaquePointer) {
        pa_context_set_state_callback(context, nil, nil)
        pa_context_set_subscribe_callback(context, nil, nil)
    }

    private static func letGo(_ context: OpaquePointer) {
        detach(context)
        pa_context_disconnect(context)
        pa_context_unref(context)
    }

    /// The context, when it is ready for questions.
    private var readyContext: OpaquePointer? {
        guard let context, pa_context_get_state(context) == PA_CONTEXT_READY else { return nil }
        return context
    }

    // MARK: Changes

    /// Asks the server to report every change to its sinks, its streams and itself (the default
    /// sink) through `onOutputsChanged`.
    public func subscribeToOutputChanges() {
        guard let context = readyContext else { return }
        pa_context_set_subscribe_callback(context, { context, _, _, userData in
            guard let context, let userData else { return }
            let connection = Unmanaged<LibPulseConnection>.fromOpaque(userData).takeUnretainedValue()
            guard context == connection.context else { return }
            connection.onOutputsChanged()
        }, Unmanaged.passUnretained(self).toOpaque())
        let mask = pa_subscription_mask_t(rawValue: PA_SUBSCRIPTION_MASK_SINK.rawValue | PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue
                                          | PA_SUBSCRIPTION_MASK_SERVER.rawValue)
        command("SubscribeOutputs", { context, request in pa_context_subscribe(context, mask, Self.commandDone, request) }) { [faults] failure in
            if let failure { faults.record(kind: failure.kind, failure: failure.description, from: Self.neighbour, asked: "the subscription to its outputs") }
        }
    }

    // MARK: Questions

    /// The server's name, version and default sink; `nil` when it does not say (said once).
    public func serverInfo(_ answer: @escaping (PulseServerInfo?) -> Void) {
        guard let context = readyContext else { return answer(nil) }
        let request = ServerInfoRequest(connection: self, answer: answer)
        start(request) { pa_context_get_server_info(context, Self.serverInfoCallback, $0) }
    }

    /// Every sink (`sinkLimit` at most) whose name and levels are in range; `nil` when the list
    /// ended in an error. A sink that is not is left out and said once.
    public func sinks(_ answer: @escaping ([PulseSink]?) -> Void) {
        guard let context = readyContext else { return answer(nil) }
        let request = SinkListRequest(connection: self, answer: answer)
        start(request) { pa_context_get_sink_info_list(context, Self.sinkInfoCallback, $0) }
    }

    /// The streams whose property `key` is `value` (`streamLimit` at most), with the values of
    /// `keys` they have; `nil` when the list ended in an error.
    public func streams(whose key: String, is value: String, reading keys: [String], _ answer: @escaping ([PulseStream]?) -> Void) {
        guard let context = readyContext else { return answer(nil) }
        let request = StreamListRequest(connection: self, key: key, value: value, keys: keys, answer: answer)
        start(request) { pa_context_get_sink_input_info_list(context, Self.streamInfoCallback, $0) }
    }

    // MARK: Commands

    /// Sets sink `name`'s channel volumes; `done` gets `nil` or why not.
    public func setSinkVolume(_ name: String, _ channelVolumes: [UInt32], done: @escaping (PulseFailure?) -> Void) {
        guard var volume = Self.cvolume(channelVolumes) else { return done(.wrongValue("\(channelVolumes.count) channel volumes to set")) }
        command("SetSinkVolume", { context, request in pa_context_set_sink_volume_by_name(context, name, &volume, Self.commandDone, request) }, done)
    }

    /// Mutes or unmutes sink `name`.
    public func setSinkMute(_ name: String, _ muted: Bool, done: @escaping (PulseFailure?) -> Void) {
        command("SetSinkMute", { context, request in pa_context_set_sink_mute_by_name(context, name, muted ? 1 : 0, Self.commandDone, request) }, done)
    }

    /// Sets stream `index`'s channel volumes.
    public func setStreamVolume(_ index: UInt32, _ channelVolumes: [UInt32], done: @escaping (PulseFailure?) -> Void) {
        guard var volume = Self.cvolume(channelVolumes) else { return done(.wrongValue("\(channelVolumes.count) channel volumes to set")) }
        command("SetSinkInputVolume", { context, request in pa_context_set_sink_input_volume(context, index, &volume, Self.commandDone, request) }, done)
    }

    /// Mutes or unmutes stream `index`.
    public func setStreamMute(_ index: UInt32, _ muted: Bool, done: @escaping (PulseFailure?) -> Void) {
        command("SetSinkInputMute", { context, request in pa_context_set_sink_input_mute(context, index, muted ? 1 : 0, Self.commandDone, request) }, done)
    }

    private func command(_ name: String, _ send: (OpaquePointer, UnsafeMutableRawPointer) -> OpaquePointer?,
                         _ done: @escaping (PulseFailure?) -> Void) {
        guard let context = readyContext else { return done(.noConnection) }
        start(CommandRequest(connection: self, done: done)) { send(context, $0) }
    }

    /// Hands `request` to libpulse through `send`; when libpulse refuses it at once (a NULL
    /// operation), it is answered with libpulse's error.
    private func start(_ request: Request, _ send: (UnsafeMutableRawPointer) -> OpaquePointer?) {
        let userData = pending(request)
        guard let operation = send(userData) else {
            finish(UInt(bitPattern: userData))
            request.fail(.errorReply(PulseConnectError(code: context.map(pa_context_errno) ?? Int32(PA_ERR_BADSTATE.rawValue)).message))
            return
        }
        // Its callback still comes; the request stays under way until it has.
        pa_operation_unref(operation)
    }

    fileprivate func record(_ failure: PulseFailure, asked: String) {
        faults.record(kind: failure.kind, failure: failure.description, from: Self.neighbour, asked: asked)
    }

    /// The error libpulse's context holds now, for an answer that says only that it failed.
    fileprivate static func currentError(_ context: OpaquePointer?) -> PulseFailure {
        let code = context.map(pa_context_errno) ?? Int32(PA_ERR_UNKNOWN.rawValue)
        // An answer that failed with no error set says nothing at all.
        return code == 0 ? .noInfo : .errorReply(PulseConnectError(code: code).message)
    }

    // MARK: libpulse's callbacks

    /// The connection and request behind a callback's `userData`, if the request is still one
    /// under way (it is done with then).
    private static func lookUp<R: Request>(_ userData: UnsafeMutableRawPointer?, as type: R.Type, finishing: Bool) -> (LibPulseConnection, R)? {
        let key = UInt(bitPattern: userData)
        guard let request = underWay.withLock({ $0[key] }), let connection = request.connection, let typed = request as? R else { return nil }
        if finishing { connection.finish(key) }
        return (connection, typed)
    }

    private func finish(_ key: UInt) {
        requests.remove(key)
        _ = Self.underWay.withLock { $0.removeValue(forKey: key) }
    }

    static let serverInfoCallback: pa_server_info_cb_t = { context, info, userData in
        guard let (connection, request) = lookUp(userData, as: ServerInfoRequest.self, finishing: true) else { return }
        guard let info else {
            // libpulse calls with NULL when the server answered with an error.
            connection.record(currentError(context), asked: "GetServerInfo")
            return request.answer(nil)
        }
        switch serverInfo(info.pointee) {
        case .success(let server):
            request.answer(server)
        case .failure(let failure):
            connection.record(failure, asked: "GetServerInfo")
            request.answer(nil)
        }
    }

    static let sinkInfoCallback: pa_sink_info_cb_t = { context, info, endOfList, userData in
        guard let (connection, request) = lookUp(userData, as: SinkListRequest.self, finishing: endOfList != 0) else { return }
        if endOfList > 0 { return request.answer(request.sinks) }
        if endOfList < 0 {
            connection.record(currentError(context), asked: "GetSinkInfoList")
            return request.answer(nil)
        }
        guard let info else { return connection.record(.noInfo, asked: "GetSinkInfoList") }
        guard request.sinks.count < sinkLimit else {
            return connection.record(.wrongValue("more than \(sinkLimit) sinks"), asked: "GetSinkInfoList")
        }
        switch sink(info.pointee) {
        case .success(let sink): request.sinks.append(sink)
        case .failure(let failure): connection.record(failure, asked: "GetSinkInfoList")
        }
    }

    static let streamInfoCallback: pa_sink_input_info_cb_t = { context, info, endOfList, userData in
        guard let (connection, request) = lookUp(userData, as: StreamListRequest.self, finishing: endOfList != 0) else { return }
        if endOfList > 0 { return request.answer(request.streams) }
        if endOfList < 0 {
            connection.record(currentError(context), asked: "GetSinkInputInfoList")
            return request.answer(nil)
        }
        guard let info else { return connection.record(.noInfo, asked: "GetSinkInputInfoList") }
        // Other programs' streams are not read beyond the one property that says whose they are.
        guard property(request.key, of: info.pointee.proplist) == request.value else { return }
        guard request.streams.count < streamLimit else {
            return connection.record(.wrongValue("more than \(streamLimit) streams of this process"), asked: "GetSinkInputInfoList")
        }
        switch stream(info.pointee, reading: request.keys) {
        case .success(let stream): request.streams.append(stream)
        case .failure(let failure): connection.record(failure, asked: "GetSinkInputInfoList")
        }
    }

    static let commandDone: pa_context_success_cb_t = { context, success, userData in
        guard let (_, request) = lookUp(userData, as: CommandRequest.self, finishing: true) else { return }
        request.done(success == 1 ? nil : currentError(context))
    }

    // MARK: For tests

    /// Registers a question as if libpulse had been handed it, and returns the `userData` its
    /// callback would get: tests call the callbacks with the wrong data a server can send.
    func pendingServerInfo(_ answer: @escaping (PulseServerInfo?) -> Void) -> UnsafeMutableRawPointer {
        pending(ServerInfoRequest(connection: self, answer: answer))
    }

    /// The same for a sink list.
    func pendingSinkList(_ answer: @escaping ([PulseSink]?) -> Void) -> UnsafeMutableRawPointer {
        pending(SinkListRequest(connection: self, answer: answer))
    }

    /// The same for a stream list.
    func pendingStreamList(whose key: String, is value: String, reading keys: [String],
                           _ answer: @escaping ([PulseStream]?) -> Void) -> UnsafeMutableRawPointer {
        pending(StreamListRequest(connection: self, key: key, value: value, keys: keys, answer: answer))
    }

    /// The same for a command.
    func pendingCommand(_ done: @escaping (PulseFailure?) -> Void) -> UnsafeMutableRawPointer {
        pending(CommandRequest(connection: self, done: done))
    }

    /// How many questions are under way.
    var pendingCount: Int { requests.count }

    /// Puts `request` under way; its address is the `userData` libpulse is handed.
    private func pending(_ request: Request) -> UnsafeMutableRawPointer {
        let userData = Unmanaged.passUnretained(request).toOpaque()
        requests.insert(UInt(bitPattern: userData))
        Self.underWay.withLock { $0[UInt(bitPattern: userData)] = request }
        return userData
    }

    // MARK: Reading libpulse's structs

    /// The server in `info`: its name and version bounded (they are only shown), its default
    /// sink `nil` unless it is a name in range.
    static func serverInfo(_ info: pa_server_info) -> Result<PulseServerInfo, PulseFailure> {
        let name: String?
        switch text(info.server_name, limit: nameLimit) {
        case .success(let text): name = text
        case .failure(let failure): return .failure(failure.about("the server's name"))
        }
        let version: String?
        switch text(info.server_version, limit: nameLimit) {
        case .success(let text): version = text
        case .failure(let failure): return .failure(failure.about("the server's version"))
        }
        switch text(info.default_sink_name, limit: nameLimit) {
        case .success(let sink): return .success(PulseServerInfo(name: name, version: version, defaultSinkName: sink.flatMap { $0.isEmpty ? nil : $0 }))
        case .failure(let failure): return .failure(failure.about("the default sink's name"))
        }
    }

    /// The sink in `info`, if its name and levels are in range.
    static func sink(_ info: pa_sink_info) -> Result<PulseSink, PulseFailure> {
        let name: String
        switch text(info.name, limit: nameLimit) {
        case .success(let text?) where !text.isEmpty: name = text
        case .success: return .failure(.wrongValue("a sink with no name"))
        case .failure(let failure): return .failure(failure.about("a sink's name"))
        }
        return levels(info.volume, map: info.channel_map, muted: info.mute)
            .map { PulseSink(name: name, levels: $0) }
            .mapError { $0.about("sink “\(BusCallFailure.bounded(name))”") }
    }

    /// The stream in `info` with the values of `keys` it has, if its levels and those values are in range.
    static func stream(_ info: pa_sink_input_info, reading keys: [String]) -> Result<PulseStream, PulseFailure> {
        var properties: [String: String] = [:]
        // pa_proplist_gets asserts on a NULL list.
        for key in keys where info.proplist != nil {
            switch text(pa_proplist_gets(info.proplist, key), limit: propertyLimit) {
            case .success(let value): properties[key] = value
            case .failure(let failure): return .failure(failure.about("stream \(info.index)'s \(key)"))
            }
        }
        return levels(info.volume, map: info.channel_map, muted: info.mute)
            .map { PulseStream(index: info.index, levels: $0, properties: properties) }
            .mapError { $0.about("stream \(info.index)") }
    }

    /// The value of `key` in `proplist` when it is there, UTF-8 and in range.
    private static func property(_ key: String, of proplist: OpaquePointer?) -> String? {
        guard let proplist, case .success(let value) = text(pa_proplist_gets(proplist, key), limit: propertyLimit) else { return nil }
        return value
    }

    /// A sink's or stream's levels, if its volume has 1 to `PA_CHANNELS_MAX` channels, each at
    /// most `PA_VOLUME_MAX`, and its channel map as many channels.
    static func levels(_ volume: pa_cvolume, map: pa_channel_map, muted: Int32) -> Result<OutputLevels, PulseFailure> {
        var volume = volume
        let count = Int(volume.channels)
        guard count >= 1, count <= Int(PA_CHANNELS_MAX) else { return .failure(.wrongValue("a volume of \(count) channels")) }
        guard Int(map.channels) == count else {
            return .failure(.wrongValue("a channel map of \(map.channels) channels for a volume of \(count)"))
        }
        let values = withUnsafeBytes(of: &volume.values) { Array($0.bindMemory(to: pa_volume_t.self).prefix(count)) }
        if let wrong = values.first(where: { $0 > volumeMax }) {
            return .failure(.wrongValue("a channel volume of \(wrong), above the largest (\(volumeMax))"))
        }
        return .success(OutputLevels(channelVolumes: values, isMuted: muted != 0))
    }

    /// `channelVolumes` as libpulse takes them, if there are 1 to `PA_CHANNELS_MAX`, each at
    /// most `PA_VOLUME_MAX`.
    static func cvolume(_ channelVolumes: [UInt32]) -> pa_cvolume? {
        guard (1...Int(PA_CHANNELS_MAX)).contains(channelVolumes.count), channelVolumes.allSatisfy({ $0 <= volumeMax }) else { return nil }
        var volume = pa_cvolume()
        volume.channels = UInt8(channelVolumes.count)
        withUnsafeMutableBytes(of: &volume.values) { raw in
            let values = raw.bindMemory(to: pa_volume_t.self)
            for (index, value) in channelVolumes.enumerated() { values[index] = value }
        }
        return volume
    }

    /// The volume libpulse gives a stream asked to play `decibels` louder than full volume
    /// (`pa_sw_volume_from_dB`: cubic, muted at -200 dB and below); `nil` for a number that is not
    /// one (NaN, which `Double("nan")` reads).
    public static func softwareVolume(decibels: Double) -> UInt32? {
        guard !decibels.isNaN else { return nil }
        return pa_sw_volume_from_dB(decibels)
    }

    /// A C string of at most `limit` bytes, read without looking further (`nil` for NULL).
    static func text(_ pointer: UnsafePointer<CChar>?, limit: Int) -> Result<String?, PulseFailure> {
        guard let pointer else { return .success(nil) }
        let length = strnlen(pointer, limit + 1)
        guard length <= limit else { return .failure(.wrongValue("a text longer than \(limit) bytes")) }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: length)
        guard let text = String(validating: bytes, as: UTF8.self) else { return .failure(.wrongValue("a text that is not UTF-8")) }
        return .success(text)
    }
}

/// Where a `LibPulseConnection` stands.
public enum PulseConnectionState: Sendable, Equatable {
    /// Not connected, and not trying.
    case unconnected
    /// Connecting.
    case connecting
    /// Connected: questions and commands go through.
    case ready
    /// The connection could not be made or was lost.
    case failed(PulseConnectError)
}

/// Why libpulse could not connect, or lost the connection: its error code and sentence.
public struct PulseConnectError: Error, Sendable, Equatable, CustomStringConvertible {
    /// libpulse's error code (`pa_error_code_t`), as `pa_context_errno` gives it.
    public let code: Int32
    /// What it means, in libpulse's words.
    public let message: String

    /// The error `code` as libpulse says it; a code it does not know is said as a number.
    /// `pa_strerror` is asked only within its table: it answers NULL above it, and for
    /// `Int32.min` (whose negation overflows) it reads far outside it.
    public init(code: Int32) {
        self.code = code
        let magnitude = code == Int32.min ? nil : abs(code)
        var said: String?
        if let magnitude, magnitude < Int32(PA_ERR_MAX.rawValue), let text = pa_strerror(magnitude) {
            said = (try? LibPulseConnection.text(text, limit: 256).get()) ?? nil
        }
        message = said ?? "libpulse error \(code)"
    }

    init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// Whether no server listened (libpulse says "Connection refused" for a socket that is
    /// missing and for one nobody listens on alike): a server that comes makes its socket anew.
    public var noServerListens: Bool { code == Int32(PA_ERR_CONNECTIONREFUSED.rawValue) }

    /// libpulse's sentence.
    public var description: String { message }
}

/// A wrong or missing answer from the sound server, or a question it could not be asked.
public enum PulseFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// No connection is ready.
    case noConnection
    /// The server (or libpulse) answered with an error: its sentence.
    case errorReply(String)
    /// A callback with no data where data was due (a NULL info pointer before the end of a list).
    case noInfo
    /// A value the protocol does not allow, or too large to read: what it was.
    case wrongValue(String)

    /// The kind, for `NeighbourFaults` (one line per kind).
    public var kind: String {
        switch self {
        case .noConnection: "no connection"
        case .errorReply: "an error"
        case .noInfo: "no data"
        case .wrongValue: "a value its protocol does not allow"
        }
    }

    /// What came.
    public var description: String {
        switch self {
        case .noConnection: "no connection"
        case .errorReply(let message): "an error (\(message))"
        case .noInfo: "an answer holding no data"
        case .wrongValue(let message): message
        }
    }

    /// The same failure, saying what it was about.
    func about(_ what: String) -> PulseFailure {
        guard case .wrongValue(let message) = self else { return self }
        return .wrongValue("\(message) for \(what)")
    }
}

/// The server's name, version and default sink.
public struct PulseServerInfo: Sendable, Equatable {
    /// "pulseaudio", "PulseAudio (on PipeWire 0.3.65)"; `nil` when it gives none.
    public let name: String?
    /// "16.1", "15.0.0"; `nil` when it gives none.
    public let version: String?
    /// The default output; `nil` when there is none.
    public let defaultSinkName: String?
}

/// One output.
public struct PulseSink: Sendable, Equatable {
    /// Its name, which commands name it by.
    public let name: String
    /// Its mute and every channel's volume.
    public let levels: OutputLevels
}

/// One stream playing to an output.
public struct PulseStream: Sendable, Equatable {
    /// The server's index for it, which commands name it by.
    public let index: UInt32
    /// Its mute and every channel's volume.
    public let levels: OutputLevels
    /// The properties asked for that it has.
    public let properties: [String: String]
}

// MARK: Requests

/// A question to libpulse under way; `LibPulseConnection.underWay` holds it, libpulse its address.
/// `@unchecked Sendable`: it is made, answered and dropped on its connection's thread; the lock
/// around `underWay` only guards the table, which connections on other threads share.
private class Request: @unchecked Sendable {
    weak var connection: LibPulseConnection?
    init(connection: LibPulseConnection) { self.connection = connection }
    /// Answers it with `failure` (libpulse refused the question at once).
    func fail(_ failure: PulseFailure) {}
}

private final class ServerInfoRequest: Request {
    let answer: (PulseServerInfo?) -> Void
    init(connection: LibPulseConnection, answer: @escaping (PulseServerInfo?) -> Void) {
        self.answer = answer
        super.init(connection: connection)
    }
    override func fail(_ failure: PulseFailure) {
        connection?.record(failure, asked: "GetServerInfo")
        answer(nil)
    }
}

private final class SinkListRequest: Request {
    let answer: ([PulseSink]?) -> Void
    var sinks: [PulseSink] = []
    init(connection: LibPulseConnection, answer: @escaping ([PulseSink]?) -> Void) {
        self.answer = answer
        super.init(connection: connection)
    }
    override func fail(_ failure: PulseFailure) {
        connection?.record(failure, asked: "GetSinkInfoList")
        answer(nil)
    }
}

private final class StreamListRequest: Request {
    let key: String
    let value: String
    let keys: [String]
    let answer: ([PulseStream]?) -> Void
    var streams: [PulseStream] = []
    init(connection: LibPulseConnection, key: String, value: String, keys: [String], answer: @escaping ([PulseStream]?) -> Void) {
        self.key = key
        self.value = value
        self.keys = keys
        self.answer = answer
        super.init(connection: connection)
    }
    override func fail(_ failure: PulseFailure) {
        connection?.record(failure, asked: "GetSinkInputInfoList")
        answer(nil)
    }
}

private final class CommandRequest: Request {
    let done: (PulseFailure?) -> Void
    init(connection: LibPulseConnection, done: @escaping (PulseFailure?) -> Void) {
        self.done = done
        super.init(connection: connection)
    }
    override func fail(_ failure: PulseFailure) { done(failure) }
}
