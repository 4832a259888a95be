// AlarmKit code as Apple's sample ("Scheduling an alarm with AlarmKit") and WWDC25 session 230
// write it, in Swift 5 mode as an Xcode app target compiles it. Written here from Apple's
// documentation; the only change for Linux is the import (AlarmKit → TocsinKit). Building this
// target is the check that it compiles.
import AppIntents
import Foundation
import TocsinKit

struct PauseIntent: LiveActivityIntent {
    func perform() throws -> some IntentResult {
        try AlarmManager.shared.pause(id: UUID(uuidString: alarmID)!)
        return .result()
    }

    static var title: LocalizedStringResource = "Pause"
    static var description = IntentDescription("Pause a countdown")

    @Parameter(title: "alarmID")
    var alarmID: String

    init(alarmID: String) {
        self.alarmID = alarmID
    }

    init() {
        self.alarmID = ""
    }
}

struct StopIntent: LiveActivityIntent {
    func perform() throws -> some IntentResult {
        guard let uuid = UUID(uuidString: alarmID) else { throw AlarmIntentError.invalidAlarmID }
        try AlarmManager.shared.stop(id: uuid)
        return .result()
    }

    static var title: LocalizedStringResource = "Stop"
    static var description = IntentDescription("Stop an alert")

    @Parameter(title: "alarmID")
    var alarmID: String

    init(alarmID: String) {
        self.alarmID = alarmID
    }

    init() {
        self.alarmID = ""
    }
}

struct RepeatIntent: LiveActivityIntent {
    func perform() throws -> some IntentResult {
        guard let uuid = UUID(uuidString: alarmID) else { throw AlarmIntentError.invalidAlarmID }
        try AlarmManager.shared.countdown(id: uuid)
        print("RepeatIntent performed for \(alarmID)")
        return .result()
    }

    static var title: LocalizedStringResource = "Repeat"
    static var description = IntentDescription("Repeat a countdown")

    @Parameter(title: "alarmID")
    var alarmID: String

    init(alarmID: String) {
        self.alarmID = alarmID
    }

    init() {
        self.alarmID = ""
    }
}

public struct OpenInApp: LiveActivityIntent {
    public func perform() async throws -> some IntentResult { .result() }

    public static var title: LocalizedStringResource = "Open App"
    public static var description = IntentDescription("Opens the Sample app")
    public static var openAppWhenRun = true

    @Parameter(title: "alarmID")
    public var alarmID: String

    public init(alarmID: String) {
        self.alarmID = alarmID
    }

    public init() {
        self.alarmID = ""
    }
}

enum AlarmIntentError: Error {
    case invalidAlarmID
}
