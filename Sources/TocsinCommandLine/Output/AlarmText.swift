import Foundation
import TocsinCore

/// How `tocsin` writes alarms for people (tables, details, watch lines) and for programs (JSON).
struct AlarmText {
    /// Writes times in the zone and for the locale they are shown in (`CommandContext.text`).
    let writer: NotificationContentWriter

    /// The first eight characters of an id: enough to tell alarms apart, and accepted as a prefix.
    static func shortID(_ id: UUID) -> String {
        String(id.hexText.prefix(8))
    }

    /// What the alarm is doing at `now`, in a few words ("2:59 left, rings 14:03", "ringing since 14:03").
    func status(of alarm: Alarm, at now: Date) -> String {
        switch alarm.state {
        case .countdown(let phase):
            "\(Self.clock(phase.remaining(at: now))) left, rings \(writer.timeOfDay(phase.fireDate))"
        case .paused(let phase):
            "\(Self.clock(phase.remaining)) left, paused"
        case .alerting(let since):
            "ringing since \(writer.timeOfDay(since))"
        case .scheduled(let fireDate):
            "rings \(ScheduleCalculator.describe(fireDate, in: writer.timeZone))" + Self.repeatSuffix(of: alarm)
        }
    }

    /// ", daily" or ", on weekdays" for a repeating alarm; empty otherwise.
    static func repeatSuffix(of alarm: Alarm) -> String {
        guard let schedule = alarm.schedule, case .timeOfDay(_, let weekdays) = schedule, !weekdays.isEmpty else { return "" }
        return ", " + Weekday.describe(weekdays)
    }

    /// A table of alarms, one per line, with a header.
    func table(_ alarms: [Alarm], at now: Date) -> String {
        let rows = alarms.map { [Self.shortID($0.id), $0.state.name.rawValue, status(of: $0, at: now), $0.title] }
        let header = ["ID", "STATE", "STATUS", "TITLE"]
        let widths = (0..<header.count).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    /// Every detail of one alarm, one "name: value" per line.
    func details(of alarm: Alarm, at now: Date) -> String {
        var lines: [(String, String)] = [
            ("id", alarm.id.uuidString.lowercased()),
            ("title", alarm.title),
            ("kind", alarm.kind.rawValue),
            ("state", "\(alarm.state.name.rawValue) (\(status(of: alarm, at: now)))"),
        ]
        if alarm.kind == .timer { lines.append(("duration", Self.clock(alarm.countdownDuration))) }
        if let schedule = alarm.schedule { lines.append(("schedule", schedule.description(in: writer.timeZone))) }
        if let fireDate = alarm.fireDate { lines.append(("next ring", ScheduleCalculator.describe(fireDate, in: writer.timeZone))) }
        if alarm.kind == .alarm && alarm.countdownDuration > 0 {
            lines.append(("pre-alert", DurationFormat.spoken(alarm.countdownDuration)))
        }
        if let snooze = alarm.snoozeDuration { lines.append(("snooze", DurationFormat.spoken(snooze))) }
        if let button = alarm.secondaryButton {
            lines.append(("button", "“\(button.label)” (\(button.behavior == .countdown ? "snoozes" : "runs the button hook"))"))
        }
        lines.append(("sound", alarm.sound.description))
        lines.append(("ring limit", DurationFormat.spoken(alarm.ringLimit)))
        lines.append(("late limit", DurationFormat.spoken(alarm.lateLimit)))
        switch alarm.phone {
        case .never?: lines.append(("phones", "never rung"))
        case .ring(let after)?: lines.append(("phones", "rung after \(after.map(DurationFormat.spoken) ?? "the delay tocsin phone sets") unanswered"))
        case nil: break
        }
        switch alarm.outputRaise {
        case .never?: lines.append(("output", "never unmuted or raised"))
        case .raise(let percent?)?: lines.append(("output", "unmuted and raised to at least \(percent) % while it rings"))
        case .raise(nil)?: lines.append(("output", "unmuted and raised to the level tocsin config ring-level sets while it rings"))
        case nil: break
        }
        for event in HookEvent.allCases {
            if let command = alarm.hooks[event] { lines.append(("on \(event.rawValue)", command)) }
        }
        lines.append(("created", writer.timeOfDay(alarm.createdAt)))
        let width = lines.map(\.0.count).max() ?? 0
        return lines.map { "\(($0.0 + ":").padding(toLength: width + 1, withPad: " ", startingAt: 0)) \($0.1)" }.joined(separator: "\n")
    }

    /// A watch line: time, event, id, title and what the alarm does now.
    func watchLine(_ event: AlarmEvent.Kind, _ alarm: Alarm, removed: Bool, at now: Date) -> String {
        let status = removed ? "removed" : status(of: alarm, at: now)
        return "\(writer.timeOfDay(now))  \(event.rawValue.padding(toLength: 14, withPad: " ", startingAt: 0))\(Self.shortID(alarm.id))  \(alarm.title)  (\(status))"
    }

    /// The alarm as a JSON object: the D-Bus keys, plus `remaining` for a running countdown.
    static func jsonObject(_ alarm: Alarm, at now: Date) -> JSONValue {
        var object = AlarmWireFormat.encode(alarm).mapValues(jsonValue)
        if case .countdown(let phase) = alarm.state {
            object["remaining"] = .number((phase.remaining(at: now) * 1000).rounded() / 1000)
        }
        return .object(object)
    }

    /// `value` as one line of JSON with sorted keys.
    static func json(_ value: JSONValue) -> String {
        value.jsonText
    }

    private static func clock(_ interval: TimeInterval) -> String {
        DurationFormat.clock(seconds: CountdownClock.displayedSeconds(remaining: interval))
    }

    static func jsonValue(_ value: WireValue) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .double(let number): .number(number)
        case .integer(let number): .integer(Int(number))
        case .bool(let flag): .bool(flag)
        case .stringMap(let map): .object(map.mapValues(JSONValue.string))
        case .dictionary(let dictionary): .object(dictionary.mapValues(jsonValue))
        case .unsupported(let signature): .string("<\(signature)>")
        }
    }
}
