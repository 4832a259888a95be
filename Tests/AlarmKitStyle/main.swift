// The harness that runs the sample against the agent (TocsinKitTests.AlarmKitStyleTests):
// - `alarmkit-style timer [SECONDS]`: asks for authorization, schedules WWDC's food timer
//   (`scheduleFoodTimer`), and prints the alarms after each change until there are none;
// - `alarmkit-style timer-and-exit [SECONDS]`: schedules it and exits, so that its Repeat button
//   is pressed while the app is not running;
// - `alarmkit-style open [SECONDS]`: schedules the timer with an Open button, and prints when the
//   agent asks for the app to be brought to the front;
// - started by the agent with `--tocsin-intents` (the registered program, or D-Bus activation):
//   uses AlarmManager as an app does as it starts, so TocsinKit takes the agent's intents, and
//   exits ten seconds later. Its output goes to ALARMKIT_STYLE_OUTPUT when that is set.
import Foundation
import TocsinKit

setvbuf(stdout, nil, _IOLBF, 0)
let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("--tocsin-intents") {
    if let path = ProcessInfo.processInfo.environment["ALARMKIT_STYLE_OUTPUT"], freopen(path, "a", stdout) != nil {
        setvbuf(stdout, nil, _IOLBF, 0)
    }
    print("started for intents as \(AlarmManager.shared.appID)")
    try await Task.sleep(for: .seconds(10))
    exit(0)
}
let seconds = arguments.dropFirst().first.flatMap(TimeInterval.init)
guard try await AlarmManager.shared.requestAuthorization() == .authorized else {
    print("not authorized")
    exit(1)
}
switch arguments.first {
case "timer":
    let alarm = try await scheduleFoodTimer(preAlert: seconds ?? 10 * 60)
    print("scheduled \(alarm.id)")
    for await alarms in AlarmManager.shared.alarmUpdates {
        print("alarms: \(alarms.map { "\($0.state)" })")
        if alarms.isEmpty { break }
    }
case "timer-and-exit":
    let alarm = try await scheduleFoodTimer(preAlert: seconds ?? 10 * 60)
    print("scheduled \(alarm.id)")
case "open":
    let requests = AlarmManager.shared.activationRequests
    let alarm = try await scheduleTimerWithOpenButton(preAlert: seconds ?? 10 * 60)
    print("scheduled \(alarm.id)")
    for await _ in requests {
        print("asked to come to the front")
        break
    }
default:
    print("usage: alarmkit-style timer|timer-and-exit|open [SECONDS]")
    exit(2)
}
