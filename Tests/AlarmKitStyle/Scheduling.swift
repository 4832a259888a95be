import Foundation
import TocsinKit

struct CookingData: AlarmMetadata {
    let method: Method

    init(method: Method) {
        self.method = method
    }

    enum Method: String, Codable {
        case frying = "frying.pan"
        case grilling = "flame"
    }
}

/// WWDC25's timer with a Repeat button, in the 26.1 form (the system's Stop button).
func scheduleFoodTimer(preAlert: TimeInterval = 10 * 60) async throws -> Alarm {
    typealias AlarmConfiguration = AlarmManager.AlarmConfiguration<CookingData>
    let id = UUID()
    let duration = Alarm.CountdownDuration(preAlert: preAlert, postAlert: (5 * 60))
    let repeatButton = AlarmButton(text: "Repeat", textColor: .white, systemImageName: "repeat.circle")
    let alertPresentation = AlarmPresentation.Alert(title: "Food Ready!", secondaryButton: repeatButton, secondaryButtonBehavior: .countdown)
    let pauseButton = AlarmButton(text: "Pause", textColor: .green, systemImageName: "pause")
    let countdownPresentation = AlarmPresentation.Countdown(title: "Cooking", pauseButton: pauseButton)
    let resumeButton = AlarmButton(text: "Resume", textColor: .green, systemImageName: "play")
    let pausedPresentation = AlarmPresentation.Paused(title: "Paused", resumeButton: resumeButton)
    let attributes = AlarmAttributes<CookingData>(
        presentation: AlarmPresentation(alert: alertPresentation, countdown: countdownPresentation, paused: pausedPresentation),
        metadata: CookingData(method: .frying),
        tintColor: Color.green)
    let sound = AlertConfiguration.AlertSound.named("bell")
    let alarmConfiguration = AlarmConfiguration(countdownDuration: duration, attributes: attributes,
                                                secondaryIntent: RepeatIntent(alarmID: id.uuidString), sound: sound)
    return try await AlarmManager.shared.schedule(id: id, configuration: alarmConfiguration)
}

/// The sample's timer with an "Open" button: a `.custom` secondary button whose intent opens
/// the app (`openAppWhenRun`).
func scheduleTimerWithOpenButton(preAlert: TimeInterval) async throws -> Alarm {
    let id = UUID()
    let openButton = AlarmButton(text: "Open", textColor: .blue, systemImageName: "arrow.right.circle.fill")
    let alert = AlarmPresentation.Alert(title: "Timer done", secondaryButton: openButton, secondaryButtonBehavior: .custom)
    let attributes = AlarmAttributes<CookingData>(presentation: AlarmPresentation(alert: alert), tintColor: .blue)
    return try await AlarmManager.shared.schedule(
        id: id,
        configuration: .timer(duration: preAlert, attributes: attributes, secondaryIntent: OpenInApp(alarmID: id.uuidString)))
}

/// A weekly wake-up alarm built with the factories, attributes inline, the deprecated 26.0 alert
/// beside the 26.1 one, as apps that support both write it.
func scheduleWakeUp() async throws {
    let id = UUID()
    let time = Alarm.Schedule.Relative.Time(hour: 7, minute: 0)
    let recurrence = Alarm.Schedule.Relative.Recurrence.weekly([.monday, .wednesday, .friday])
    let schedule = Alarm.Schedule.relative(.init(time: time, repeats: recurrence))
    let snooze = AlarmButton(text: "Snooze", textColor: .white, systemImageName: "zzz")
    let alert: AlarmPresentation.Alert
    if #available(iOS 26.1, *) {
        alert = AlarmPresentation.Alert(title: "Wake Up", secondaryButton: snooze, secondaryButtonBehavior: .countdown)
    } else {
        alert = AlarmPresentation.Alert(title: "Wake Up", stopButton: AlarmButton(text: "Stop", textColor: .white, systemImageName: "xmark"),
                                        secondaryButton: snooze, secondaryButtonBehavior: .countdown)
    }
    try await AlarmManager.shared.schedule(
        id: id,
        configuration: .alarm(schedule: schedule,
                              attributes: AlarmAttributes<CookingData>(presentation: AlarmPresentation(alert: alert), tintColor: .blue),
                              stopIntent: StopIntent(alarmID: id.uuidString),
                              secondaryIntent: OpenInApp(alarmID: id.uuidString)))
}

/// The sample's authorization and observation.
func observe() async throws {
    let alarmManager = AlarmManager.shared
    let state = try await alarmManager.requestAuthorization()
    guard state == .authorized else { return }
    switch alarmManager.authorizationState {
    case .notDetermined, .denied: return
    case .authorized: break
    }
    for await incomingAlarms in alarmManager.alarmUpdates {
        let ids = Set(incomingAlarms.map(\.id))
        for alarm in incomingAlarms where alarm.state == .alerting {
            try alarmManager.stop(id: alarm.id)
        }
        if ids.isEmpty { break }
    }
    do {
        _ = try alarmManager.alarms
    } catch AlarmManager.AlarmError.maximumLimitReached {
        return
    }
}

/// Errors as AlarmKit code catches them.
func cancelEverything() async {
    do {
        for alarm in try AlarmManager.shared.alarms {
            try AlarmManager.shared.cancel(id: alarm.id)
        }
    } catch {
        print("Could not cancel: \(error)")
    }
}

/// The README's example: the configuration's initializer as an implicit member, its attributes inline.
func scheduleREADMETimer() async throws {
    let manager = AlarmManager.shared
    guard try await manager.requestAuthorization() == .authorized else { return }
    let id = UUID()
    let alert = AlarmPresentation.Alert(title: "Food Ready!", secondaryButton: AlarmButton(text: "Repeat", textColor: .white,
                                        systemImageName: "repeat"), secondaryButtonBehavior: .countdown)
    try await manager.schedule(id: id, configuration: .init(
        countdownDuration: .init(preAlert: 540, postAlert: 300),
        attributes: AlarmAttributes<CookingData>(presentation: AlarmPresentation(alert: alert), tintColor: .orange),
        secondaryIntent: RepeatIntent(alarmID: id.uuidString)))
    for await alarms in manager.alarmUpdates { print(alarms.map(\.presentationState)) }
}
