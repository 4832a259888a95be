import Foundation
import TocsinCore

/// Turns an AlarmKit configuration into the agent's `Schedule` request.
///
/// What AlarmKit schedules, Tocsin schedules. A configuration is refused only for what would
/// harm the person the alarm is for — a time or date that does not exist, nothing saying when it
/// rings, an intent that could never be performed, and (in the agent) a time that has passed, a
/// duration that is not a sensible number of seconds, a sound outside the app's sandbox.
/// Everything else is taken as AlarmKit takes it: what has nothing to show is kept and not shown,
/// a sound that cannot be found rings as the default, text too long for a notification is
/// shortened. What the agent cannot show yet (colours, icons, the stop button's text, the
/// countdown and paused titles) stays out of the request.
enum ScheduleRequestBuilder {
    /// The hook that makes a `.custom` secondary button with neither a command nor an app
    /// intent (`.inApp`): the agent offers a custom button only with a `secondary` hook or an
    /// app intent, and this one does nothing, so only the running app (through its `.secondary`
    /// event) acts on the press.
    static let appHandledCommand = "true"

    /// How long a `.countdown` button snoozes when the configuration gives neither `postAlert`
    /// nor `preAlert`: the Clock app's nine minutes. AlarmKit documents only that a missing
    /// `postAlert` is taken from `preAlert`; a snooze button that did nothing, or a refusal, would
    /// surprise the person porting the app more.
    static let defaultSnooze: TimeInterval = 9 * 60

