import TocsinCore

/// The command line works with the agent's alarms, TocsinCore's `Alarm`; TocsinKit also exports
/// AlarmKit's `Alarm`, so the name is pinned here for this module.
typealias Alarm = TocsinCore.Alarm
