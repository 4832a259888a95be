import CCanberra
import Foundation
import GLibSupport
import TocsinCore

/// Plays the alarm sound through libcanberra, looped until every ringing alarm has been answered.
///
/// Tocsin rings by itself rather than asking the notification server for a sound, so a server
/// that hides banners or mutes sounds (do-not-disturb) cannot silence an alarm. The context is
/// opened once at start-up because opening it at ring time adds 10–15 ms before the first sample.
///
/// Several alarms may ring at once; one sound plays at a time, that of the alarm that has rung
/// longest, and the sound stops when the last one is answered.
final class Ringer {
    private let log: AgentLog
    private var context: OpaquePointer?
    /// Ringing alarms in the order they started.
    private var ringing: [(id: UUID, sound: AlarmSound)] = []
    /// The playback under way, identified for libcanberra by `playID`.
    private var playback: (playID: UInt32, alarmID: UUID, sound: AlarmSound)?
    private var nextPlayID: UInt32 = 1
    private var retry: TimeoutHandle?
    private var soundServerFailing = false

    /// How long to wait before trying again when no sound could be played.
    private static let retryDelay: Double = 1

    /// A ringer; connects to the sound server at once and says in the log if there is none.
    init(log: AgentLog) {
        self.log = log
        openContext()
    }

    deinit {
        if let context { ca_context_destroy(context) }
    }

    /// Alarm ids currently ringing, oldest first.
    var ringingAlarms: [UUID] { ringing.map(\.id) }

    /// Starts ringing for alarm `id` (no change if it already rings).
    func ring(_ id: UUID, sound: AlarmSound) {
        guard !ringing.contains(where: { $0.id == id }) else { return }
        ringing.append((id, sound))
        if playback == nil { playNext() }
    }

    /// Stops ringing for alarm `id`; the sound stops when no other alarm rings.
    func silence(_ id: UUID) {
        ringing.removeAll { $0.id == id }
        guard let playback, playback.alarmID == id else { return }
        cancelPlayback()
        if !ringing.isEmpty { playNext() }
    }

    private func openContext() {
        var newContext: OpaquePointer?
        guard ca_context_create(&newContext) == 0, let newContext else {
            log.error("libcanberra could not create a context; alarms will be silent.")
            return
        }
        let properties = Self.proplist([
            "application.name": "Tocsin",
            "application.id": "io.github.tocsin.Agent",
        ])
        ca_context_change_props_full(newContext, properties)
        ca_proplist_destroy(properties)
        let result = ca_context_open(newContext)
        if result != 0 {
            reportSoundFailure("Cannot reach a sound server (\(String(cString: ca_strerror(result)))); alarms will ring as soon as one appears.")
        }
        context = newContext
    }

    private func playNext() {
        retry?.cancel()
        retry = nil
        guard let (alarmID, sound) = ringing.first else { return }
        if context == nil { openContext() }
        guard let context else { return scheduleRetry() }
        var result = start(sound, alarmID: alarmID, in: context)
        if result == Int32(CA_ERROR_NOTFOUND) && sound != .standard {
            log.warning("The sound “\(sound.description)” was not found; ringing the default alarm sound instead.")
            result = start(.standard, alarmID: alarmID, in: context)
        }
        guard result != 0 else {
            if soundServerFailing {
                soundServerFailing = false
                log.info("The sound server answers again; ringing.")
            }
            return
        }
        playback = nil
        reportSoundFailure("Could not play the alarm sound: \(String(cString: ca_strerror(result))). Trying again every second while the alarm rings.")
        if [CA_ERROR_DISCONNECTED, CA_ERROR_NOTAVAILABLE, CA_ERROR_STATE, CA_ERROR_NODRIVER].map(Int32.init).contains(result) {
            // The connection is broken for good: start afresh on the next try.
            ca_context_destroy(context)
            self.context = nil
        }
        scheduleRetry()
    }

    private func start(_ sound: AlarmSound, alarmID: UUID, in context: OpaquePointer) -> Int32 {
        let playID = nextPlayID
        nextPlayID &+= 1
        var properties: [String: String] = ["media.role": "alarm"]
        switch sound {
        case .standard: properties["event.id"] = AlarmSound.standardEventID
        case .themeEvent(let id): properties["event.id"] = id
        case .file(let path):
            properties["media.filename"] = path
            properties["canberra.cache-control"] = "volatile"
        }
        let proplist = Self.proplist(properties)
        defer { ca_proplist_destroy(proplist) }
        playback = (playID, alarmID, sound)
        return ca_context_play_full(context, playID, proplist, Self.finished, Unmanaged.passUnretained(self).toOpaque())
    }

    private func cancelPlayback() {
        if let playback, let context {
            ca_context_cancel(context, playback.playID)
        }
        playback = nil
    }

    /// Runs on the main loop after libcanberra reported the end of playback `playID`.
    private func playbackEnded(_ playID: UInt32, result: Int32) {
        guard let playback, playback.playID == playID else { return }  // cancelled or superseded
        self.playback = nil
        if result == 0 || result == Int32(CA_ERROR_CANCELED) {
            playNext()  // loop the sound while the alarm rings
        } else {
            reportSoundFailure("The alarm sound stopped: \(String(cString: ca_strerror(result))). Trying again every second while the alarm rings.")
            if let context { ca_context_destroy(context) }
            context = nil
            scheduleRetry()
        }
    }

    private func scheduleRetry() {
        guard !ringing.isEmpty, retry == nil else { return }
        retry = MainLoop.after(seconds: Self.retryDelay) { [unowned self] in
            retry = nil
            if playback == nil { playNext() }
        }
    }

    private func reportSoundFailure(_ message: String) {
        if !soundServerFailing { log.warning(message) }
        soundServerFailing = true
    }

    /// libcanberra calls this on its own thread: hop to the main loop before touching state.
    private static let finished: ca_finish_callback_t = { _, playID, result, userData in
        let ringerPointer = UInt(bitPattern: userData)
        MainLoop.post {
            let ringer = Unmanaged<Ringer>.fromOpaque(UnsafeRawPointer(bitPattern: ringerPointer)!).takeUnretainedValue()
            ringer.playbackEnded(playID, result: result)
        }
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
