import FoundationEssentials

/// Writes alarms as JSON by hand: the journal's line for every change, and the snapshot.
///
/// `JSONEncoder` was about a fifth of the agent's time in a Schedule call: for every line it
/// builds a tree of boxed values and sorts each object's keys. This writes the same bytes
/// straight into one buffer: the keys `JSONEncoder` writes for these types (synthesized
/// `Codable`, `.sortedKeys`, `.deferredToDate`), in the same order, with numbers and strings
/// spelled the same way. Files written before and after it are therefore identical, and
/// `JSONDecoder` still reads everything back through the types' own `Decodable`.
///
/// Tests compare it with `JSONEncoder` byte for byte over every case of every type. A test
/// counts `Alarm`'s stored properties, so adding one fails until it is written here as well.
package struct AlarmJSONWriter {
    /// The UTF-8 text written so far.
    package private(set) var bytes: [UInt8] = []

    /// An empty writer that can hold `capacity` bytes before it grows.
    package init(capacity: Int = 1024) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends a newline (the journal's line separator).
    package mutating func writeNewline() {
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Writes `change` as `{"put":{"_0":<alarm>}}`, `{"remove":{"_0":"<id>"}}` or `{"zone":{"_0":"<id>"}}`.
    package mutating func write(_ change: JournalChange) throws(AlarmJSONWriter.Failure) {
        switch change {
        case .put(let alarm): try writeCase("put") { writer throws(Failure) in try writer.write(alarm) }
        case .remove(let id): writeCase("remove") { $0.write(id) }
        case .zone(let identifier): writeCase("zone") { $0.write(identifier) }
        }
    }

    /// Writes the snapshot file's object: `{"alarms":[…],"format":N,"timeZone":"…"}` (no
    /// `timeZone` when `nil`).
    package mutating func writeSnapshot(format: Int, timeZone: String?, alarms: [Alarm]) throws(AlarmJSONWriter.Failure) {
        writeRaw("{\"alarms\":[")
        for (index, alarm) in alarms.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            try write(alarm)
        }
        writeRaw("],\"format\":")
        writeRaw(String(format))
        if let timeZone {
            writeRaw(",\"timeZone\":")
            write(timeZone)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// Writes one alarm, its keys in `JSONEncoder`'s sorted order; optional properties that are
    /// `nil` are left out, as synthesized `Codable` does.
    package mutating func write(_ alarm: Alarm) throws(AlarmJSONWriter.Failure) {
        var object = ObjectWriter()
        if let confinement = alarm.appConfinement { object.key("appConfinement", &self); write(confinement.rawValue) }
        if let appID = alarm.appID { object.key("appID", &self); write(appID) }
        if let intents = alarm.appIntents { object.key("appIntents", &self); write(intents) }
        object.key("countdownDuration", &self); try write(alarm.countdownDuration, "countdownDuration")
        object.key("createdAt", &self); try write(alarm.createdAt, "createdAt")
        if let crescendo = alarm.crescendo { object.key("crescendo", &self); try write(crescendo, "crescendo") }
        object.key("hooks", &self); write(alarm.hooks)
        object.key("id", &self); write(alarm.id)
        object.key("kind", &self); write(alarm.kind.rawValue)
        if let occurrence = alarm.lastOccurrence { object.key("lastOccurrence", &self); try write(occurrence, "lastOccurrence") }
        object.key("lateLimit", &self); try write(alarm.lateLimit, "lateLimit")
        if let metadata = alarm.metadata { object.key("metadata", &self); write(metadata) }
        if let outputRaise = alarm.outputRaise {
            // As OutputRaiseChoice encodes itself: false, true, or the level.
            object.key("outputRaise", &self)
            switch outputRaise {
            case .never: writeRaw("false")
            case .raise(nil): writeRaw("true")
            case .raise(let percent?): writeRaw(String(percent))
            }
        }
        if let phone = alarm.phone {
            // As PhoneRingChoice encodes itself: false, true, or the delay.
            object.key("phone", &self)
            switch phone {
            case .never: writeRaw("false")
            case .ring(nil): writeRaw("true")
            case .ring(let after?): try write(after, "phone")
            }
        }
        object.key("ringLimit", &self); try write(alarm.ringLimit, "ringLimit")
        if let schedule = alarm.schedule { object.key("schedule", &self); try write(schedule) }
        if let button = alarm.secondaryButton {
            object.key("secondaryButton", &self)
            writeRaw("{\"behavior\":")
            write(button.behavior.rawValue)
            writeRaw(",\"label\":")
            write(button.label)
            bytes.append(UInt8(ascii: "}"))
        }
        if let snooze = alarm.snoozeDuration { object.key("snoozeDuration", &self); try write(snooze, "snoozeDuration") }
        if let snoozes = alarm.snoozes { object.key("snoozes", &self); writeRaw(String(snoozes)) }
        object.key("sound", &self); write(alarm.sound)
        object.key("state", &self); try write(alarm.state)
        object.key("title", &self); write(alarm.title)
        if let volume = alarm.volume { object.key("volume", &self); try write(volume, "volume") }
        bytes.append(UInt8(ascii: "}"))
    }

    private mutating func write(_ intents: AppIntentButtons) {
        bytes.append(UInt8(ascii: "{"))
        if let executable = intents.executable {
            writeRaw("\"executable\":")
            write(executable)
            bytes.append(UInt8(ascii: ","))
        }
        writeRaw("\"modes\":{")
        var first = true
        for button in Self.intentButtonsInKeyOrder {
            guard let mode = intents.modes[button] else { continue }
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            write(button.rawValue)
            bytes.append(UInt8(ascii: ":"))
            write(mode.rawValue)
        }
        writeRaw("}}")
    }

    private static let intentButtonsInKeyOrder = AppIntentButtons.Button.allCases.sorted { $0.rawValue.utf8.lexicographicallyPrecedes($1.rawValue.utf8) }

    private mutating func write(_ hooks: AlarmHooks) {
        writeRaw("{\"commands\":{")
        var first = true
        // HookEvent's raw values sorted, as `.sortedKeys` orders the dictionary's keys.
        for event in Self.hookEventsInKeyOrder {
            guard let command = hooks[event] else { continue }
            if !first { bytes.append(UInt8(ascii: ",")) }
            first = false
            write(event.rawValue)
            bytes.append(UInt8(ascii: ":"))
            write(command)
        }
        writeRaw("}}")
    }

    private static let hookEventsInKeyOrder = HookEvent.allCases.sorted { $0.rawValue.utf8.lexicographicallyPrecedes($1.rawValue.utf8) }

    private mutating func write(_ schedule: AlarmSchedule) throws(AlarmJSONWriter.Failure) {
        switch schedule {
        case .fixed(let date):
            writeRaw("{\"fixed\":{\"date\":")
            try write(date, "schedule.fixed.date")
            writeRaw("}}")
        case .timeOfDay(let time, let weekdays):
            writeRaw("{\"timeOfDay\":{\"time\":")
            write(time.description)
            writeRaw(",\"weekdays\":[")
            for (index, weekday) in weekdays.sorted().enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(weekday.rawValue)
            }
            writeRaw("]}}")
        case .localDateTime(let date, let time):
            writeRaw("{\"localDateTime\":{\"date\":")
            write(date.description)
            writeRaw(",\"time\":")
            write(time.description)
            writeRaw("}}")
        }
    }

    private mutating func write(_ sound: AlarmSound) {
        switch sound {
        case .standard:
            writeRaw("{\"standard\":{}}")
        case .themeEvent(let id): writeCase("themeEvent") { $0.write(id) }
        case .file(let path): writeCase("file") { $0.write(path) }
        }
    }

    /// `{"<case>":{"_0":<value>}}`: an enum case with one unlabelled value, as synthesized
    /// `Codable` writes it.
    private mutating func writeCase(_ name: StaticString, _ value: (inout AlarmJSONWriter) throws(Failure) -> Void) throws(Failure) {
        openCase(name)
        try value(&self)
        writeRaw("}}")
    }

    /// The same, for a value that cannot fail to be written.
    private mutating func writeCase(_ name: StaticString, _ value: (inout AlarmJSONWriter) -> Void) {
        openCase(name)
        value(&self)
        writeRaw("}}")
    }

    /// `{"<case>":{"_0":`, the opening of `writeCase`.
    private mutating func openCase(_ name: StaticString) {
        writeRaw("{\"")
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        writeRaw("\":{\"_0\":")
    }

    private mutating func write(_ state: AlarmState) throws(AlarmJSONWriter.Failure) {
        switch state {
        case .scheduled(let fireDate):
            writeRaw("{\"scheduled\":{\"fireDate\":")
            try write(fireDate, "state.scheduled.fireDate")
            writeRaw("}}")
        case .countdown(let phase):
            writeRaw("{\"countdown\":{\"_0\":{\"duration\":")
            try write(phase.duration, "state.countdown.duration")
            writeRaw(",\"fireDate\":")
            try write(phase.fireDate, "state.countdown.fireDate")
            writeRaw(",\"followsWallClock\":")
            writeRaw(phase.followsWallClock ? "true" : "false")
            writeRaw("}}}")
        case .paused(let phase):
            writeRaw("{\"paused\":{\"_0\":{\"duration\":")
            try write(phase.duration, "state.paused.duration")
            writeRaw(",\"remaining\":")
            try write(phase.remaining, "state.paused.remaining")
            writeRaw("}}}")
        case .alerting(let since):
            writeRaw("{\"alerting\":{\"since\":")
            try write(since, "state.alerting.since")
            writeRaw("}}")
        }
    }

    /// A date as `.deferredToDate` writes it: seconds since 2001-01-01 (Foundation's own
    /// representation, which round-trips exactly).
    private mutating func write(_ date: Date, _ path: String) throws(AlarmJSONWriter.Failure) {
        try write(date.timeIntervalSinceReferenceDate, path)
    }

    /// A number as `JSONEncoder` writes it: Swift's shortest text that reads back the same, with
    /// a trailing `.0` dropped ("60", "0.5", "1e+20"). JSON has no infinity or NaN, and
    /// `JSONEncoder` refuses them too.
    private mutating func write(_ number: Double, _ path: String) throws(AlarmJSONWriter.Failure) {
        guard number.isFinite else { throw Failure(message: "\(path) is \(number), which JSON cannot hold") }
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        writeRaw(text)
    }

    private mutating func write(_ id: UUID) {
        write(id.uuidString)
    }

    /// A string as `JSONEncoder` escapes it (the slash too).
    private mutating func write(_ string: String) {
        JSONStringText.append(string, escapingSlashes: true, to: &bytes)
    }

    private mutating func writeRaw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// Puts the commas between an object's members.
    private struct ObjectWriter {
        private var isFirst = true

        /// Writes `{` or `,`, then `"name":`.
        mutating func key(_ name: StaticString, _ writer: inout AlarmJSONWriter) {
            writer.bytes.append(UInt8(ascii: isFirst ? "{" : ","))
            isFirst = false
            writer.bytes.append(UInt8(ascii: "\""))
            name.withUTF8Buffer { writer.bytes.append(contentsOf: $0) }
            writer.bytes.append(contentsOf: "\":".utf8)
        }
    }

    /// A value JSON cannot hold (an infinite or NaN number); `message` names it.
    package struct Failure: Error, Sendable {
        /// Which value, and why.
        package let message: String
    }
}
