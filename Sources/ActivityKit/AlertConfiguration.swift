/// ActivityKit's `AlertConfiguration`, as far as AlarmKit uses it: the namespace of an alarm's
/// sound, so `sound: .named("bell")`, `AlertConfiguration.AlertSound.default` and a file's
/// `import ActivityKit` port as written. (TocsinKit re-exports this module.)
///
/// ActivityKit's `init(title:body:sound:)`, for a Live Activity update's alert, has no use here:
/// the agent shows the alarm itself.
public enum AlertConfiguration {
    /// What an alarm plays while it rings, looped until it is answered — played by the agent
    /// itself, so a notification server that mutes sounds cannot silence it.
    public enum AlertSound: Codable, Hashable, Sendable {
        /// The sound theme's alarm clock (`alarm-clock-elapsed`).
        case `default`
        /// A sound-theme event id such as `"bell"` or `"phone-incoming-call"`, or the absolute path
        /// of a 16-bit WAV or Ogg file (the agent checks it can read it when scheduling). There is
        /// no app bundle to look a bare file name up in.
        case named(String)
    }
}
