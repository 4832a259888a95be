// AlarmKit code as a Swift 6 app target writes it: the intents' static properties are `let`s (a
// `static var` is shared mutable state, which Swift 6 refuses), the metadata is Sendable, and
// the work is done from async contexts. Only the import differs from AlarmKit's.
import AppIntents
import Foundation
import TocsinKit

struct StopIntent: LiveActivityIntent {
    static let title: LocalizedStringResource = "Stop"
    static let description = IntentDescription("Stop an alert")

    @Parameter(title: "alarmID")
    var alarmID: String

    init(alarmID: String) {
        self.alarmID = alarmID
    }

    init() {
        self.alarmID = ""
    }

    func perform() async throws -> some IntentResult {
        guard let id = UUID(uuidString: alarmID) else { throw StyleError.invalidAlarmID }
        try AlarmManager.shared.stop(id: id)
        return .result()
    }
}

struct SnoozeIntent: LiveActivityIntent {
    static let title: LocalizedStringResource = "Snooze"
    static let openAppWhenRun = false

    @Parameter(title: "alarmID")
    var alarmID: String

    init(alarmID: String) {
        self.alarmID = alarmID
    }

    init() {
        self.alarmID = ""
    }

    func perform() throws -> some IntentResult {
        guard let id = UUID(uuidString: alarmID) else { throw StyleError.invalidAlarmID }
        try AlarmManager.shared.countdown(id: id)
        return .result()
    }
}

enum StyleError: Error {
    case invalidAlarmID
}

struct TeaData: AlarmMetadata {
    var strength: Int
}
