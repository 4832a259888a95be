import TocsinKit

/// The sample states Chime's live-activity views are previewed with, as AlarmKit's widget
/// extension receives them.
enum LiveActivityPreview {
    static let alarmID = UUID()
    static let attributes = AlarmAttributes<ChimeMetadata>(
        presentation: AlarmPresentation(alert: .init(title: "Green tea is ready"), countdown: .init(title: "Green tea"),
                                        paused: .init(title: "Green tea paused", resumeButton: AlarmForm.resumeButton)),
        metadata: ChimeMetadata(label: "Green tea", kind: .kitchenTimer), tintColor: .green)

    static let countingDown: AlarmAttributes<ChimeMetadata>.ContentState = AlarmPresentationState(
        alarmID: alarmID,
        mode: .countdown(.init(totalCountdownDuration: 180, previouslyElapsedDuration: 0, startDate: .now, fireDate: .now.addingTimeInterval(180))))
    static let paused = AlarmPresentationState(alarmID: alarmID, mode: .paused(.init(totalCountdownDuration: 180, previouslyElapsedDuration: 75)))
    static let ringing = AlarmPresentationState(alarmID: alarmID, mode: .alert(.init(time: .init(hour: 7, minute: 30))))

    /// What the preview's line says for `state`.
    static func caption(_ state: AlarmPresentationState) -> String {
        switch state.mode {
        case .countdown(let countdown): "\(Int(countdown.totalCountdownDuration - countdown.previouslyElapsedDuration)) s"
        case .paused(let paused): "paused after \(Int(paused.previouslyElapsedDuration)) s"
        case .alert(let alert): "since \(alert.time.hour):\(alert.time.minute)"
        }
    }
}
