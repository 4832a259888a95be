import Foundation
import TocsinKit

/// What the tests keep with their alarms.
struct Note: AlarmMetadata {
    var text: String
}

/// AlarmKit-style configurations the tests schedule.
enum TestConfigurations {
    /// Attributes titled `title`, with `metadata` and, if given, a secondary button.
    static func attributes(
        _ title: String, metadata: Note? = nil, secondaryButton: String? = nil,
        behavior: AlarmPresentation.Alert.SecondaryButtonBehavior? = nil
    ) -> AlarmAttributes<Note> {
        let alert = AlarmPresentation.Alert(
            title: LocalizedStringResource(title),
            secondaryButton: secondaryButton.map { AlarmButton(text: LocalizedStringResource($0), textColor: .white, systemImageName: "forward.fill") },
            secondaryButtonBehavior: behavior)
        return AlarmAttributes(presentation: AlarmPresentation(alert: alert), metadata: metadata, tintColor: .blue)
    }

    /// A timer of `seconds` titled `title`.
    static func timer(_ title: String, seconds: TimeInterval, metadata: Note? = nil) -> AlarmManager.AlarmConfiguration<Note> {
        .timer(duration: seconds, attributes: attributes(title, metadata: metadata))
    }
}
