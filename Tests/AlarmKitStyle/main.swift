// `alarmkit-style timer [SECONDS]`: asks for authorization, schedules WWDC's food timer
// (`scheduleFoodTimer`), and prints the alarms after each change until there are none.
// TocsinKitTests.AlarmKitStyleTests runs it against the agent in the headless session.
import Foundation
import TocsinKit

setvbuf(stdout, nil, _IOLBF, 0)
let arguments = CommandLine.arguments.dropFirst()
guard arguments.first == "timer" else {
    print("usage: alarmkit-style timer [SECONDS]")
    exit(2)
}
guard try await AlarmManager.shared.requestAuthorization() == .authorized else {
    print("not authorized")
    exit(1)
}
let alarm = try await scheduleFoodTimer(preAlert: arguments.dropFirst().first.flatMap(TimeInterval.init) ?? 10 * 60)
print("scheduled \(alarm.id)")
for await alarms in AlarmManager.shared.alarmUpdates {
    print("alarms: \(alarms.map { "\($0.state)" })")
    if alarms.isEmpty { break }
}
