import TocsinKit

/// What Chime keeps with each of its alarms, to draw its list and its live activity.
struct ChimeMetadata: AlarmMetadata {
    /// What the person called the alarm ("Gym", "Green tea").
    var label: String
    /// Which screen of the app made it.
    var kind: Kind

    enum Kind: String, Codable, Hashable, Sendable {
        case wakeUp
        case reminder
        case kitchenTimer
    }
}
