import TocsinKit

/// The words Chime's list shows for an alarm.
extension Alarm {
    /// When it rings, as the list's second line says it.
    var scheduleText: String {
        guard let schedule else { return "timer" }
        switch schedule {
        case .fixed(let date):
            return "on \(date.formatted(.iso8601))"
        case .relative(let relative):
            let time = String(format: "%02d:%02d", relative.time.hour, relative.time.minute)
            switch relative.repeats {
            case .never:
                return "once at \(time)"
            case .weekly(let days):
                return "\(days.map(\.shortName).joined(separator: ", ")) at \(time)"
            }
        }
    }

    /// What it is doing now.
    var stateText: String {
        switch state {
        case .scheduled: "waiting"
        case .countdown: "counting down"
        case .paused: "paused"
        case .alerting: "ringing"
        }
    }

    /// The live activity's line: the time left, the time it was paused at, or since when it rings.
    var liveText: String? {
        guard let presentationState else { return nil }
        switch presentationState.mode {
        case .countdown(let countdown):
            return "rings at \(countdown.fireDate.formatted(.iso8601)) of \(Int(countdown.totalCountdownDuration)) s"
        case .paused(let paused):
            return "\(Int(paused.totalCountdownDuration - paused.previouslyElapsedDuration)) s left"
        case .alert(let alert):
            return String(format: "ringing since %02d:%02d", alert.time.hour, alert.time.minute)
        }
    }
}

extension Locale.Weekday {
    /// The day's three-letter English name.
    var shortName: String {
        switch self {
        case .monday: "Mon"
        case .tuesday: "Tue"
        case .wednesday: "Wed"
        case .thursday: "Thu"
        case .friday: "Fri"
        case .saturday: "Sat"
        case .sunday: "Sun"
        @unknown default: "?"
        }
    }
}

extension AlarmManager.AuthorizationState {
    /// What the settings screen says.
    var settingsText: String {
        switch self {
        case .notDetermined: "not asked yet"
        case .denied: "not allowed"
        case .authorized: "allowed"
        }
    }
}
