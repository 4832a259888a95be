import Foundation

extension HeadlessSession {
    /// Starts recording what is played into the session's sink (the null sink's monitor).
    /// Returns once audio is flowing, so everything played afterwards is in the recording.
    public func startRecording() throws -> SoundRecording {
        try ensureRunning()
        return try SoundRecording.start(launcher: launcher, environment: environment, index: nextRecordingIndex())
    }

    /// Starts recording what is played into `sink` (its monitor), e.g. a second null sink made
    /// with `loadNullSink(named:)`. Returns once audio is flowing.
    public func startRecording(of sink: String) throws -> SoundRecording {
        try ensureRunning()
        return try SoundRecording.start(launcher: launcher, environment: environment, index: nextRecordingIndex(), sink: sink)
    }

    /// Whether the sound server is running (every one of its processes), i.e. not stopped with
    /// `stopSoundServer()` and not crashed.
    public var soundServerIsRunning: Bool { soundControl.isRunning }

    /// Ends the sound server's processes (on PipeWire the silence stream, pipewire-pulse,
    /// wireplumber, then pipewire), as a crash would leave the session: clients lose their
    /// connection and pactl gets no answer. `restartSoundServer()` starts it again.
    public func stopSoundServer() {
        soundControl.stop()
    }

    /// Stops the sound server (if running) and starts it again, as an update or a user's
    /// `systemctl --user restart` would: on PipeWire all three, pipewire, wireplumber and
    /// pipewire-pulse, in that order (the other two need pipewire, and restarting WirePlumber
    /// alone has been seen to leave the null sink's streams timing out). Returns
    /// once it is as ready as at the session's start: `tocsin_null` made again and default, the
    /// silence stream playing, at the same address. Sinks made with `loadNullSink` are gone, and
    /// volumes and mutes are those of a fresh sink (WirePlumber's remembered stream volumes stay,
    /// in the session's XDG_STATE_HOME, as on a desktop). Throws `componentFailed` naming the
    /// part that did not start.
    public func restartSoundServer() throws {
        try ensureRunning()
        try soundControl.restart()
    }
}
