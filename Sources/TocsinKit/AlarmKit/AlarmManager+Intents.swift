import Foundation
import TocsinCore

extension AlarmManager {
    /// Removes the alarm, whatever its state; it stops ringing if it rings.
    /// - Throws: `AlarmError.notFound`, `.storageFailed`, `.agentUnavailable`.
    public func cancel(id: Alarm.ID) throws {
        try answer(.cancel, on: id)
    }

    /// Silences the ringing alarm: a one-shot alarm or a timer is then removed, a repeating alarm
    /// waits for its next time. Its `stopIntent` command runs.
    /// - Throws: `AlarmError.invalidState` when it is not ringing, `.notFound`, `.storageFailed`,
    ///   `.agentUnavailable`.
    public func stop(id: Alarm.ID) throws {
        try answer(.stop, on: id)
    }

    /// Holds the counting-down alarm, keeping its remaining time.
    /// - Throws: `AlarmError.invalidState` when it is not counting down, `.notFound`,
    ///   `.storageFailed`, `.agentUnavailable`.
    public func pause(id: Alarm.ID) throws {
        try answer(.pause, on: id)
    }

    /// Counts the paused alarm down again from where it was.
    /// - Throws: `AlarmError.invalidState` when it is not paused, `.notFound`, `.storageFailed`,
    ///   `.agentUnavailable`.
    public func resume(id: Alarm.ID) throws {
        try answer(.resume, on: id)
    }

    /// Snoozes the ringing alarm: it falls silent, counts down its `postAlert` duration, then
    /// rings again — what its `.countdown` secondary button does.
    /// - Throws: `AlarmError.invalidState` when it is not ringing or has no post-alert countdown,
    ///   `.notFound`, `.storageFailed`, `.agentUnavailable`.
    public func countdown(id: Alarm.ID) throws {
        try answer(.countdown, on: id)
    }

    /// Performs `intent` on alarm `id`. Called from one of the app's intents answering a press
    /// (`IntentPerformer`), a call that asks for what the press did already succeeds.
    private func answer(_ intent: AlarmIntent, on id: Alarm.ID) throws(AlarmError) {
        do throws(AlarmError) {
            try perform(intent, on: id)
        } catch {
            guard IntentPerformer.alreadyDone(intent, on: id) else { throw error }
            switch error {
            case .tocsin(.notFound), .tocsin(.invalidState): return
            default: throw error
            }
        }
    }

    /// Performs `intent` on the alarm the application knows as `id`.
    ///
    /// The agent holds alarms scheduled through TocsinKit under the app's id, so one call does;
    /// only when the agent knows no such id does the app's list say whether an alarm carries `id`
    /// in its metadata alone (one scheduled before agents took the caller's id). Otherwise the
    /// agent's NotFound is the answer.
    private func perform(_ intent: AlarmIntent, on id: Alarm.ID) throws(AlarmError) {
        try agent.call { client throws(TocsinError) in
            do throws(TocsinError) {
                try client.perform(intent, on: id)
            } catch {
                guard error.name == .notFound,
                      let agentID = AlarmTranslation.agentAlarm(knownAs: id, in: try client.alarms())?.id, agentID != id
                else { throw error }
                try client.perform(intent, on: agentID)
            }
        }
    }
}
