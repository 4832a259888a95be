import Foundation
import TocsinCore

extension AlarmManager {
    /// Removes the alarm, whatever its state; it stops ringing if it rings.
    /// - Throws: `AlarmError.notFound`, `.storageFailed`, `.agentUnavailable`.
    public func cancel(id: Alarm.ID) throws(AlarmError) {
        try perform(.cancel, on: id)
    }

    /// Silences the ringing alarm: a one-shot alarm or a timer is then removed, a repeating alarm
    /// waits for its next time. Its `stopIntent` command runs.
    /// - Throws: `AlarmError.invalidState` when it is not ringing, `.notFound`, `.storageFailed`,
    ///   `.agentUnavailable`.
    public func stop(id: Alarm.ID) throws(AlarmError) {
        try perform(.stop, on: id)
    }

    /// Holds the counting-down alarm, keeping its remaining time.
    /// - Throws: `AlarmError.invalidState` when it is not counting down, `.notFound`,
    ///   `.storageFailed`, `.agentUnavailable`.
    public func pause(id: Alarm.ID) throws(AlarmError) {
        try perform(.pause, on: id)
    }

    /// Counts the paused alarm down again from where it was.
    /// - Throws: `AlarmError.invalidState` when it is not paused, `.notFound`, `.storageFailed`,
    ///   `.agentUnavailable`.
    public func resume(id: Alarm.ID) throws(AlarmError) {
        try perform(.resume, on: id)
    }

    /// Snoozes the ringing alarm: it falls silent, counts down its `postAlert` duration, then
    /// rings again — what its `.countdown` secondary button does.
    /// - Throws: `AlarmError.invalidState` when it is not ringing or has no post-alert countdown,
    ///   `.notFound`, `.storageFailed`, `.agentUnavailable`.
    public func countdown(id: Alarm.ID) throws(AlarmError) {
        try perform(.countdown, on: id)
    }

    /// Performs `intent` on the alarm the application knows as `id`. An id no alarm of the
    /// application carries goes to the agent as it is, so the agent's answer (usually NotFound)
    /// is the one the caller gets.
    private func perform(_ intent: AlarmIntent, on id: Alarm.ID) throws(AlarmError) {
        try agent.call { client throws(TocsinClientError) in
            let agentID = AlarmTranslation.agentAlarm(knownAs: id, in: try client.alarms())?.id ?? id
            try client.perform(intent, on: agentID)
        }
    }
}
