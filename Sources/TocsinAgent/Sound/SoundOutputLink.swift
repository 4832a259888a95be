import CPulse
import FoundationEssentials
import Glibc
import GLibSupport
import TocsinCore

/// The agent's link to the sound server's outputs, through libpulse on the agent's own GLib main
/// loop (`pa_glib_mainloop`): it reports the server, the default output and every output's mute
/// and volume whenever one of them changes, and sets an output's mute and volume when the
/// decider says so. PipeWire desktops serve the same protocol through pipewire-pulse, so one
/// client covers both.
///
/// Nothing here waits: libpulse's calls are asynchronous and their answers come back on the
/// main loop. It never starts a sound server (`PA_CONTEXT_NOAUTOSPAWN`); with none, or when the
/// server goes away, it reports `nil` and tries again every `retryDelay` seconds, and reports the
/// server again once it answers. Lives on the main loop's thread.
final class SoundOutputLink {
    /// Called with what the server says of its outputs, each time it changes; `nil` while no
    /// server answers.
    var onReport: (SoundOutputReport?) -> Void = { _ in }

    private let log: AgentLog
    private let mainloop: OpaquePointer
    private var context: OpaquePointer?
    /// What was last reported, so that a change that touches nothing reported is not reported.
    private var lastReport: SoundOutputReport??
    /// A refresh is under way; `refreshAgain`: news came during it.
    private var refreshing = false
    private var refreshAgain = false
    /// What the refresh under way has read so far.
    private var reading: SoundOutputReport?
    private var retry: TimeoutHandle?
    /// The server is known to be out of reach (logged once until it answers again).
    private var serverMissing = false

    /// The stream property in which the ringer writes the gain, in decibels, it asked libcanberra
    /// to play a stream at.
    static let requestedGainProperty = "tocsin.volume-db"

    /// How long to wait before trying the server again.
    private static let retryDelay: Double = 2

    /// Connects to the sound server at once; the first report follows when it answers.
    init(log: AgentLog) {
        self.log = log
        mainloop = pa_glib_mainloop_new(nil)
        connect()
    }

    deinit {
        retry?.cancel()
        disconnect()
        pa_glib_mainloop_free(mainloop)
    }

    /// Sets output `sink` to `levels`. What becomes quieter goes first (a mute before the volume
    /// it hides, a lower volume before an unmute), so putting an output back never lets out a
    /// burst of sound.
    func set(sink: String, levels: OutputLevels) {
        guard let context, pa_context_get_state(context) == PA_CONTEXT_READY else {
            log.warning("Could not set output “\(sink)”: no sound server answers.")
            return
        }
        var volume = Self.cvolume(levels)
        // A reading under way may answer with what the output was before this: read again after it.
        if refreshing { refreshAgain = true }
        if levels.isMuted { setMute(sink, true, on: context) }
        track(pa_context_set_sink_volume_by_name(context, sink, &volume, Self.setDone,
                                                 Unmanaged.passRetained(SetBox(link: self, what: "output “\(sink)”")).toOpaque()))
        if !levels.isMuted { setMute(sink, false, on: context) }
    }

    private func setMute(_ sink: String, _ muted: Bool, on context: OpaquePointer) {
        track(pa_context_set_sink_mute_by_name(context, sink, muted ? 1 : 0, Self.setDone,
                                               Unmanaged.passRetained(SetBox(link: self, what: "output “\(sink)”")).toOpaque()))
    }

    /// Sets the agent's own stream `index`: its volume first, then the unmute.
    func setStream(_ index: UInt32, levels: OutputLevels) {
        guard let context, pa_context_get_state(context) == PA_CONTEXT_READY else { return }
        if refreshing { refreshAgain = true }
        var volume = Self.cvolume(levels)
        track(pa_context_set_sink_input_volume(context, index, &volume, Self.setDone,
                                               Unmanaged.passRetained(SetBox(link: self, what: "the alarm's own stream")).toOpaque()))
        track(pa_context_set_sink_input_mute(context, index, levels.isMuted ? 1 : 0, Self.setDone,
                                             Unmanaged.passRetained(SetBox(link: self, what: "the alarm's own stream")).toOpaque()))
    }

