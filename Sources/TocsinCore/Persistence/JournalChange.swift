import FoundationEssentials

/// One change to the saved alarms, as the journal records it (a line of `alarms.journal`):
/// what the decider asks to be saved.
public enum JournalChange: Sendable, Equatable, Codable {
    // Written by AlarmJSONWriter (the same text JSONEncoder writes), read by AlarmJSONReader
    // or, for lines not in that exact shape, JSONDecoder.
    /// The alarm now is this.
    case put(Alarm)
    /// The alarm with this id is gone.
    case remove(UUID)
    /// Local times are now resolved in this zone.
    case zone(String)
}

extension AlarmEvent {
    /// The journal line that records this event.
    public var journalChange: JournalChange {
        removesAlarm ? .remove(alarm.id) : .put(alarm)
    }
}
