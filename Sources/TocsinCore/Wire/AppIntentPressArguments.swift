import FoundationEssentials

extension AppIntentButtons {
    /// The parameter of the `tocsin-perform-intent` action the agent activates in an application
    /// when one of its intent buttons is pressed: `(s alarm_id, s button, s metadata)`, the
    /// metadata empty when the alarm has none. The agent writes it and TocsinKit reads it with
    /// these same arguments.
    public static let pressArguments: WireArguments<(UUID, Button, String)> =
        .three("alarm_id", .alarmID, "button", .appIntentButton, "metadata", .text)
}