    /// The levels of a sink or stream as libpulse gives them: its channel volumes and mute switch.
    private static func levels(_ volume: pa_cvolume, muted: Int32) -> OutputLevels {
        var volume = volume
        let count = Int(volume.channels)
        let volumes = withUnsafeBytes(of: &volume.values) { Array($0.bindMemory(to: pa_volume_t.self).prefix(count)) }
        return OutputLevels(channelVolumes: volumes, isMuted: muted != 0)
    }

    /// `levels`' channel volumes as libpulse takes them.
    private static func cvolume(_ levels: OutputLevels) -> pa_cvolume {
        var volume = pa_cvolume()
        volume.channels = UInt8(min(levels.channelVolumes.count, Int(PA_CHANNELS_MAX)))
        withUnsafeMutableBytes(of: &volume.values) { raw in
            let values = raw.bindMemory(to: pa_volume_t.self)
            for (index, value) in levels.channelVolumes.prefix(values.count).enumerated() { values[index] = value }
        }
        return volume
    }

    // MARK: Connection

    private func connect() {
        let api = pa_glib_mainloop_get_api(mainloop)
        guard let context = pa_context_new(api, "Tocsin") else {
            log.error("Could not make a sound server connection (libpulse); a muted output will not be raised.")
            return
        }
        self.context = context
        pa_context_set_state_callback(context, { context, userData in
            Unmanaged<SoundOutputLink>.fromOpaque(userData!).takeUnretainedValue().stateChanged(context!)
        }, Unmanaged.passUnretained(self).toOpaque())
        if pa_context_connect(context, nil, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
            lost(reason: String(cString: pa_strerror(pa_context_errno(context))))
        }
    }

    private func disconnect() {
        guard let context else { return }
        pa_context_set_state_callback(context, nil, nil)
        pa_context_set_subscribe_callback(context, nil, nil)
        pa_context_disconnect(context)
        pa_context_unref(context)
        self.context = nil
        refreshing = false
        refreshAgain = false
        reading = nil
    }

    private func stateChanged(_ context: OpaquePointer) {
        switch pa_context_get_state(context) {
        case PA_CONTEXT_READY:
            if serverMissing { log.info("The sound server answers again.") }
            serverMissing = false
            pa_context_set_subscribe_callback(context, { _, _, _, userData in
                Unmanaged<SoundOutputLink>.fromOpaque(userData!).takeUnretainedValue().refresh()
            }, Unmanaged.passUnretained(self).toOpaque())
            let mask = pa_subscription_mask_t(rawValue: PA_SUBSCRIPTION_MASK_SINK.rawValue | PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue
                                              | PA_SUBSCRIPTION_MASK_SERVER.rawValue)
            track(pa_context_subscribe(context, mask, nil, nil))
            refresh()
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            lost(reason: String(cString: pa_strerror(pa_context_errno(context))))
        default:
            break
        }
    }

    /// The server is out of reach (`reason`): said once, reported as `nil`, tried again later.
    private func lost(reason: String) {
        // Deferred: libpulse is inside this context's callback, which must not free it.
        MainLoop.post { [weak self] in
            guard let self else { return }
            disconnect()
            if !serverMissing {
                log.warning("No sound server answers (\(reason)); a muted or turned-down output cannot be raised for an alarm until one does.")
            }
            serverMissing = true
            report(nil)
            retry?.cancel()
            retry = MainLoop.after(seconds: Self.retryDelay) { [weak self] in
                self?.retry = nil
                self?.connect()
            }
        }
    }

    // MARK: Reading the outputs

