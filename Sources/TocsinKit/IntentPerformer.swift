import Foundation
import Synchronization
import TocsinCore

/// Performs the application's own intents — an alarm's `stopIntent` and `secondaryIntent` —
/// in this process, as soon as the agent announces that their button was pressed (the alarm's
/// `.stopped`, `.secondary` or `.snoozed` event). Started by the first `schedule` with such an
/// intent, or the first look at the alarms or their updates.
///
/// Re-doing what the press already did succeeds: an intent written the AlarmKit way stops,
/// snoozes or cancels its alarm itself (`try AlarmManager.shared.stop(id:)`), which the
/// agent has done by the time the intent runs; while it is performed, that call for that
/// alarm is answered as done (`answering`).
///
/// Not yet: an app that is not running is not started to perform it, and every running process
/// of the application performs it (see the AlarmKit-parity issue).
final class IntentPerformer: Sendable {
    /// The envelope's key of the stop intent.
    static let stopKey = "stop"
    /// The envelope's key of the secondary intent.
    static let secondaryKey = "secondary"

    /// An intent that could not be performed, or threw.
    let failures = Broadcast<AlarmManager.IntentFailure>(replaysLatest: false)

    private let listening = Mutex<Task<Void, Never>?>(nil)

    /// The press being answered, while its intent is performed.
    @TaskLocal static var answering: (alarm: UUID, event: AlarmManager.AlarmEvent.Kind)?

    /// Starts performing the intents of the events in `events`, unless started already.
    func startIfNeeded(_ events: @Sendable () -> AsyncStream<AlarmManager.AlarmEvent>) {
        listening.withLock { task in
            guard task == nil else { return }
            let stream = events()
            task = Task.detached { [weak self] in
                for await event in stream {
                    guard let self, let (key, record) = Self.intent(answering: event) else { continue }
                    // Each in a task of its own: one that takes its time holds up no other.
                    Task.detached { await self.perform(record, key: key, for: event) }
                }
            }
        }
    }

    /// Stops listening.
    func stop() {
        listening.withLock { $0?.cancel() }
        failures.finish()
    }

    /// The intent `event` is the press of, and its key, if the alarm carries one of the app's own.
    static func intent(answering event: AlarmManager.AlarmEvent) -> (String, IntentRecord)? {
        let key: String
        switch event.kind {
        case .stopped: key = stopKey
        case .secondary, .snoozed: key = secondaryKey
        default: return nil
        }
        guard let record = event.alarm.storedMetadata.flatMap(AlarmMetadataEnvelope.header(from:))?.intents?[key] else { return nil }
        return (key, record)
    }

    private func perform(_ record: IntentRecord, key: String, for event: AlarmManager.AlarmEvent) async {
        do {
            let intent = try record.makeIntent()
            try await Self.$answering.withValue((event.alarm.id, event.kind)) {
                _ = try await intent.perform()
            }
        } catch {
            let failure = AlarmManager.IntentFailure(alarmID: event.alarm.id, intentTitle: record.title, role: key, reason: "\(error)")
            FileHandle.standardError.write(Data("TocsinKit: \(failure.message)\n".utf8))
            failures.send(failure)
        }
    }

    /// Whether `intent` on alarm `id` asks for what the press being answered already did.
    static func alreadyDone(_ intent: AlarmIntent, on id: UUID) -> Bool {
        guard let answering, answering.alarm == id else { return false }
        return switch (answering.event, intent) {
        case (.stopped, .stop), (.stopped, .cancel), (.snoozed, .countdown), (.secondary, .stop), (.secondary, .cancel): true
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

    /// Starts receiving the agent's signals and performing the app's intents, once.
    func startListening() {
        watcher.startIfNeeded()
        performer.startIfNeeded { [watcher] in watcher.events.subscribe() }
    }
}
