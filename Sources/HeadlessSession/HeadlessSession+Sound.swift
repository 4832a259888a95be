import Foundation

extension HeadlessSession {
    /// Starts recording what is played into the session's sink (the null sink's monitor).
    /// Returns once audio is flowing, so everything played afterwards is in the recording.
    public func startRecording() throws -> SoundRecording {
        try ensureRunning()
        return try SoundRecording.start(launcher: launcher, environment: environment, index: nextRecordingIndex())
    }
}
