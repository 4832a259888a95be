/// AlarmKit's `Alarm`, at the top level as in AlarmKit: `import TocsinKit` code reads `Alarm`
/// the way iOS code does. (The agent's own description of an alarm stays `TocsinCore.Alarm`,
/// which `TocsinClient` and `AlarmChange` keep using.)
public typealias Alarm = AlarmManager.Alarm
