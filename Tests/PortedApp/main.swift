// Chime's entry point on Linux, in place of its SwiftUI App (Linux has no SwiftUI; the model,
// forms and intents beside this file are the app's own, ported by changing their imports).
//
// `chime walkthrough` does what a person does with the app, printing a line per step, which
// IntegrationTests.PortedAppTests reads: it asks to set alarms, sets one of every kind, lists
// them, pauses and resumes the tea timer, waits while it rings for the person to press Snooze on
// the notification (Chime's SnoozeIntent then runs here), and deletes everything.
import TocsinKit

/// Prints one step of the walkthrough at once, with whatever the intents printed before it
/// (standard output is a pipe, so the C library would hold it back).
func say(_ line: String) {
    print(line)
    fflush(nil)
}

extension AlarmsModel {
    /// Waits, as the screen does, until the system's updates show alarm `id` as `condition`
    /// wants it; false when `timeout` passed first.
    func waitFor(_ id: Alarm.ID, timeout: Duration, until condition: (Alarm?) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(alarms.first { $0.id == id }) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return condition(alarms.first { $0.id == id })
    }
}

/// The walkthrough; its exit status.
@MainActor
func walkthrough() async -> Int32 {
    let model = AlarmsModel()
    model.startObserving()
    let allowed = await model.requestAuthorization()
    say("authorization: \(model.authorization.settingsText)")
    guard allowed else { return 1 }

    let now = Date()
    // Twelve hours away, so that nothing but the tea timer rings while the walkthrough runs.
    let hour = (Calendar.current.component(.hour, from: now) + 12) % 24
    let tea = UUID(), wakeUp = UUID(), pills = UUID(), reminder = UUID()
    let siriTimer = UUID(), siriAlarm = UUID(), callBack = UUID(), bedtime = UUID()
    say("tea is \(tea.uuidString)")
    let plans: [(String, Alarm.ID, AlarmManager.AlarmConfiguration<ChimeMetadata>)] = [
        ("wake-up", wakeUp, AlarmForm.wakeUp(id: wakeUp, label: "Gym", hour: hour, minute: 15, on: [.monday, .wednesday, .friday])),
        ("nap", UUID(), AlarmForm.once(label: "Nap", hour: hour, minute: 45)),
        ("reminder", reminder, AlarmForm.reminder(id: reminder, label: "Standup", at: now.addingTimeInterval(3 * 3600))),
        ("pills", pills, AlarmForm.medication(id: pills, at: now.addingTimeInterval(5 * 3600))),
        ("eggs", UUID(), AlarmForm.eggTimer()),
        ("siri timer", siriTimer, AlarmForm.siriTimer(id: siriTimer, seconds: 3600)),
        ("siri alarm", siriAlarm, AlarmForm.siriAlarm(id: siriAlarm, hour: hour, minute: 30)),
        ("call back", callBack, AlarmForm.siriReminder(id: callBack, at: now.addingTimeInterval(4 * 3600))),
        ("bedtime", bedtime, AlarmForm.bedtime(id: bedtime, hour: hour, minute: 5)),
        ("deadline", UUID(), AlarmForm.deadline(at: now.addingTimeInterval(6 * 3600))),
        ("anniversary", UUID(), AlarmForm.anniversary(label: "Anniversary", year: 2099, month: 6, day: 1, hour: 9, minute: 0)),
        ("tea", tea, AlarmForm.kitchenTimer(id: tea, label: "Green tea", seconds: 4)),
    ]
    for (name, id, configuration) in plans {
        guard let alarm = await model.schedule(configuration, id: id) else {
            say("could not schedule \(name): \(model.problem ?? "no reason")")
            return 1
        }
        say("scheduled \(name): \(alarm.dateText ?? alarm.scheduleText), \(alarm.stateText)\(alarm.chime.map { " (\($0.label))" } ?? "")")
        if name == "tea" { model.togglePause(alarm) }
    }
    model.refresh()
    say("listed \(model.alarms.count) alarms")

    guard await model.waitFor(tea, timeout: .seconds(10), until: { $0?.state == .paused }) else {
        say("the tea timer did not pause")
        return 1
    }
    say("tea: \(model.alarms.first { $0.id == tea }?.stateText ?? "gone")")
    if let paused = model.alarms.first(where: { $0.id == tea }) { model.togglePause(paused) }
    guard await model.waitFor(tea, timeout: .seconds(10), until: { $0?.state == .countdown }) else {
        say("the tea timer did not resume")
        return 1
    }
    say("tea: \(model.alarms.first { $0.id == tea }?.stateText ?? "gone")")
    guard await model.waitFor(tea, timeout: .seconds(20), until: { $0?.state == .alerting }) else {
        say("the tea timer did not ring")
        return 1
    }
    say("tea: \(model.alarms.first { $0.id == tea }?.stateText ?? "gone")")
    // The person presses Snooze on the ringing notification.
    guard await model.waitFor(tea, timeout: .seconds(60), until: { $0?.state == .countdown }) else {
        say("the tea timer was not snoozed")
        return 1
    }
    say("tea: snoozed, \(model.alarms.first { $0.id == tea }?.stateText ?? "gone")")

    for alarm in model.alarms {
        model.delete(alarm)
    }
    model.refresh()
    say("deleted all, \(model.alarms.count) left")
    if let problem = model.problem { say("problem: \(problem)") }
    return model.alarms.isEmpty && model.problem == nil ? 0 : 1
}

switch CommandLine.arguments.dropFirst().first {
case "walkthrough"?:
    exit(await walkthrough())
default:
    say("usage: chime walkthrough")
    exit(2)
}
