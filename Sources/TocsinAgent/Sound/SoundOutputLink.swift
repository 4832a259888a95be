import FoundationEssentials
import Glibc
import GLibSupport
import TocsinCore
import TocsinEdge

/// The agent's link to the sound server's outputs (`LibPulseConnection`, on the agent's own
/// GLib main loop): it reports the server, the default output and every output's mute and volume
/// whenever one of them changes, and sets an output's mute and volume when the decider says so.
/// PipeWire desktops serve the same protocol through pipewire-pulse, so one client covers both.
///
/// Nothing here waits: the questions are asynchronous and their answers come back on the main
/// loop. It never starts a sound server; with none, or when the server goes away, it reports
/// `nil` and waits for one without polling: `PulseServerWatch` says when a socket where libpulse
/// looks appears, and only then does it connect again (an idle agent with no sound server wakes
/// for nothing). A server the watch cannot see (`tcp:` in PULSE_SERVER), or one whose socket is
/// there but that did not let the agent in, is tried again after `retryDelay(after:)`, each time longer.
/// It reports the server again once it answers. Lives on the main loop's thread.
final class SoundOutputLink {
    /// Called with what the server says of its outputs, each time it changes; `nil` while no
    /// server answers.
    var onReport: (SoundOutputReport?) -> Void = { _ in }

    private let log: AgentLog
    private let connection: LibPulseConnection
    private let address: PulseServerAddress
    private let watch: PulseServerWatch
    /// What was last reported, so that a change that touches nothing reported is not reported.
    private var lastReport: SoundOutputReport??
    /// A refresh is under way; `refreshAgain`: news came during it.
    private var refreshing = false
    private var refreshAgain = false
    private var retry: TimeoutHandle?
    /// How many retries in a row have been scheduled since the server last answered.
    private var retries = 0
    /// Whether the one quick retry after a refusal has been made since the watch last saw a
    /// socket appear: a server binds its socket a moment before it listens, and a socket may
    /// appear between a refusal and the watch starting; a stale socket a crashed server left
    /// costs that one retry, not one every half second.
    private var quickRetryMade = false
    /// The server is known to be out of reach (logged once until it answers again).
    private var serverMissing = false

    /// The stream property in which the ringer writes the gain, in decibels, it asked libcanberra
    /// to play a stream at.
    static let requestedGainProperty = "tocsin.volume-db"
    /// The stream property libcanberra gives the process id of the stream's program in.
    private static let processIDProperty = "application.process.id"

    /// How long to wait before trying the server again when no socket's appearance can tell:
    /// 2 s, then twice as long each time, at most 5 minutes.
    static func retryDelay(after retries: Int) -> Double {
        min(300, 2 * Double(1 << min(retries, 8)))
    }
    /// How soon the quick retry comes.
    private static let quickRetryDelay = 0.5

    /// Connects to the sound server at once; the first report follows when it answers. Wrong
    /// answers from the server go to `faults`.
    init(log: AgentLog, faults: NeighbourFaults, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.log = log
        connection = LibPulseConnection(applicationName: "Tocsin", faults: faults)
        address = PulseServerAddress.current(environment: environment)
        watch = PulseServerWatch(sockets: address.sockets)
        connection.onStateChange = { [unowned self] state in stateChanged(state) }
        connection.onOutputsChanged = { [unowned self] in refresh() }
        watch.onAppeared = { [unowned self] in
            quickRetryMade = false
            connection.connect()
        }
        connection.connect()
    }

    deinit {
        retry?.cancel()
        watch.stop()
        connection.disconnect()
    }

    /// Sets output `sink` to `levels`. What becomes quieter goes first (a mute before the volume
    /// it hides, a lower volume before an unmute), so putting an output back never lets out a
    /// burst of sound.
    func set(sink: String, levels: OutputLevels) {
        guard connection.state == .ready else {
            log.warning("Could not set output “\(sink)”: no sound server answers.")
            return
        }
        // A reading under way may answer with what the output was before this: read again after it.
        if refreshing { refreshAgain = true }
        let done = setDone("output “\(sink)”")
        if levels.isMuted { connection.setSinkMute(sink, true, done: done) }
        connection.setSinkVolume(sink, levels.channelVolumes, done: done)
        if !levels.isMuted { connection.setSinkMute(sink, false, done: done) }
    }

