import FoundationEssentials
import Glibc
import GLibSupport
import TocsinCore
import TocsinEdge

/// Decides what rings: the alarm sound, looped until every ringing alarm has been answered.
///
/// Tocsin rings by itself rather than asking the notification server for a sound, so a server
/// that hides banners or mutes sounds (do-not-disturb) cannot silence an alarm. The sound server
/// connection is opened at start-up because opening it at ring time adds 10–15 ms before the
/// first sample; `SoundPlayer` does the libcanberra calls off the main loop.
///
/// Several alarms may ring at once; one sound plays at a time, that of the alarm that has rung
/// longest, and the sound stops when the last one is answered. Lives on the main loop's thread.
final class Ringer {
    private let log: AgentLog
    private var player: SoundPlayer!
    /// Ringing alarms in the order they started.
    private var ringing: [(id: UUID, ring: AlarmRing)] = []
    /// How far below its volume a crescendo starts: -30 dB is a thirtieth of the loudness.
    private static let crescendoDepth = 30.0
    /// The playback under way, identified for libcanberra by `playID`.
    private var playback: (playID: UInt32, alarmID: UUID, sound: AlarmSound)?
    private var nextPlayID: UInt32 = 1
    private var retry: TimeoutHandle?
    /// Why no sound can be played, while that is so; shown in ringing notifications and by
    /// `tocsin doctor`.
    private(set) var soundProblem: String? {
        didSet { if soundProblem != oldValue { onSoundProblemChange() } }
    }
    /// Called when `soundProblem` appears or clears.
    var onSoundProblemChange: () -> Void = {}
    /// Called with `true` when the first alarm starts ringing and `false` when the last one stops.
    var onRingingChange: (Bool) -> Void = { _ in }

    /// How long to wait before trying again when no sound could be played.
    private static let retryDelay: Double = 1

    /// A ringer; connects to the sound server at once and says in the log if there is none.
    init(log: AgentLog) {
        self.log = log
        // Reports arrive on the player's thread and hop to the main loop; the ringer lives as
        // long as the agent, so an unretained address is safe to carry across.
        let address = UInt(bitPattern: Unmanaged.passUnretained(self).toOpaque())
        @Sendable func onMainLoop(_ body: @escaping @Sendable (Ringer) -> Void) {
            MainLoop.post {
                body(Unmanaged<Ringer>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).takeUnretainedValue())
            }
        }
        player = SoundPlayer(
            onStarted: { playID, result in onMainLoop { $0.started(playID, result: result) } },
            onFinished: { playID, result in onMainLoop { $0.playbackEnded(playID, result: result) } })
        player.open { result in
            guard !result.succeeded else { return }
            onMainLoop { ringer in
                ringer.reportSoundFailure("Cannot reach a sound server (\(SoundPlayer.describe(result))); alarms will ring as soon as one appears.",
                                          problem: "no sound server reachable (\(SoundPlayer.describe(result)))")
            }
        }
    }

    /// Alarm ids currently ringing, oldest first.
    var ringingAlarms: [UUID] { ringing.map(\.id) }

    /// Starts ringing for alarm `id` (no change if it already rings).
    func ring(_ id: UUID, _ ring: AlarmRing) {
        guard !ringing.contains(where: { $0.id == id }) else { return }
        ringing.append((id, ring))
        if ringing.count == 1 { onRingingChange(true) }
        if playback == nil { playNext() }
    }

    /// Stops ringing for alarm `id`; the sound stops when no other alarm rings.
    func silence(_ id: UUID) {
        let wasRinging = !ringing.isEmpty
        ringing.removeAll { $0.id == id }
        if wasRinging && ringing.isEmpty { onRingingChange(false) }
        guard let playback, playback.alarmID == id else { return }
        player.cancel(playback.playID)
        self.playback = nil
        if !ringing.isEmpty { playNext() }
    }

    private func playNext(replacingSoundWithStandard: Bool = false) {
        retry?.cancel()
        retry = nil
        guard let (alarmID, ring) = ringing.first else { return }
        let sound = replacingSoundWithStandard ? .standard : ring.sound
        let playID = nextPlayID
        nextPlayID &+= 1
        playback = (playID, alarmID, sound)
        // libcanberra cannot change the volume of a sound that plays: a crescendo rises each
        // time the sound starts again. The stream carries the gain it was asked to play at
        // (`SoundOutputLink.requestedGainProperty`; libcanberra passes its properties on to the
        // sound server's stream, but not `canberra.volume`), so that a volume the server
        // remembers for Tocsin and puts over it (WirePlumber does) can be seen and undone.
        let gain = fixedPointText(Self.decibels(of: ring, at: Date()), fractionDigits: 2)
        var properties = ["media.role": "alarm", "canberra.volume": gain, SoundOutputLink.requestedGainProperty: gain]
        switch sound {
        case .standard: properties["event.id"] = AlarmSound.standardEventID
        case .themeEvent(let id): properties["event.id"] = id
        case .file(let path):
            properties["media.filename"] = path
            properties["canberra.cache-control"] = "volatile"
        }
        player.play(playID, properties: properties)
    }

    private func started(_ playID: UInt32, result: CanberraResult) {
        guard let playback, playback.playID == playID else { return }
        if result.succeeded {
            if soundProblem != nil {
                soundProblem = nil
                log.info("The sound server plays again.")
            }
            return
        }
        self.playback = nil
        if result == SoundPlayer.notFound && playback.sound != .standard {
            log.warning("The sound “\(playback.sound.description)” was not found; ringing the default alarm sound instead.")
            if let index = ringing.firstIndex(where: { $0.id == playback.alarmID }) {
                ringing[index].ring.sound = .standard
            }
            playNext()
            return
        }
        reportSoundFailure("Could not play the alarm sound: \(SoundPlayer.describe(result)). Trying again every second while the alarm rings.",
                           problem: "the sound could not be played (\(SoundPlayer.describe(result))); retrying")
        scheduleRetry()
    }

    /// Runs on the main loop after libcanberra reported the end of playback `playID`.
    private func playbackEnded(_ playID: UInt32, result: CanberraResult) {
        guard let playback, playback.playID == playID else { return }  // cancelled or superseded
        self.playback = nil
        if result.succeeded || result == SoundPlayer.cancelled {
            playNext()  // loop the sound while the alarm rings
        } else {
            reportSoundFailure("The alarm sound stopped: \(SoundPlayer.describe(result)). Trying again every second while the alarm rings.",
                               problem: "the sound device went away (\(SoundPlayer.describe(result))); retrying")
            player.reset()
            scheduleRetry()
        }
    }

    /// The gain in decibels for `ring` at `now`: its volume, less the part of the crescendo
    /// still to come.
    static func decibels(of ring: AlarmRing, at now: Date) -> Double {
        let target = 20 * log10(ring.volume ?? 1)
        guard let crescendo = ring.crescendo, crescendo > 0 else { return target }
        let progress = min(1, max(0, now.timeIntervalSince(ring.since) / crescendo))
        return target - crescendoDepth * (1 - progress)
    }

    private func scheduleRetry() {
        guard !ringing.isEmpty, retry == nil else { return }
        retry = MainLoop.after(seconds: Self.retryDelay) { [unowned self] in
            retry = nil
            if playback == nil { playNext() }
        }
    }

    private func reportSoundFailure(_ message: String, problem: String) {
        if soundProblem == nil { log.warning(message) }
        soundProblem = problem
    }
}