    /// Reads the server, then every sink, and reports them; news that comes meanwhile makes it
    /// read again once it is done.
    private func refresh() {
        guard let context, pa_context_get_state(context) == PA_CONTEXT_READY else { return }
        guard !refreshing else {
            refreshAgain = true
            return
        }
        refreshing = true
        refreshAgain = false
        track(pa_context_get_server_info(context, { _, info, userData in
            Unmanaged<SoundOutputLink>.fromOpaque(userData!).takeUnretainedValue().read(server: info)
        }, Unmanaged.passUnretained(self).toOpaque()))
    }

    private func read(server info: UnsafePointer<pa_server_info>?) {
        guard let info, let context else { return refreshed() }
        let name = info.pointee.server_name.map { String(cString: $0) } ?? "an unnamed sound server"
        let version = info.pointee.server_version.map { String(cString: $0) } ?? ""
        reading = SoundOutputReport(server: version.isEmpty ? name : "\(name) \(version)",
                                    defaultSink: info.pointee.default_sink_name.map { String(cString: $0) }, sinks: [:])
        track(pa_context_get_sink_info_list(context, { _, info, endOfList, userData in
            let link = Unmanaged<SoundOutputLink>.fromOpaque(userData!).takeUnretainedValue()
            if endOfList != 0 { return link.readStreams() }
            guard let info else { return }
            link.read(sink: info.pointee)
        }, Unmanaged.passUnretained(self).toOpaque()))
    }

    /// Reads the streams that play, keeping the agent's own.
    private func readStreams() {
        guard let context else { return refreshed() }
        track(pa_context_get_sink_input_info_list(context, { _, info, endOfList, userData in
            let link = Unmanaged<SoundOutputLink>.fromOpaque(userData!).takeUnretainedValue()
            if endOfList != 0 { return link.finishReading() }
            guard let info else { return }
            link.read(stream: info.pointee)
        }, Unmanaged.passUnretained(self).toOpaque()))
    }

    /// This process's id as libcanberra's streams carry it (`application.process.id`).
    private static let ownProcessID = String(getpid())

    private func read(stream info: pa_sink_input_info) {
        guard let pid = pa_proplist_gets(info.proplist, "application.process.id"), String(cString: pid) == Self.ownProcessID else { return }
        // The gain the ringer asked for, as the volume the server would have given the stream.
        let requested = pa_proplist_gets(info.proplist, Self.requestedGainProperty)
            .flatMap { Double(String(cString: $0)) }
            .map { pa_sw_volume_from_dB($0) }
        reading?.ownStreams[info.index] = OwnStream(levels: Self.levels(info.volume, muted: info.mute), requested: requested)
    }

    private func read(sink info: pa_sink_info) {
        guard let name = info.name.map({ String(cString: $0) }) else { return }
        reading?.sinks[name] = Self.levels(info.volume, muted: info.mute)
    }

    private func finishReading() {
        if let reading { report(reading) }
        refreshed()
    }

    private func refreshed() {
        refreshing = false
        reading = nil
        if refreshAgain { refresh() }
    }

    private func report(_ report: SoundOutputReport?) {
        guard lastReport != .some(report) else { return }
        lastReport = .some(report)
        onReport(report)
    }

    // MARK: libpulse's operations

    /// Lets go of an operation libpulse runs on (its callback still comes).
    private func track(_ operation: OpaquePointer?) {
        if let operation { pa_operation_unref(operation) }
    }

    /// What a set was for, to say so if it fails.
    private final class SetBox {
        unowned let link: SoundOutputLink
        let what: String
        init(link: SoundOutputLink, what: String) {
            self.link = link
            self.what = what
        }
    }

    private static let setDone: pa_context_success_cb_t = { context, success, userData in
        let box = Unmanaged<SetBox>.fromOpaque(userData!).takeRetainedValue()
        guard success == 0, let context else { return }
        // A refusal (PipeWire's block-sink-volume quirk answers EPERM) or a sink gone: the alarm
        // still rings, at the output's own level.
        box.link.log.warning("Could not set \(box.what): \(String(cString: pa_strerror(pa_context_errno(context)))).")
    }
}
