import Foundation
import TocsinCore

/// Reads the agent's alarms (`TocsinCore.Alarm`) as AlarmKit's (`AlarmManager.Alarm`), and finds
/// an agent alarm by the id the application gave it.
enum AlarmTranslation {
    /// `alarm` as the application sees it: with the id it chose, the schedule in the form it
    /// wrote, and its countdowns.
    static func kitAlarm(_ alarm: TocsinCore.Alarm) -> AlarmManager.Alarm {
        let header = alarm.metadata.flatMap(AlarmMetadataEnvelope.header(from:))
        // The agent stores "no pre-alert" as 0 and "cannot be snoozed" as nil; AlarmKit says nil for both.
        let preAlert = alarm.countdownDuration > 0 ? alarm.countdownDuration : nil
        let countdownDuration = preAlert == nil && alarm.snoozeDuration == nil
            ? nil : AlarmManager.Alarm.CountdownDuration(preAlert: preAlert, postAlert: alarm.snoozeDuration)
        let id = header?.id ?? alarm.id
        let waitingUntil: Date? = if case .scheduled(let fireDate) = alarm.state { fireDate } else { nil }
        let readBack = alarm.schedule.map { ScheduleTranslation.readBack($0, relativeOnce: header?.relative == true, fireDate: waitingUntil) }
        return AlarmManager.Alarm(
            id: id,
            schedule: readBack?.schedule,
            countdownDuration: countdownDuration,
            state: kitState(alarm.state),
            title: alarm.title,
            agentID: alarm.id,
            storedMetadata: alarm.metadata,
            presentationState: AlarmPresentationState(alarmID: id, state: alarm.state, calendar: .current),
            localDateTime: readBack?.localDateTime)
    }

    /// The alarm among `alarms` that the application knows as `id`: the one carrying `id` in its
    /// metadata, or else one the agent calls `id` (an alarm not scheduled through TocsinKit).
    static func agentAlarm(knownAs id: UUID, in alarms: [TocsinCore.Alarm]) -> TocsinCore.Alarm? {
        alarms.first { $0.metadata.flatMap(AlarmMetadataEnvelope.header(from:))?.id == id } ?? alarms.first { $0.id == id }
    }

    private static func kitState(_ state: AlarmState) -> AlarmManager.Alarm.State {
        switch state {
        case .scheduled: .scheduled
        case .countdown: .countdown
        case .paused: .paused
        case .alerting: .alerting
        }
    }
}
