import AppIntents
import TocsinKit

/// Stops the ringing alarm; the alert's Stop button performs it.
struct StopIntent: LiveActivityIntent {
    static let title: LocalizedStringResource = "Stop"
    static let description = IntentDescription("Stops the alarm that is ringing")

    @Parameter(title: "alarmID")
    var alarmID: String

    init(alarmID: String) {
        self.alarmID = alarmID
    }

    init() {
        self.alarmID = ""
    }

    func perform() async throws -> some IntentResult {
        try AlarmManager.shared.stop(id: try ChimeIntentError.alarm(alarmID))
        print("StopIntent performed for \(alarmID)")
        return .result()
    }
}

/// Snoozes the ringing alarm for its post-alert duration; the alert's Snooze button performs it.
struct SnoozeIntent: LiveActivityIntent {
    static let title: LocalizedStringResource = "Snooze"
    static let description = IntentDescription("Rings again a little later")

    @Parameter(title: "alarmID")
    var alarmID: String

    init(alarmID: String) {
        self.alarmID = alarmID
    }

    init() {
        self.alarmID = ""
    }

    func perform() async throws -> some IntentResult {
        try AlarmManager.shared.countdown(id: try ChimeIntentError.alarm(alarmID))
        print("SnoozeIntent performed for \(alarmID)")
        return .result()
    }
}

/// Brings Chime to the front on the alarm it was pressed for.
struct OpenChimeIntent: LiveActivityIntent {
    static let title: LocalizedStringResource = "Open Chime"
    static let description = IntentDescription("Opens the alarm in Chime")
    static let supportedModes: IntentModes = .foreground(.immediate)

    @Parameter(title: "alarmID")
    var alarmID: String

    init(alarmID: String) {
        self.alarmID = alarmID
    }

    init() {
        self.alarmID = ""
    }

    func perform() async throws -> some IntentResult {
        .result()
    }
}

enum ChimeIntentError: Error {
    case unknownAlarm(String)

    /// The alarm id an intent carries as its parameter.
    static func alarm(_ text: String) throws -> Alarm.ID {
        guard let id = UUID(uuidString: text) else { throw ChimeIntentError.unknownAlarm(text) }
        return id
    }
}
