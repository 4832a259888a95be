/// What happens when an alarm is stopped, or its custom secondary button is pressed — the Linux
/// stand-in for the App Intents AlarmKit takes as `stopIntent` and `secondaryIntent`.
///
/// An application that was not running when the button was pressed learns of it only through a
/// `.command` (which can start the app: `.command("cooking-app --step 2")`); the agent keeps no
/// history of events. Reading `AlarmManager.alarms` on start shows which alarms are still there,
/// not why the others went.
public enum AlarmActionIntent: Codable, Hashable, Sendable {
    /// A shell command the agent runs with `/bin/sh -c` when it happens, whether or not the app
    /// is running. Its environment carries `TOCSIN_ID` (the alarm's id),
    /// `TOCSIN_TITLE`, `TOCSIN_EVENT` (`stop` or `secondary`), `TOCSIN_APP_ID` (so an app it
    /// starts speaks for the same application), `TOCSIN_FIRE_TIME` and `TOCSIN_METADATA` — the
    /// JSON `{"tocsinkit": 1, "id": "<Alarm.id>", "metadata": <your metadata>}`. Put anything else
    /// the command needs (your alarm id, a step number) in its text: you know them when scheduling.
    ///
    /// Not for an app in a Flatpak sandbox: the command would run outside the sandbox, so
    /// scheduling it fails with `AlarmError.notAuthorized`. A sandboxed app uses `.inApp`.
    case command(String)
    /// Nothing runs: the running application handles it, seeing a `.stopped` or `.secondary`
    /// `AlarmManager.AlarmEvent` in `AlarmManager.alarmEvents`. The same as passing `nil`.
    case inApp
}
