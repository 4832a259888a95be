import Foundation
import TocsinCore

/// Turns an AlarmKit configuration into the agent's `Schedule` request.
///
/// What the agent cannot show yet (colours, icons, the stop button's text, the countdown and
/// paused titles) stays out of the request; everything that changes how the alarm behaves goes in,
/// and a configuration the agent would have to guess about is refused here with a sentence saying
/// what to change.
enum ScheduleRequestBuilder {
    /// The hook that makes a `.custom` secondary button with neither a command nor an app
    /// intent (`.inApp`): the agent offers a custom button only with a `secondary` hook or an
    /// app intent, and this one does nothing, so only the running app (through its `.secondary`
    /// event) acts on the press.
    static let appHandledCommand = "true"

    /// The request for `configuration`, asking the agent for the id `id` (also kept in the
    /// metadata envelope).
    static func request<Metadata>(for configuration: AlarmManager.AlarmConfiguration<Metadata>, id: UUID) throws(AlarmManager.AlarmError) -> AlarmRequest {
        let alert = configuration.attributes.presentation.alert
        let preAlert = configuration.countdownDuration?.preAlert
        var request: AlarmRequest
        switch (configuration.schedule, configuration.localDateTime) {
        case (nil, nil):
            guard let preAlert else {
                throw .tocsin(.invalidArgument("The configuration has neither a schedule (an alarm) nor a countdownDuration.preAlert (a timer)."))
            }
            request = AlarmRequest(kind: .timer, duration: preAlert)
        case (let schedule?, nil):
            request = AlarmRequest(kind: .alarm, schedule: try ScheduleTranslation.agentSchedule(schedule), duration: preAlert ?? 0)
        case (nil, let local?):
            request = AlarmRequest(kind: .alarm, schedule: try ScheduleTranslation.agentSchedule(local), duration: preAlert ?? 0)
        case (_?, _?):
            throw .tocsin(.invalidArgument("The configuration has both a schedule and a localDateTime; give one of them."))
        }
        request.title = alert.title.key
        request.sound = try agentSound(configuration.sound)
        request.phone = configuration.phones.map { phones in
            switch phones {
            case .never: .never
            case .whenUnanswered(let after): .ring(after: after)
            }
        }
        var hooks = AlarmHooks()
        hooks[.stop] = command(of: configuration.stopIntent)
        switch (alert.secondaryButton, alert.secondaryButtonBehavior) {
        case (nil, nil):
            guard command(of: configuration.secondaryIntent) == nil else {
                throw .tocsin(.invalidArgument("The configuration has a secondaryIntent but its alert has no secondaryButton to perform it."))
            }
        case (nil, _?):
            throw .tocsin(.invalidArgument("The alert has a secondaryButtonBehavior but no secondaryButton."))
        case (_?, nil):
            throw .tocsin(.invalidArgument("The alert's secondaryButton needs a secondaryButtonBehavior: .countdown (snooze) or .custom."))
        case (let button?, .countdown?):
            guard let postAlert = configuration.countdownDuration?.postAlert else {
                throw .tocsin(.invalidArgument("A .countdown secondary button needs countdownDuration.postAlert: how long to count down before ringing again."))
            }
            request.snoozeDuration = postAlert
            request.secondaryButtonLabel = button.text.key
            hooks[.snooze] = command(of: configuration.secondaryIntent)
        case (let button?, .custom?):
            request.secondaryButtonLabel = button.text.key
            // An app intent makes the button a custom one by itself (AlarmRequest.appIntents).
            if appIntent(configuration.secondaryIntent) == nil {
                hooks[.secondary] = command(of: configuration.secondaryIntent) ?? appHandledCommand
            }
        }
        request.hooks = hooks
        request.id = id
        var intents: [String: IntentRecord] = [:]
        var modes: [AppIntentButtons.Button: AppIntentButtons.Mode] = [:]
        for (button, intent) in [(AppIntentButtons.Button.stop, configuration.stopIntent), (.secondary, configuration.secondaryIntent)] {
            guard let intent = appIntent(intent) else { continue }
            do throws(IntentRecord.Failure) {
                let record = try IntentRecord(intent)
                intents[button.rawValue] = record
                modes[button] = record.opensApp ? .foreground : .background
            } catch {
                throw .tocsin(.invalidArgument(error.description))
            }
        }
        if !modes.isEmpty {
            // The agent hands each press to the running app, or starts this program for it.
            request.appIntents = AppIntentButtons(modes: modes, executable: ApplicationIdentity.executablePath())
        }
        request.metadata = try AlarmMetadataEnvelope.encode(
            id: id, metadata: configuration.attributes.metadata, relativeOnce: isRelativeOnce(configuration.schedule), intents: intents)
        return request
    }

    /// The command the agent runs for `intent`, when it is Tocsin's `.command`.
    private static func command(of intent: (any LiveActivityIntent)?) -> String? {
        (intent as? AlarmActionIntent)?.command
    }

    /// `intent` when it is the application's own, performed in its process.
    static func appIntent(_ intent: (any LiveActivityIntent)?) -> (any LiveActivityIntent)? {
        intent is AlarmActionIntent ? nil : intent
    }

    private static func agentSound(_ sound: AlertConfiguration.AlertSound) throws(AlarmManager.AlarmError) -> AlarmSound {
        switch sound {
        case .default:
            return .standard
        case .named(let name):
            do throws(AlarmInputError) {
                return try AlarmSound(parsing: name)
            } catch {
                throw .tocsin(.invalidArgument(error.message))
            }
        }
    }

    private static func isRelativeOnce(_ schedule: AlarmManager.Alarm.Schedule?) -> Bool {
        if case .relative(let relative)? = schedule, relative.repeats == .never { true } else { false }
    }
}
