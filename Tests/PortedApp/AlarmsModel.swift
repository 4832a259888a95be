import TocsinKit

/// Chime's alarms, as its screens show them: kept current from AlarmKit's updates.
@MainActor
@Observable
final class AlarmsModel {
    /// Every alarm of the app, as the system last said.
    private(set) var alarms: [Alarm] = []
    /// Whether the person allowed Chime to set alarms.
    private(set) var authorization: AlarmManager.AuthorizationState = .notDetermined
    /// What went wrong last, for the error banner.
    private(set) var problem: String?

    @ObservationIgnored private let alarmManager = AlarmManager.shared
    @ObservationIgnored private var updates: Task<Void, Never>?

    /// Follows the system's list of alarms and the person's answer about them.
    func startObserving() {
        guard updates == nil else { return }
        authorization = alarmManager.authorizationState
        updates = Task { [weak self] in
            guard let manager = self?.alarmManager else { return }
            for await incoming in manager.alarmUpdates {
                self?.alarms = incoming
            }
        }
    }

    /// Asks the person, unless they answered already; true when Chime may set alarms.
    func requestAuthorization() async -> Bool {
        switch alarmManager.authorizationState {
        case .notDetermined:
            do {
                authorization = try await alarmManager.requestAuthorization()
            } catch {
                problem = "Could not ask about alarms: \(error.localizedDescription)"
            }
        case .denied, .authorized:
            authorization = alarmManager.authorizationState
        }
        return authorization == .authorized
    }

    /// Schedules `configuration` as alarm `id`; the alarm as the system now holds it, or nil with
    /// `problem` saying why.
    @discardableResult
    func schedule(_ configuration: AlarmManager.AlarmConfiguration<ChimeMetadata>, id: Alarm.ID = UUID()) async -> Alarm? {
        do {
            let alarm = try await alarmManager.schedule(id: id, configuration: configuration)
            refresh()
            return alarm
        } catch let error as AlarmManager.AlarmError {
            switch error {
            case .maximumLimitReached:
                problem = "Chime has as many alarms as it may. Delete one first."
            @unknown default:
                problem = error.localizedDescription
            }
        } catch {
            problem = error.localizedDescription
        }
        return nil
    }

    /// Reads the whole list again.
    func refresh() {
        do {
            alarms = try alarmManager.alarms
        } catch {
            problem = "Could not read the alarms: \(error.localizedDescription)"
        }
    }

    /// Pauses a counting-down timer, or resumes a paused one.
    func togglePause(_ alarm: Alarm) {
        do {
            switch alarm.state {
            case .countdown:
                try alarmManager.pause(id: alarm.id)
            case .paused:
                try alarmManager.resume(id: alarm.id)
            case .scheduled, .alerting:
                return
            }
        } catch {
            problem = error.localizedDescription
        }
    }

    /// Deletes an alarm, whatever it is doing.
    func delete(_ alarm: Alarm) {
        do {
            try alarmManager.cancel(id: alarm.id)
        } catch let error as AlarmManager.AlarmError where error == .maximumLimitReached {
            problem = "Unexpected: \(error)"
        } catch {
            problem = error.localizedDescription
        }
        alarms.removeAll { $0.id == alarm.id }
    }
}
