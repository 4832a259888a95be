import FoundationEssentials

/// Reads what `AlarmJSONWriter` writes (the snapshot, journal lines) without `JSONDecoder`.
///
/// `JSONDecoder` was three quarters of the agent's start-up with 10,000 alarms saved (about 200
/// ms of 260): it builds a map of the whole document, then a keyed container for every object.
/// This reads the bytes once, straight into the values.
///
/// It is a fast path, not a second definition of the format: it accepts only the exact shape the
/// writer produces (every key known, none twice, nothing `null`, the types it writes) and gives up
/// (`nil`) on anything else. Callers then decode with `JSONDecoder`, which either reads it after
/// all (a hand-edited file with an unknown key) or says precisely what is wrong. So whatever this
/// accepts, `JSONDecoder` accepts with the same result — tests check that over random alarms and
/// over thousands of damaged files — and every error message still comes from `JSONDecoder`.
package struct AlarmJSONReader {
    private let bytes: [UInt8]
    private var offset = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The snapshot's format version, zone and alarms, if `data` is in the writer's shape.
    package static func snapshot(_ data: some Collection<UInt8>) -> (format: Int, timeZone: String?, alarms: [Alarm])? {
        var reader = AlarmJSONReader(Array(data))
        return try? reader.readDocument { reader throws(Unreadable) in try reader.readSnapshot() }
    }

    /// The change on one journal line (without its newline), if it is in the writer's shape.
    package static func change(_ line: some Collection<UInt8>) -> JournalChange? {
        var reader = AlarmJSONReader(Array(line))
        return try? reader.readDocument { reader throws(Unreadable) in try reader.readChange() }
    }

    /// Not in the writer's shape; the caller falls back to `JSONDecoder`.
    private struct Unreadable: Error {}

    // MARK: documents

    private mutating func readDocument<Value>(_ body: (inout AlarmJSONReader) throws(Unreadable) -> Value) throws(Unreadable) -> Value {
        skipWhitespace()
        let value = try body(&self)
        skipWhitespace()
        guard offset == bytes.count else { throw Unreadable() }
        return value
    }

    private mutating func readSnapshot() throws(Unreadable) -> (format: Int, timeZone: String?, alarms: [Alarm]) {
        var alarms: [Alarm]?
        var format: Int?
        var timeZone: String?
        try readObject { reader, key throws(Unreadable) in
            switch key {
            case "alarms":
                try reader.unset(alarms)
                var list: [Alarm] = []
                try reader.readArray { reader throws(Unreadable) in list.append(try reader.readAlarm()) }
                alarms = list
            case "format": try reader.unset(format); format = try reader.readInt()
            case "timeZone": try reader.unset(timeZone); timeZone = try reader.readString()
            default: throw Unreadable()
            }
        }
        guard let alarms, let format else { throw Unreadable() }
        return (format, timeZone, alarms)
    }

    private mutating func readChange() throws(Unreadable) -> JournalChange {
        try readSingleCase { reader, name throws(Unreadable) in
            let payload = try reader.readUnlabelledPayload { reader throws(Unreadable) -> JournalChange in
                switch name {
                case "put": .put(try reader.readAlarm())
                case "remove": .remove(try reader.readUUID())
                case "zone": .zone(try reader.readString())
                default: throw Unreadable()
                }
            }
            return payload
        }
    }

    // MARK: the alarm and its parts

    private mutating func readAlarm() throws(Unreadable) -> Alarm {
        var id: UUID?, title: String?, kind: AlarmKind?, schedule: AlarmSchedule?
        var countdownDuration: Double?, snoozeDuration: Double?, snoozes: Int?, secondaryButton: SecondaryButton?
        var sound: AlarmSound?, volume: Double?, crescendo: Double?, ringLimit: Double?, lateLimit: Double?
        var hooks: AlarmHooks?, state: AlarmState?, createdAt: Date?, appID: String?, metadata: String?
        var appConfinement: AppConfinement?, appIntents: AppIntentButtons?, phone: PhoneRingChoice?, lastOccurrence: Date?
        var outputRaise: OutputRaiseChoice?
        try readObject { reader, key throws(Unreadable) in
            switch key {
            case "appConfinement": try reader.unset(appConfinement); appConfinement = try reader.readRawValue(AppConfinement.self)
            case "appID": try reader.unset(appID); appID = try reader.readString()
            case "appIntents": try reader.unset(appIntents); appIntents = try reader.readAppIntents()
            case "countdownDuration": try reader.unset(countdownDuration); countdownDuration = try reader.readDouble()
            case "createdAt": try reader.unset(createdAt); createdAt = try reader.readDate()
            case "crescendo": try reader.unset(crescendo); crescendo = try reader.readDouble()
            case "hooks": try reader.unset(hooks); hooks = try reader.readHooks()
            case "id": try reader.unset(id); id = try reader.readUUID()
            case "kind": try reader.unset(kind); kind = try reader.readRawValue(AlarmKind.self)
            case "lastOccurrence": try reader.unset(lastOccurrence); lastOccurrence = try reader.readDate()
            case "lateLimit": try reader.unset(lateLimit); lateLimit = try reader.readDouble()
            case "metadata": try reader.unset(metadata); metadata = try reader.readString()
            case "outputRaise":
                // Absent from files written before it existed: they read as following the settings.
                try reader.unset(outputRaise)
                outputRaise = reader.peek() == UInt8(ascii: "t") || reader.peek() == UInt8(ascii: "f")
                    ? (try reader.readBool() ? .raise(toPercent: nil) : .never)
                    : .raise(toPercent: try reader.readInt())
            case "phone":
                try reader.unset(phone)
                phone = reader.peek() == UInt8(ascii: "t") || reader.peek() == UInt8(ascii: "f")
                    ? (try reader.readBool() ? .ring(after: nil) : .never)
                    : .ring(after: try reader.readDouble())
            case "ringLimit": try reader.unset(ringLimit); ringLimit = try reader.readDouble()
            case "schedule": try reader.unset(schedule); schedule = try reader.readSchedule()
            case "secondaryButton": try reader.unset(secondaryButton); secondaryButton = try reader.readButton()
            case "snoozeDuration": try reader.unset(snoozeDuration); snoozeDuration = try reader.readDouble()
            case "snoozes": try reader.unset(snoozes); snoozes = try reader.readInt()
            case "sound": try reader.unset(sound); sound = try reader.readSound()
            case "state": try reader.unset(state); state = try reader.readState()
            case "title": try reader.unset(title); title = try reader.readString()
            case "volume": try reader.unset(volume); volume = try reader.readDouble()
            default: throw Unreadable()
            }
        }
        guard let id, let title, let kind, let countdownDuration, let sound, let ringLimit, let lateLimit,
              let hooks, let state, let createdAt else { throw Unreadable() }
        return Alarm(
            id: id, title: title, kind: kind, schedule: schedule, countdownDuration: countdownDuration,
            snoozeDuration: snoozeDuration, snoozes: snoozes, secondaryButton: secondaryButton, sound: sound, volume: volume,
            crescendo: crescendo, phone: phone, outputRaise: outputRaise, ringLimit: ringLimit, lateLimit: lateLimit, hooks: hooks, state: state,
            createdAt: createdAt, appID: appID, appConfinement: appConfinement, metadata: metadata, appIntents: appIntents,
            lastOccurrence: lastOccurrence
        )
    }

    private mutating func readAppIntents() throws(Unreadable) -> AppIntentButtons {
        var executable: String?, modes: [AppIntentButtons.Button: AppIntentButtons.Mode]?
        try readObject { reader, key throws(Unreadable) in
            switch key {
            case "executable": try reader.unset(executable); executable = try reader.readString()
            case "modes":
                try reader.unset(modes)
                var read: [AppIntentButtons.Button: AppIntentButtons.Mode] = [:]
                try reader.readObject { reader, name throws(Unreadable) in
                    guard let button = AppIntentButtons.Button(rawValue: name), read[button] == nil else { throw Unreadable() }
                    read[button] = try reader.readRawValue(AppIntentButtons.Mode.self)
                }
                modes = read
            default: throw Unreadable()
            }
        }
        guard let modes else { throw Unreadable() }
        return AppIntentButtons(modes: modes, executable: executable)
    }

    private mutating func readHooks() throws(Unreadable) -> AlarmHooks {
        var hooks = AlarmHooks()
        var seen = false
        try readObject { reader, key throws(Unreadable) in
            guard key == "commands", !seen else { throw Unreadable() }
            seen = true
            try reader.readObject { reader, event throws(Unreadable) in
                guard let event = HookEvent(rawValue: event), hooks[event] == nil else { throw Unreadable() }
                hooks[event] = try reader.readString()
            }
        }
        guard seen else { throw Unreadable() }
        return hooks
    }

    private mutating func readButton() throws(Unreadable) -> SecondaryButton {
        var label: String?, behavior: SecondaryButton.Behavior?
        try readObject { reader, key throws(Unreadable) in
            switch key {
            case "label": try reader.unset(label); label = try reader.readString()
            case "behavior": try reader.unset(behavior); behavior = try reader.readRawValue(SecondaryButton.Behavior.self)
            default: throw Unreadable()
            }
        }
        guard let label, let behavior else { throw Unreadable() }
        return SecondaryButton(label: label, behavior: behavior)
    }

    private mutating func readSchedule() throws(Unreadable) -> AlarmSchedule {
        try readSingleCase { reader, name throws(Unreadable) in
            var date: Date?, localDate: LocalDate?, time: TimeOfDay?, weekdays: Set<Weekday>?
            try reader.readObject { reader, key throws(Unreadable) in
                switch (name, key) {
                case ("fixed", "date"): try reader.unset(date); date = try reader.readDate()
                case ("localDateTime", "date"):
                    try reader.unset(localDate)
                    let text = try reader.readString()
                    do { localDate = try TimeOfDayParser.parseDate(text) } catch { throw Unreadable() }
                case ("timeOfDay", "time"), ("localDateTime", "time"):
                    try reader.unset(time)
                    let text = try reader.readString()
                    do { time = try TimeOfDayParser.parse(text) } catch { throw Unreadable() }
                case ("timeOfDay", "weekdays"):
                    try reader.unset(weekdays)
                    var days = Set<Weekday>()
                    try reader.readArray { reader throws(Unreadable) in days.insert(try reader.readRawValue(Weekday.self)) }
                    weekdays = days
                default: throw Unreadable()
                }
            }
            switch name {
            case "fixed": guard let date else { throw Unreadable() }; return .fixed(date)
            case "timeOfDay": guard let time, let weekdays else { throw Unreadable() }; return .timeOfDay(time, weekdays: weekdays)
            default: guard let localDate, let time else { throw Unreadable() }; return .localDateTime(localDate, time)
            }
        }
    }

    private mutating func readSound() throws(Unreadable) -> AlarmSound {
        try readSingleCase { reader, name throws(Unreadable) in
            switch name {
            case "standard":
                try reader.readObject { _, _ throws(Unreadable) in throw Unreadable() }
                return .standard
            case "themeEvent": return .themeEvent(try reader.readUnlabelledPayload { reader throws(Unreadable) in try reader.readString() })
            case "file": return .file(try reader.readUnlabelledPayload { reader throws(Unreadable) in try reader.readString() })
            default: throw Unreadable()
            }
        }
    }

    private mutating func readState() throws(Unreadable) -> AlarmState {
        try readSingleCase { reader, name throws(Unreadable) in
            switch name {
            case "scheduled":
                return .scheduled(fireDate: try reader.readLabelledDate("fireDate"))
            case "alerting":
                return .alerting(since: try reader.readLabelledDate("since"))
            case "countdown":
                return .countdown(try reader.readUnlabelledPayload { reader throws(Unreadable) in
                    var fireDate: Date?, duration: Double?, followsWallClock: Bool?
                    try reader.readObject { reader, key throws(Unreadable) in
                        switch key {
                        case "fireDate": try reader.unset(fireDate); fireDate = try reader.readDate()
                        case "duration": try reader.unset(duration); duration = try reader.readDouble()
                        case "followsWallClock": try reader.unset(followsWallClock); followsWallClock = try reader.readBool()
                        default: throw Unreadable()
                        }
                    }
                    guard let fireDate, let duration, let followsWallClock else { throw Unreadable() }
                    return CountdownPhase(fireDate: fireDate, duration: duration, followsWallClock: followsWallClock)
                })
            case "paused":
                return .paused(try reader.readUnlabelledPayload { reader throws(Unreadable) in
                    var remaining: Double?, duration: Double?
                    try reader.readObject { reader, key throws(Unreadable) in
                        switch key {
                        case "remaining": try reader.unset(remaining); remaining = try reader.readDouble()
                        case "duration": try reader.unset(duration); duration = try reader.readDouble()
                        default: throw Unreadable()
                        }
                    }
                    guard let remaining, let duration else { throw Unreadable() }
                    return PausedPhase(remaining: remaining, duration: duration)
                })
            default:
                throw Unreadable()
            }
        }
    }

    /// `{"<label>":<date>}`, the payload of a case with one labelled date.
    private mutating func readLabelledDate(_ label: String) throws(Unreadable) -> Date {
        var date: Date?
        try readObject { reader, key throws(Unreadable) in
            guard key == label else { throw Unreadable() }
            try reader.unset(date)
            date = try reader.readDate()
        }
        guard let date else { throw Unreadable() }
        return date
    }

    // MARK: enum shapes (synthesized Codable)

    /// `{"<case>":<payload>}` with exactly one case key.
    private mutating func readSingleCase<Value>(_ body: (inout AlarmJSONReader, String) throws(Unreadable) -> Value) throws(Unreadable) -> Value {
        var value: Value?
        try readObject { reader, name throws(Unreadable) in
            guard value == nil else { throw Unreadable() }
            value = try body(&reader, name)
        }
        guard let value else { throw Unreadable() }
        return value
    }

    /// `{"_0":<value>}`, the payload of a case with one unlabelled value.
    private mutating func readUnlabelledPayload<Value>(_ body: (inout AlarmJSONReader) throws(Unreadable) -> Value) throws(Unreadable) -> Value {
        var value: Value?
        try readObject { reader, key throws(Unreadable) in
            guard key == "_0", value == nil else { throw Unreadable() }
            value = try body(&reader)
        }
        guard let value else { throw Unreadable() }
        return value
    }

    // MARK: JSON

    /// Refuses a key seen before in the same object.
    private func unset<Value>(_ value: Value?) throws(Unreadable) {
        guard value == nil else { throw Unreadable() }
    }

    /// `{"key":<value>,…}`; `member` reads each value, given its key.
    private mutating func readObject(_ member: (inout AlarmJSONReader, String) throws(Unreadable) -> Void) throws(Unreadable) {
        try readDelimited(UInt8(ascii: "{"), UInt8(ascii: "}")) { reader throws(Unreadable) in
            let key = try reader.readString()
            reader.skipWhitespace()
            try reader.expect(UInt8(ascii: ":"))
            reader.skipWhitespace()
            try member(&reader, key)
        }
    }

    /// `[<value>,…]`; `element` reads each value.
    private mutating func readArray(_ element: (inout AlarmJSONReader) throws(Unreadable) -> Void) throws(Unreadable) {
        try readDelimited(UInt8(ascii: "["), UInt8(ascii: "]"), element)
    }

    /// `open`, items separated by commas (none is fine), `close`.
    private mutating func readDelimited(_ open: UInt8, _ close: UInt8, _ item: (inout AlarmJSONReader) throws(Unreadable) -> Void) throws(Unreadable) {
        try expect(open)
        skipWhitespace()
        if peek() == close {
            offset += 1
            return
        }
        while true {
            skipWhitespace()
            try item(&self)
            skipWhitespace()
            if peek() == UInt8(ascii: ",") {
                offset += 1
                continue
            }
            try expect(close)
            return
        }
    }

    private mutating func readString() throws(Unreadable) -> String {
        try expect(UInt8(ascii: "\""))
        let start = offset
        // The common case: no escapes, so the text is the bytes between the quotes.
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\"") {
                let text = try Self.text(bytes[start..<offset])
                offset += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            guard byte >= 0x20 else { throw Unreadable() }
            offset += 1
        }
        var unescaped = Array(bytes[start..<offset])
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            switch byte {
            case UInt8(ascii: "\""):
                return try Self.text(unescaped[...])
            case UInt8(ascii: "\\"):
                guard offset < bytes.count else { throw Unreadable() }
                let escaped = bytes[offset]
                offset += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): unescaped.append(escaped)
                case UInt8(ascii: "b"): unescaped.append(0x08)
                case UInt8(ascii: "f"): unescaped.append(0x0C)
                case UInt8(ascii: "n"): unescaped.append(0x0A)
                case UInt8(ascii: "r"): unescaped.append(0x0D)
                case UInt8(ascii: "t"): unescaped.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try readHexQuad()
                    if (0xD800..<0xDC00).contains(scalar) {
                        // A high surrogate must be followed by an escaped low one.
                        guard offset + 1 < bytes.count, bytes[offset] == UInt8(ascii: "\\"), bytes[offset + 1] == UInt8(ascii: "u") else { throw Unreadable() }
                        offset += 2
                        let low = try readHexQuad()
                        guard (0xDC00..<0xE000).contains(low) else { throw Unreadable() }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw Unreadable()
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw Unreadable() }
                    unescaped.append(contentsOf: String(Character(unicode)).utf8)
                default:
                    throw Unreadable()
                }
            default:
                guard byte >= 0x20 else { throw Unreadable() }
                unescaped.append(byte)
            }
        }
        throw Unreadable()
    }

    private mutating func readHexQuad() throws(Unreadable) -> UInt32 {
        guard offset + 4 <= bytes.count else { throw Unreadable() }
        var value: UInt32 = 0
        for byte in bytes[offset..<offset + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Unreadable()
            }
            value = value << 4 | UInt32(digit)
        }
        offset += 4
        return value
    }

    /// UTF-8 bytes as a string; invalid UTF-8 is left to JSONDecoder.
    private static func text(_ utf8: ArraySlice<UInt8>) throws(Unreadable) -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else { throw Unreadable() }
        return text
    }

    /// A number in JSON's grammar, converted by the same correctly rounded conversion JSONDecoder uses.
    private mutating func readDouble() throws(Unreadable) -> Double {
        let token = try numberToken()
        guard let value = Double(String(decoding: token, as: UTF8.self)), value.isFinite else { throw Unreadable() }
        return value
    }

    private mutating func readInt() throws(Unreadable) -> Int {
        let token = try numberToken()
        guard let value = Int(String(decoding: token, as: UTF8.self)) else { throw Unreadable() }
        return value
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    private mutating func numberToken() throws(Unreadable) -> ArraySlice<UInt8> {
        let start = offset
        if peek() == UInt8(ascii: "-") { offset += 1 }
        if peek() == UInt8(ascii: "0") {
            offset += 1
        } else {
            guard skipDigits() > 0 else { throw Unreadable() }
        }
        if peek() == UInt8(ascii: ".") {
            offset += 1
            guard skipDigits() > 0 else { throw Unreadable() }
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            offset += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
            guard skipDigits() > 0 else { throw Unreadable() }
        }
        return bytes[start..<offset]
    }

    private mutating func skipDigits() -> Int {
        let start = offset
        while let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { offset += 1 }
        return offset - start
    }

    private mutating func readBool() throws(Unreadable) -> Bool {
        if matches("true") { return true }
        if matches("false") { return false }
        throw Unreadable()
    }

    private mutating func readDate() throws(Unreadable) -> Date {
        Date(timeIntervalSinceReferenceDate: try readDouble())
    }

    private mutating func readUUID() throws(Unreadable) -> UUID {
        guard let id = UUID(uuidString: try readString()) else { throw Unreadable() }
        return id
    }

    private mutating func readRawValue<Value: RawRepresentable<String>>(_ type: Value.Type) throws(Unreadable) -> Value {
        guard let value = Value(rawValue: try readString()) else { throw Unreadable() }
        return value
    }

    private mutating func matches(_ word: StaticString) -> Bool {
        let length = word.utf8CodeUnitCount
        guard offset + length <= bytes.count else { return false }
        let same = word.withUTF8Buffer { $0.elementsEqual(bytes[offset..<offset + length]) }
        if same { offset += length }
        return same
    }

    private func peek() -> UInt8? {
        offset < bytes.count ? bytes[offset] : nil
    }

    private mutating func expect(_ byte: UInt8) throws(Unreadable) {
        guard peek() == byte else { throw Unreadable() }
        offset += 1
    }

    /// JSON's whitespace: space, tab, line feed, carriage return.
    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { offset += 1 }
    }
}
