import ActivityKit
import TocsinKit

/// The alarms and timers Chime's screens build, each as the screen's form fills it in.
enum AlarmForm {
    typealias Configuration = AlarmManager.AlarmConfiguration<ChimeMetadata>

    static let snoozeButton = AlarmButton(text: "Snooze", textColor: .white, systemImageName: "zzz")
    static let openButton = AlarmButton(text: "Open", textColor: .orange, systemImageName: "arrow.right.circle.fill")
    static let pauseButton = AlarmButton(text: "Pause", textColor: .orange, systemImageName: "pause.fill")
    static let resumeButton = AlarmButton(text: "Resume", textColor: .orange, systemImageName: "play.fill")

    /// A wake-up alarm on the chosen days, with a nine-minute Snooze.
    static func wakeUp(id: Alarm.ID, label: String, hour: Int, minute: Int, on days: [Locale.Weekday]) -> Configuration {
        let time = Alarm.Schedule.Relative.Time(hour: hour, minute: minute)
        let schedule = Alarm.Schedule.relative(.init(time: time, repeats: days.isEmpty ? .never : .weekly(days)))
        let alert = AlarmPresentation.Alert(title: LocalizedStringResource(stringLiteral: label), secondaryButton: snoozeButton,
                                            secondaryButtonBehavior: .countdown)
        let attributes = AlarmAttributes(presentation: AlarmPresentation(alert: alert),
                                         metadata: ChimeMetadata(label: label, kind: .wakeUp), tintColor: .orange)
        return Configuration(countdownDuration: Alarm.CountdownDuration(preAlert: nil, postAlert: 9 * 60),
                             schedule: schedule, attributes: attributes,
                             stopIntent: StopIntent(alarmID: id.uuidString), secondaryIntent: SnoozeIntent(alarmID: id.uuidString),
                             sound: .named("chime-sunrise.caf"))
    }

    /// The quickest alarm the app offers: once, at the next such time, nothing else.
    static func once(label: String, hour: Int, minute: Int) -> Configuration {
        .alarm(schedule: .relative(.init(time: .init(hour: hour, minute: minute))),
               attributes: AlarmAttributes(presentation: AlarmPresentation(alert: .init(title: "Alarm")), tintColor: .orange))
    }

