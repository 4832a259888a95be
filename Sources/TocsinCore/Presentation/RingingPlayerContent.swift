import FoundationEssentials

/// What Tocsin's media player (MPRIS, `org.mpris.MediaPlayer2.tocsin`) shows while alarms ring,
/// and what each of its controls does. Lock screens (Plasma's, GNOME 49's, gtklock's playerctl
/// module), the keyboard's media keys while locked, phone remotes and `playerctl` all reach a
/// media player where they reach no notification: through it, a ringing alarm can be stopped or
/// snoozed without unlocking.
///
/// It shows one alarm, the one ringing longest — the one the user has been woken by; when it is
/// answered, the next one shows. The artist line says what the controls do, since a lock screen
/// draws only a media player's usual buttons.
///
/// Where a lock screen loses sight of players that come after the last one left (Plasma 5.27's
/// greeter, `AgentState.Screen.lockScreenKeepsPlayer`), the player also *waits* there between
/// rings: stopped, without controls, showing the alarm that rings next and when.
public struct RingingPlayerContent: Sendable, Equatable {
    /// A control of the player: MPRIS's methods, by their names on the bus.
    public enum Control: String, Sendable, CaseIterable {
        case play = "Play"
        case pause = "Pause"
        case playPause = "PlayPause"
        case stop = "Stop"
        case next = "Next"
        case previous = "Previous"
    }

    /// The alarm shown, which the controls act on.
    public var alarmID: UUID
    /// The track's title (`xesam:title`): the alarm's title, or "Alarm"/"Timer" where the user
    /// keeps titles off the lock screen (`LockScreenSettings`), which shows the player.
    public var title: String
    /// The artist line (`xesam:artist`): what the controls do, "Play/Pause or Stop: stop · Next: snooze".
    public var artist: String
    /// What Next does: Snooze, or the alarm's own second button (`.secondary`); `nil` when the
    /// alarm has no second button, and the player has no Next (`CanGoNext` false).
    public var nextIntent: AlarmIntent?
    /// The track's id (`mpris:trackid`), an object path of the alarm's own: a client that follows
    /// tracks sees a new one when another alarm shows.
    public var trackID: String

    /// Whether the alarm shown rings now (MPRIS "Playing", its controls live), rather than being
    /// the next to ring ("Stopped", no control does anything).
    public var isRinging: Bool

    /// Whether the player offers Next.
    public var canGoNext: Bool { nextIntent != nil }

    /// The player for `alarms` (any of the book's; those that ring are looked at): the one that
    /// has rung longest, titled as `settings` allows; `nil` when none rings, and there is no player.
    public init?(alarms: some Sequence<Alarm>, settings: LockScreenSettings = .standard) {
        var longest: (alarm: Alarm, since: Date)?
        for alarm in alarms {
            guard case .alerting(let since) = alarm.state else { continue }
            if let current = longest, current.since < since || (current.since == since && AlarmBook.oldestFirst(current.alarm, alarm)) { continue }
            longest = (alarm, since)
        }
        guard let alarm = longest?.alarm else { return nil }
        alarmID = alarm.id
        title = settings.title(of: alarm)
        // "Play/Pause" first: it is the big button of every media row, and the media key.
        var artist = "Play/Pause or Stop: stop"
        if let button = alarm.secondaryButton {
            nextIntent = .secondary
            // The usual Snooze reads as the verb it is; an alarm's own label as the alarm says it.
            let label = button.label == AlarmRequest.defaultSnoozeLabel ? "snooze" : button.label
            artist += " · Next: \(label)"
        } else {
            nextIntent = nil
        }
        self.artist = artist
        isRinging = true
        trackID = Self.trackID(of: alarm)
    }

    /// The player waiting for the next ring of `book`: that alarm, titled as `settings` allows,
    /// the artist line saying when it rings: "Rings at 07:00" within a day of `now`, "Rings Tue
    /// 8 Dec at 07:00" (the day written by `day`) further off; `nil` when nothing will ring.
    ///
    /// The line stays true as time passes without being written again: a time of day alone is
    /// only ever shown for a ring less than a day away, which can only come nearer.
    public init?(waitingFor book: AlarmBook, now: Date, settings: LockScreenSettings = .standard,
                 timeOfDay: (Date) -> String, day: (Date) -> String) {
        guard let (alarm, date) = book.nextToRing else { return nil }
        alarmID = alarm.id
        title = settings.title(of: alarm)
        artist = date.timeIntervalSince(now) < Self.dayLong
            ? "Rings at \(timeOfDay(date))"
            : "Rings \(day(date)) at \(timeOfDay(date))"
        nextIntent = nil
        isRinging = false
        trackID = Self.trackID(of: alarm)
    }

    /// How far off a ring may be for the waiting player to name its time of day alone.
    static let dayLong: TimeInterval = 86_400

    /// The track id of `alarm`'s (an object path's elements take no "-").
    private static func trackID(of alarm: Alarm) -> String {
        "/io/github/tocsin/Alarm/" + String(alarm.id.uuidString.lowercased().map { $0 == "-" ? "_" : $0 })
    }

    /// The intent `control` performs on the alarm shown, as the notification's button of the
    /// same intent does; `nil` for a control that does nothing (Previous, Next without a second
    /// button). Play and Pause stop it too: a lock screen's one big button, and the media key,
    /// send either, depending on what the player says it does. Nothing while the player waits.
    public func intent(for control: Control) -> AlarmIntent? {
        guard isRinging else { return nil }
        return switch control {
        case .play, .pause, .playPause, .stop: .stop
        case .next: nextIntent
        case .previous: nil
        }
    }
}