    /// Sets the agent's own stream `index`: its volume first, then the unmute.
    func setStream(_ index: UInt32, levels: OutputLevels) {
        guard connection.state == .ready else { return }
        if refreshing { refreshAgain = true }
        let done = setDone("the alarm's own stream")
        connection.setStreamVolume(index, levels.channelVolumes, done: done)
        connection.setStreamMute(index, levels.isMuted, done: done)
    }

    /// Says a refused set in the log: a refusal (PipeWire's block-sink-volume quirk answers
    /// EPERM) or a sink gone. The alarm still rings, at the output's own level.
    private func setDone(_ what: String) -> (PulseFailure?) -> Void {
        { [log] failure in
            guard let failure else { return }
            switch failure {
            case .errorReply(let message): log.warning("Could not set \(what): \(message).")
            default: log.warning("Could not set \(what): \(failure).")
            }
        }
    }

    // MARK: Connection

    private func stateChanged(_ state: PulseConnectionState) {
        switch state {
        case .ready:
            if serverMissing { log.info("The sound server answers again.") }
            serverMissing = false
            retries = 0
            quickRetryMade = false
            retry?.cancel()
            retry = nil
            watch.stop()
            connection.subscribeToOutputChanges()
            refresh()
        case .failed(let error):
            lost(error)
        case .unconnected, .connecting:
            break
        }
    }

    /// The server is out of reach (`error`): said once, reported as `nil`, and waited for.
    private func lost(_ error: PulseConnectError) {
        refreshing = false
        refreshAgain = false
        if !serverMissing {
            log.warning("No sound server answers (\(error.message)); a muted or turned-down output cannot be raised for an alarm until one does.")
        }
        serverMissing = true
        report(nil)
        watch.start()
        retry?.cancel()
        retry = nil
        if error.noServerListens && watch.canWatch && !address.hasUnwatchable {
            // Nobody listens: a server that starts makes its socket anew, which the watch sees.
            // A socket that is there may be one that does not listen yet: once more, shortly.
            if !quickRetryMade && watch.anySocketExists {
                quickRetryMade = true
                retry = MainLoop.after(seconds: Self.quickRetryDelay) { [weak self] in self?.tryAgain() }
            }
            return
        }
        // A server the watch cannot see, or one that is there and did not let the agent in.
        let delay = Self.retryDelay(after: retries)
        retries += 1
        retry = MainLoop.after(seconds: delay) { [weak self] in self?.tryAgain() }
    }

    private func tryAgain() {
        retry = nil
        connection.connect()
    }

    // MARK: Reading the outputs

    /// Reads the server, then every sink, then the agent's own streams, and reports them; news
    /// that comes meanwhile makes it read again once it is done. An answer that does not come
    /// right (said once by the connection) ends the reading without a report.
    private func refresh() {
        guard connection.state == .ready else { return }
        guard !refreshing else {
            refreshAgain = true
            return
        }
        refreshing = true
        refreshAgain = false
        connection.serverInfo { [weak self] server in
            guard let self, refreshing else { return }
            guard let server else { return refreshed() }
            let name = server.name ?? "an unnamed sound server"
            let version = server.version ?? ""
            var reading = SoundOutputReport(server: version.isEmpty ? name : "\(name) \(version)", defaultSink: server.defaultSinkName, sinks: [:])
            connection.sinks { [weak self] sinks in
                guard let self, refreshing else { return }
                guard let sinks else { return refreshed() }
                for sink in sinks { reading.sinks[sink.name] = sink.levels }
                connection.streams(whose: Self.processIDProperty, is: Self.ownProcessID, reading: [Self.requestedGainProperty]) { [weak self] streams in
                    guard let self, refreshing else { return }
                    guard let streams else { return refreshed() }
                    for stream in streams {
                        // The gain the ringer asked for, as the volume the server would have given the stream.
                        let requested = stream.properties[Self.requestedGainProperty].flatMap(Double.init).flatMap(LibPulseConnection.softwareVolume(decibels:))
                        reading.ownStreams[stream.index] = OwnStream(levels: stream.levels, requested: requested)
                    }
                    report(reading)
                    refreshed()
                }
            }
        }
    }

    /// This process's id as libcanberra's streams carry it (`application.process.id`).
    private static let ownProcessID = String(getpid())

    private func refreshed() {
        refreshing = false
        if refreshAgain { refresh() }
    }

    private func report(_ report: SoundOutputReport?) {
        guard lastReport != .some(report) else { return }
        lastReport = .some(report)
        onReport(report)
    }
}