    /// The request for `configuration`, asking the agent for the id `id` (also kept in the
    /// metadata envelope).
    static func request<Metadata>(for configuration: AlarmManager.AlarmConfiguration<Metadata>, id: UUID) throws(AlarmManager.AlarmError) -> AlarmRequest {
        let alert = configuration.attributes.presentation.alert
        // A countdown of zero or less is none: AlarmKit code passes `preAlert: 0` for "no
        // countdown before it rings" and `postAlert: 0` for "no snooze".
        let preAlert = configuration.countdownDuration?.preAlert.flatMap { $0 > 0 ? $0 : nil }
        // "If the value is nil we will use the preAlert duration for post-alarm countdowns"
        // (AlarmKit's `postAlert`).
        let postAlert = configuration.countdownDuration?.postAlert.flatMap { $0 > 0 ? $0 : nil } ?? preAlert
        var request: AlarmRequest
        switch (configuration.schedule, configuration.localDateTime) {
        case (nil, nil):
            // Kept: nothing says when it would ring.
            guard let timerDuration = configuration.countdownDuration?.preAlert else {
                throw .tocsin(.invalidArgument("The configuration has neither a schedule (an alarm) nor a countdownDuration.preAlert (a timer)."))
            }
            // The agent judges the duration itself (a timer of no time, or of years, is refused).
            request = AlarmRequest(kind: .timer, duration: timerDuration)
        case (let schedule?, nil):
            request = AlarmRequest(kind: .alarm, schedule: try ScheduleTranslation.agentSchedule(schedule), duration: preAlert ?? 0)
        case (nil, let local?):
            request = AlarmRequest(kind: .alarm, schedule: try ScheduleTranslation.agentSchedule(local), duration: preAlert ?? 0)
        case (_?, _?):
            // Kept: Tocsin's own addition contradicting AlarmKit's schedule; neither can be guessed.
            throw .tocsin(.invalidArgument("The configuration has both a schedule and a localDateTime; give one of them."))
        }
        request.title = shownText(alert.title.key, atMost: AlarmRequest.maximumTitleLength)
        (request.sound, request.soundFallback) = agentSound(configuration.sound)
        request.phone = configuration.phones.map { phones in
            switch phones {
            case .never: .never
            case .whenUnanswered(let after): .ring(after: after)
            }
        }
        request.outputRaise = configuration.outputRaise.map { raise in
            switch raise {
            case .never: .never
            case .toAtLeast(let percent): .raise(toPercent: percent)
            }
        }
        var hooks = AlarmHooks()
        hooks[.stop] = command(of: configuration.stopIntent)
        var secondaryIntent: (any LiveActivityIntent)?
        switch shownSecondaryButton(of: alert) {
        case (let button, .countdown)?:
            request.snoozeDuration = postAlert ?? defaultSnooze
            request.secondaryButtonLabel = shownText(button.text.key, atMost: AlarmRequest.maximumLabelLength)
            hooks[.snooze] = command(of: configuration.secondaryIntent)
            secondaryIntent = configuration.secondaryIntent
        case (let button, .custom)?:
            request.secondaryButtonLabel = shownText(button.text.key, atMost: AlarmRequest.maximumLabelLength)
            // An app intent makes the button a custom one by itself (AlarmRequest.appIntents).
            if appIntent(configuration.secondaryIntent) == nil {
                hooks[.secondary] = command(of: configuration.secondaryIntent) ?? appHandledCommand
            }
            secondaryIntent = configuration.secondaryIntent
        case nil:
            // No secondary button is shown, so the secondary intent is kept in the configuration
            // and never performed, as in AlarmKit. `postAlert` still lets the app snooze the
            // ringing alarm itself (`countdown(id:)`), as AlarmKit's does.
            if let postAlert {
                request.snoozeDuration = postAlert
                request.snoozeButton = false
            }
        }
        request.hooks = hooks
        request.id = id
        var intents: [String: IntentRecord] = [:]
        var modes: [AppIntentButtons.Button: AppIntentButtons.Mode] = [:]
        for (button, intent) in [(AppIntentButtons.Button.stop, configuration.stopIntent), (.secondary, secondaryIntent)] {
            guard let intent = appIntent(intent) else { continue }
            do throws(IntentRecord.Failure) {
                let record = try IntentRecord(intent)
                intents[button.rawValue] = record
                modes[button] = record.opensApp ? .foreground : .background
            } catch {
                // Kept: an intent that cannot be found again by its name would never be
                // performed, and the press it stands for would be lost without a word.
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

    /// The secondary button the alarm shows, with what it does; `nil` when it shows none. AlarmKit
    /// omits the button when `secondaryButton` is `nil`; a button without a behaviour has nothing
    /// to do and is not shown either (AlarmKit does not document this case).
    private static func shownSecondaryButton(of alert: AlarmPresentation.Alert) -> (AlarmButton, AlarmPresentation.Alert.SecondaryButtonBehavior)? {
        guard let button = alert.secondaryButton, let behavior = alert.secondaryButtonBehavior else { return nil }
        return (button, behavior)
    }

    /// `text` as a notification can show it: shortened, with an ellipsis, to at most `maximum`
    /// characters. AlarmKit takes any length and the system truncates what it shows; the agent
    /// refuses longer text, to protect notification servers and the command line's table.
    static func shownText(_ text: String, atMost maximum: Int) -> String {
        text.count <= maximum ? text : String(text.prefix(maximum - 1)) + "…"
    }

    /// The command the agent runs for `intent`, when it is Tocsin's `.command`.
    private static func command(of intent: (any LiveActivityIntent)?) -> String? {
        (intent as? AlarmActionIntent)?.command
    }

    /// `intent` when it is the application's own, performed in its process.
    static func appIntent(_ intent: (any LiveActivityIntent)?) -> (any LiveActivityIntent)? {
        intent is AlarmActionIntent ? nil : intent
    }

    /// The agent's sound for `sound`, and whether the agent should ring the default one when it
    /// cannot find or play it. A named sound that is neither a sound-theme id nor an absolute path
    /// is one no Linux desktop can find: it rings as the default, as AlarmKit rings a sound it
    /// cannot find, and standard error says why.
    private static func agentSound(_ sound: AlertConfiguration.AlertSound) -> (AlarmSound, fallback: Bool) {
        switch sound {
        case .default:
            return (.standard, false)
        case .named(let name):
            do throws(AlarmInputError) {
                return (try AlarmSound(parsing: name), true)
            } catch {
                FileHandle.standardError.write(Data("TocsinKit: \(error.message) The alarm rings with the default sound.\n".utf8))
                return (.standard, false)
            }
        }
    }

    /// Whether `schedule` rings once at a time of day, which the agent stores pinned to its day:
    /// `.never`, or a weekly repeat on no day (which rings once, as in the Clock app).
    private static func isRelativeOnce(_ schedule: AlarmManager.Alarm.Schedule?) -> Bool {
        guard case .relative(let relative)? = schedule else { return false }
        switch relative.repeats {
        case .never: return true
        case .weekly(let days): return days.isEmpty
        }
    }
}
