import Foundation
import Synchronization
import TocsinCore

/// Performs the application's own intents — an alarm's `stopIntent` and `secondaryIntent` —
/// in this process, when the agent hands over the press of their button
/// (`org.freedesktop.Application.ActivateAction`, received by `ApplicationExport`).
///
/// The agent hands each press to one process of the application: the oldest that takes
/// intents, or the one it started for it (by D-Bus activation, or the registered program with
/// `AppIntentButtons.launchArgument`). It hands none over for a change the application made
/// itself (its own `stop(id:)`).
///
/// Re-doing what the press already did succeeds: an intent written the AlarmKit way stops,
/// snoozes or cancels its alarm itself (`try AlarmManager.shared.stop(id:)`), which the
/// agent has done by the time the intent runs; while it is performed, that call for that
/// alarm is answered as done (`answering`).
final class IntentPerformer: Sendable {
    /// An intent that could not be performed, or threw.
    let failures = Broadcast<AlarmManager.IntentFailure>(replaysLatest: false)

    private let listening = Mutex<Task<Void, Never>?>(nil)

    /// The press being answered, while its intent is performed: the app's id of the alarm, and
    /// the button.
    @TaskLocal static var answering: (alarm: UUID, button: AppIntentButtons.Button)?

    /// Starts performing the intents of the presses in `presses`, unless started already.
    func startIfNeeded(_ presses: @Sendable () -> AsyncStream<IntentPress>) {
        listening.withLock { task in
            guard task == nil else { return }
            let stream = presses()
            task = Task.detached { [weak self] in
                for await press in stream {
                    guard let self else { return }
                    // Each in a task of its own: one that takes its time holds up no other.
                    Task.detached { await self.perform(press) }
                }
            }
        }
    }

    /// Stops listening.
    func stop() {
        listening.withLock { $0?.cancel() }
        failures.finish()
    }

    private func perform(_ press: IntentPress) async {
        let header = AlarmMetadataEnvelope.header(from: press.metadata)
        let alarmID = header?.id ?? press.alarmID
        guard let record = header?.intents?[press.button.rawValue] else {
            report(AlarmManager.IntentFailure(alarmID: alarmID, intentTitle: press.button.rawValue, role: press.button.rawValue,
                                              reason: "the alarm carries no intent for this button"))
            return
        }
        do {
            let intent = try record.makeIntent()
            try await Self.$answering.withValue((alarmID, press.button)) {
                _ = try await intent.perform()
            }
        } catch {
            report(AlarmManager.IntentFailure(alarmID: alarmID, intentTitle: record.title, role: press.button.rawValue, reason: "\(error)"))
        }
    }

    private func report(_ failure: AlarmManager.IntentFailure) {
        FileHandle.standardError.write(Data("TocsinKit: \(failure.message)\n".utf8))
        failures.send(failure)
    }

    /// Whether `intent` on alarm `id` (the app's id of it) asks for what the press being
    /// answered already did: Stop stopped it; the secondary button snoozed it (`countdown`) or
    /// ended it.
    static func alreadyDone(_ intent: AlarmIntent, on id: UUID) -> Bool {
        guard let answering, answering.alarm == id else { return false }
        return switch (answering.button, intent) {
        case (.stop, .stop), (.stop, .cancel), (.secondary, .countdown), (.secondary, .stop), (.secondary, .cancel): true
        default: false
        }
    }
}

extension AlarmManager {
    /// One of the application's own intents that was not performed, or threw, when its button
    /// was pressed: TocsinKit also writes `message` to standard error.
    public struct IntentFailure: Hashable, Sendable {
        /// The alarm whose button it was.
        public var alarmID: Alarm.ID
        /// The intent's `title`.
        public var intentTitle: String
        /// `stop` or `secondary`.
        public var role: String
        /// What went wrong: what `perform()` threw, or why the intent could not be made.
        public var reason: String

        /// The sentence for a person.
        public var message: String {
            "The \(role) intent “\(intentTitle)” of alarm \(alarmID) failed: \(reason)"
        }
    }

    /// The application's own intents that failed, from now on.
    public var intentFailures: AsyncStream<IntentFailure> {
        startListening()
        return performer.failures.subscribe()
    }

    /// Starts receiving the agent's signals and performing the app's intents, once: the
    /// performer listens before the watcher starts, so no press handed over is missed.
    func startListening() {
        performer.startIfNeeded { [watcher] in watcher.presses.subscribe() }
        watcher.startIfNeeded()
    }

    /// The argument the agent starts the application's program with to perform one of its
    /// intents while it was not running: Tocsin's addition. The app recognises it, uses
    /// `AlarmManager` (which then takes the press at once) and may stay out of sight.
    public static let intentsLaunchArgument = AppIntentButtons.launchArgument

    /// Whether this process was started by the agent to perform an intent.
    public static var wasStartedForIntents: Bool { CommandLine.arguments.contains(intentsLaunchArgument) }

    /// The agent's requests to bring the application to the front, from now on — when the
    /// intent of a pressed button has `openAppWhenRun` (or `supportedModes` with
    /// `.foreground`): Tocsin's addition, as a Linux application raises its own window (with
    /// GTK, `gtk_window_present`). The intent itself is performed as well.
    public var activationRequests: AsyncStream<ActivationRequest> {
        startListening()
        return watcher.activations.subscribe()
    }

    /// The agent asked for the application to be brought to the front.
    public struct ActivationRequest: Hashable, Sendable {
        /// When it was received.
        public var receivedAt: Date
    }
}