    /// A reminder at an instant, with a ten-minute countdown shown before it; the 26.0 alert on
    /// systems before 26.1.
    static func reminder(id: Alarm.ID, label: String, at date: Date) -> Configuration {
        let alert: AlarmPresentation.Alert
        if #available(iOS 26.1, *) {
            alert = AlarmPresentation.Alert(title: "Reminder", secondaryButton: openButton, secondaryButtonBehavior: .custom)
        } else {
            alert = AlarmPresentation.Alert(title: "Reminder", stopButton: AlarmButton(text: "Done", textColor: .white, systemImageName: "checkmark"),
                                            secondaryButton: openButton, secondaryButtonBehavior: .custom)
        }
        let presentation = AlarmPresentation(alert: alert, countdown: AlarmPresentation.Countdown(title: "Coming up"),
                                             paused: AlarmPresentation.Paused(title: "On hold", resumeButton: resumeButton))
        return Configuration(countdownDuration: .init(preAlert: 10 * 60, postAlert: nil), schedule: .fixed(date),
                             attributes: AlarmAttributes(presentation: presentation, metadata: ChimeMetadata(label: label, kind: .reminder),
                                                         tintColor: Color.blue),
                             secondaryIntent: OpenChimeIntent(alarmID: id.uuidString))
    }

    /// A kitchen timer with Pause while it counts down and Snooze when it rings.
    static func kitchenTimer(id: Alarm.ID, label: String, seconds: TimeInterval) -> Configuration {
        let alert = AlarmPresentation.Alert(title: "\(label) is ready", secondaryButton: snoozeButton, secondaryButtonBehavior: .countdown)
        let presentation = AlarmPresentation(alert: alert, countdown: .init(title: "\(label)", pauseButton: pauseButton),
                                             paused: .init(title: "\(label) paused", resumeButton: resumeButton))
        let attributes = AlarmAttributes<ChimeMetadata>(presentation: presentation, metadata: ChimeMetadata(label: label, kind: .kitchenTimer),
                                                        tintColor: .green)
        return .timer(duration: seconds, attributes: attributes, stopIntent: StopIntent(alarmID: id.uuidString),
                      secondaryIntent: SnoozeIntent(alarmID: id.uuidString), sound: AlertConfiguration.AlertSound.default)
    }

    /// A timer with nothing but a title: the egg button.
    static func eggTimer() -> Configuration {
        .timer(duration: 7 * 60, attributes: AlarmAttributes(presentation: AlarmPresentation(alert: .init(title: "Eggs")), tintColor: .yellow))
    }

    /// AlarmKit 26.0's pattern: a Stop-only alert, a snooze intent for the app's own snooze, and
    /// a five-minute post-alert countdown.
    static func medication(id: Alarm.ID, at date: Date) -> Configuration {
        let alert: AlarmPresentation.Alert
        if #available(iOS 26.1, *) {
            alert = AlarmPresentation.Alert(title: "Take your pills")
        } else {
            alert = AlarmPresentation.Alert(title: "Take your pills", stopButton: AlarmButton(text: "Taken", textColor: .white, systemImageName: "pills"))
        }
        return Configuration(countdownDuration: .init(preAlert: nil, postAlert: 5 * 60), schedule: .fixed(date),
                             attributes: AlarmAttributes(presentation: AlarmPresentation(alert: alert),
                                                         metadata: ChimeMetadata(label: "Pills", kind: .reminder), tintColor: .red),
                             secondaryIntent: SnoozeIntent(alarmID: id.uuidString))
    }

    /// A bedtime alarm that opens Chime's sleep screen from its alert.
    static func bedtime(id: Alarm.ID, hour: Int, minute: Int) -> Configuration {
        let alert = AlarmPresentation.Alert(title: "Bedtime", secondaryButton: openButton, secondaryButtonBehavior: .custom)
        return .alarm(schedule: .relative(.init(time: .init(hour: hour, minute: minute), repeats: .weekly([.sunday, .monday, .tuesday, .wednesday, .thursday]))),
                      attributes: AlarmAttributes(presentation: AlarmPresentation(alert: alert), tintColor: .indigo),
                      stopIntent: StopIntent(alarmID: id.uuidString), secondaryIntent: OpenChimeIntent(alarmID: id.uuidString),
                      sound: .named("bedtime"))
    }

    /// A deadline at an instant, with nothing but its title.
    static func deadline(at date: Date) -> Configuration {
        Configuration(schedule: .fixed(date),
                      attributes: AlarmAttributes(presentation: AlarmPresentation(alert: .init(title: "Deadline")), tintColor: .gray))
    }

    /// iOS 27: a timer Siri can act on while it rings.
    static func siriTimer(id: Alarm.ID, seconds: TimeInterval) -> Configuration {
        .timer(duration: seconds, attributes: AlarmAttributes(presentation: AlarmPresentation(alert: .init(title: "Timer")), tintColor: .orange),
               appEntityIdentifier: EntityIdentifier(for: AlarmEntity.self, identifier: id))
    }

    /// iOS 27: a wake-up alarm Siri can act on.
    static func siriAlarm(id: Alarm.ID, hour: Int, minute: Int) -> Configuration {
        .alarm(schedule: .relative(.init(time: .init(hour: hour, minute: minute), repeats: .weekly([.saturday, .sunday]))),
               attributes: AlarmAttributes(presentation: AlarmPresentation(alert: .init(title: "Weekend")), tintColor: .purple),
               appEntityIdentifier: EntityIdentifier(for: AlarmEntity(id: id)), stopIntent: StopIntent(alarmID: id.uuidString))
    }

    /// iOS 27: the full initializer with an entity.
    static func siriReminder(id: Alarm.ID, at date: Date) -> Configuration {
        Configuration(countdownDuration: .init(preAlert: 60, postAlert: 60), schedule: .fixed(date),
                      attributes: AlarmAttributes(presentation: AlarmPresentation(alert: .init(title: "Call back")), tintColor: .teal),
                      appEntityIdentifier: EntityIdentifier(for: AlarmEntity.self, identifier: id),
                      stopIntent: nil, secondaryIntent: nil, sound: .default)
    }
}
