// `gapplication-style`: an app built on GIO's GApplication, as GTK apps are, that uses TocsinKit.
// TocsinKitTests.AlarmKitStyleTests runs it: as its GApplication starts, it schedules a one-second
// timer whose custom "Note" button carries NoteIntent (openAppWhenRun); the press is performed
// through the GApplication's own org.freedesktop.Application, and its Activate raises the app
// ("activated" printed each time the "activate" signal comes).
import AppIntents
import CGLib
import Foundation
import TocsinKit

let appID = "org.example.GApplicationStyle"

struct NoteIntent: LiveActivityIntent {
    static let title: LocalizedStringResource = "Note"
    static let openAppWhenRun = true

    @Parameter(title: "Text")
    var text: String

    init(text: String) {
        self.text = text
    }

    init() {
        self.text = ""
    }

    func perform() async throws -> some IntentResult {
        FileHandle.standardOutput.write(Data("NoteIntent performed: \(text)\n".utf8))
        return .result()
    }
}

struct Note: AlarmMetadata {}

let application = g_application_new(appID, G_APPLICATION_DEFAULT_FLAGS)!
let activated: @convention(c) (gpointer?, gpointer?) -> Void = { _, _ in
    FileHandle.standardOutput.write(Data("activated\n".utf8))
}
g_signal_connect_data(UnsafeMutableRawPointer(application), "activate", unsafeBitCast(activated, to: GCallback.self), nil, nil, GConnectFlags(rawValue: 0))
let started: @convention(c) (gpointer?, gpointer?) -> Void = { _, _ in
    Task.detached {
        do {
            let alert = AlarmPresentation.Alert(title: "Write it down", secondaryButton: AlarmButton(text: "Note", textColor: .white, systemImageName: "pencil"),
                                                secondaryButtonBehavior: .custom)
            let alarm = try await AlarmManager.shared.schedule(id: UUID(), configuration: .timer(
                duration: 1, attributes: AlarmAttributes<Note>(presentation: AlarmPresentation(alert: alert), tintColor: .blue),
                secondaryIntent: NoteIntent(text: "buy basil")))
            FileHandle.standardOutput.write(Data("scheduled \(alarm.id)\n".utf8))
        } catch {
            FileHandle.standardOutput.write(Data("could not schedule: \(error)\n".utf8))
            exit(1)
        }
    }
}
g_signal_connect_data(UnsafeMutableRawPointer(application), "startup", unsafeBitCast(started, to: GCallback.self), nil, nil, GConnectFlags(rawValue: 0))
// No window to keep it alive: held until the test ends it.
g_application_hold(application)
exit(g_application_run(application, 0, nil))
