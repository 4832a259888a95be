import TocsinCore

extension AlarmManager {
    /// Every alarm and timer of this application, oldest first, as the agent holds them now.
    /// - Throws: `AlarmError.agentUnavailable` when the agent cannot be reached.
    public var alarms: [Alarm] {
        get throws {
            startListening()
            return try agent.call { client throws(TocsinError) in try client.alarms() }
                .filter { $0.owner == appID }
                .map(AlarmTranslation.kitAlarm)
        }
    }

    /// The application's alarms after every change — AlarmKit's `alarmUpdates`: the current
    /// list first (once the agent answers), then a full list, oldest first, for each change the
    /// agent announces, in order (a timer: `.countdown`, `.paused`, `.countdown`, `.alerting`,
    /// then gone). Changes made by other processes of the same application are included.
    ///
    /// Fed by the agent's signals on TocsinKit's own background thread; the sequence never ends
    /// while the manager exists, and keeps going across agent restarts (re-reading the list when
    /// the agent comes back). The first access to this or the other update sequences starts that
    /// thread and returns once it listens, so no change caused by a later call is missed.
    public var alarmUpdates: AlarmUpdates {
        startListening()
        // The list replayed first includes this process's own changes so far: an alarm
        // `schedule` just returned is in it, not only in a later list (AlarmKit's sample loops
        // stop on an empty list).
        watcher.catchUp()
        return AlarmUpdates(lists: watcher.snapshots.subscribe())
    }

    /// Every change of one of the application's alarms, from now on: Tocsin's addition, saying
    /// what happened — in particular `.stopped` and `.secondary`, the stop and secondary intents
    /// an app handles itself (`AlarmActionIntent.inApp`). Subscribe before scheduling: unlike
    /// `alarmUpdates`, nothing that happened before is replayed.
    public var alarmEvents: AsyncStream<AlarmEvent> {
        startListening()
        return watcher.events.subscribe()
    }
}
