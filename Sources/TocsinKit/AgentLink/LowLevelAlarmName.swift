import TocsinCore

// The low-level API speaks of the agent's own alarm, TocsinCore's `Alarm`. These member names
// pin it there, so `TocsinClient` and `AlarmChange` keep meaning TocsinCore's alarm when
// TocsinKit declares AlarmKit's `Alarm` at the top level (a name found inside a type wins over
// one of its module).

extension TocsinClient {
    /// The agent's description of an alarm, as this low-level client returns it (TocsinCore's
    /// `Alarm`; AlarmKit's is `AlarmManager.Alarm`).
    public typealias Alarm = TocsinCore.Alarm
}

extension AlarmChange {
    /// The agent's description of an alarm (TocsinCore's `Alarm`).
    public typealias Alarm = TocsinCore.Alarm
}
