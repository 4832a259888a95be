import Foundation
import TocsinCore

extension AlarmManager {
    /// Schedules the alarm or timer `configuration` describes, under `id`, and returns it as the
    /// agent now holds it (a timer is already counting down).
    ///
    /// The application's first schedule waits until the user answers the consent question (a
    /// notification with Allow / Don't Allow), up to five minutes; ask first with
    /// `requestAuthorization()` to choose the moment.
    ///
    /// - Parameters:
    ///   - id: the alarm's id from now on, in every answer and for every method here. Choose a new
    ///     one (`UUID()`); an id this application already uses is refused.
    ///   - configuration: what to schedule.
    /// - Throws: `AlarmError.notAuthorized` (the user did not allow it), `.maximumLimitReached`,
    ///   `.invalidArgument` (a time in the past, a sound file that cannot be read…),
    ///   `.metadataTooLarge`, `.storageFailed`, `.agentUnavailable`.
    @discardableResult
    public func schedule<Metadata>(id: Alarm.ID, configuration: AlarmConfiguration<Metadata>) async throws -> Alarm {
        let request = try ScheduleRequestBuilder.request(for: configuration, id: id)
        // Listening before the alarm exists, so no press of its buttons is missed.
        if ScheduleRequestBuilder.appIntent(configuration.stopIntent) != nil || ScheduleRequestBuilder.appIntent(configuration.secondaryIntent) != nil {
            startListening()
        }
        // The agent gives the alarm this very id, and refuses one already in use.
        let scheduled = try await agent.callOffThread { client throws(TocsinError) -> TocsinCore.Alarm in
            try client.alarm(try client.schedule(request))
        } mapError: { error in
            AlarmError(error, schedulingMetadata: request.metadata)
        }
        return AlarmTranslation.kitAlarm(scheduled)
    }
}
