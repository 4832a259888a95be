import AppIntents
import TocsinKit

/// A Chime alarm as an App Entity, so that (iOS 27) a person can ask Siri to stop or snooze the one
/// that rings. The port keeps its identity only: its display representation and query are for
/// Siri and Shortcuts, which Linux does not have.
struct AlarmEntity: AppEntity {
    let id: UUID
}
