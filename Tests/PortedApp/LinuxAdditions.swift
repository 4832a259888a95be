import TocsinKit

// What the Linux port of Chime adds, with Tocsin's additions beside AlarmKit's API.

extension AlarmForm {
    /// A once-a-year kind of alarm: a date and time on the wall clock, however far ahead.
    static func anniversary(label: String, year: Int, month: Int, day: Int, hour: Int, minute: Int) -> Configuration {
        .alarm(localDateTime: Alarm.LocalDateTime(year: year, month: month, day: day, time: .init(hour: hour, minute: minute)),
               attributes: AlarmAttributes(presentation: AlarmPresentation(alert: .init(title: LocalizedStringResource(label))),
                                           metadata: ChimeMetadata(label: label, kind: .reminder), tintColor: .pink))
    }
}

extension Alarm {
    /// The list's second line for a dated alarm, which AlarmKit's schedule shows as an instant.
    var dateText: String? {
        guard let localDateTime else { return nil }
        return String(format: "%04d-%02d-%02d at %02d:%02d", localDateTime.year, localDateTime.month, localDateTime.day,
                      localDateTime.time.hour, localDateTime.time.minute)
    }

    /// Chime's own data for the alarm, which the agent keeps with it.
    var chime: ChimeMetadata? {
        metadata(as: ChimeMetadata.self)
    }
}
