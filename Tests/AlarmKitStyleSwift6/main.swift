// `alarmkit-style-6`: the Swift 6 form of AlarmKit code (Intents.swift) run against the agent by
// TocsinKitTests.AlarmKitStyleTests: authorization, a timer with both intents and a snooze, the
// alarm read back and observed, then cancelled. Prints each step; exits 1 on a mismatch.
import Foundation
import TocsinKit

@MainActor
func run() async throws {
    let manager = AlarmManager.shared
    guard try await manager.requestAuthorization() == .authorized else {
        print("not authorized")
        exit(1)
    }
    let id = UUID()
    let alert = AlarmPresentation.Alert(
        title: "Tea is ready",
        secondaryButton: AlarmButton(text: "Snooze", textColor: .white, systemImageName: "zzz"),
        secondaryButtonBehavior: .countdown)
    let configuration = AlarmManager.AlarmConfiguration<TeaData>(
        countdownDuration: Alarm.CountdownDuration(preAlert: 240, postAlert: 60),
        attributes: AlarmAttributes(presentation: AlarmPresentation(alert: alert), metadata: TeaData(strength: 3), tintColor: .brown),
        stopIntent: StopIntent(alarmID: id.uuidString),
        secondaryIntent: SnoozeIntent(alarmID: id.uuidString),
        sound: .default)
    let alarm = try await manager.schedule(id: id, configuration: configuration)
    print("scheduled \(alarm.id) \(alarm.state)")
    for await alarms in manager.alarmUpdates {
        guard let first = alarms.first(where: { $0.id == id }) else { continue }
        print("observed \(first.state)")
        break
    }
    try manager.cancel(id: id)
    guard try manager.alarms.isEmpty else {
        print("still listed after cancel")
        exit(1)
    }
    print("cancelled")
}

try await run()
