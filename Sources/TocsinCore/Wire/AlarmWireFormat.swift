import FoundationEssentials

/// The `a{sv}` dictionaries of the `io.github.tocsin.Alarms1` interface: a schedule request going
/// in, an alarm coming out. Shared by the agent and the client library so both read and write the
/// same keys; `dbus/io.github.tocsin.Alarms1.xml` documents them.
///
/// Durations are seconds (`d`), instants are seconds since the Unix epoch (`d`).
public enum AlarmWireFormat {
    /// Keys a `Schedule` request may carry.
    public enum RequestKey: String, CaseIterable, Sendable {
        case kind, title, duration, snooze, buttonLabel = "button-label", sound, ringLimit = "ring-limit", hooks
        case at, time, weekdays, date, preAlert = "pre-alert", lateLimit = "late-limit", volume, crescendo, metadata
        case id, appIntents = "app-intents", appExecutable = "app-executable", phone, phoneAfter = "phone-after"
        case snoozeButton = "snooze-button", soundFallback = "sound-fallback", raiseOutput = "raise-output", ringLevel = "ring-level"
    }

    /// Keys of an alarm returned by `Get`/`List` and carried by signals.
    public enum AlarmKey: String, CaseIterable, Sendable {
        case id, title, kind, state, duration, snooze, buttonLabel = "button-label", buttonBehavior = "button-behavior"
        case sound, ringLimit = "ring-limit", hooks, created, fireTime = "fire-time", phaseDuration = "phase-duration"
        case remaining, alertingSince = "alerting-since"
        case at, time, weekdays, date, lateLimit = "late-limit", followsWallClock = "follows-wall-clock", volume, crescendo
        case appID = "app-id", metadata, appIntents = "app-intents", appExecutable = "app-executable"
        case phone, phoneAfter = "phone-after", raiseOutput = "raise-output", ringLevel = "ring-level"
    }

    /// Keys of the `GetStatus` reply.
    public enum StatusKey: String, CaseIterable, Sendable {
        case version, timeZone = "time-zone", canWakeSystem = "can-wake-system", wakeProblem = "wake-problem"
        case stateFile = "state-file", stateWritable = "state-writable", alarmCount = "alarm-count", ringing
        case notificationServer = "notification-server", notificationActions = "notification-actions"
        case notificationProgress = "notification-progress", doNotDisturb = "do-not-disturb"
        case doNotDisturbHidesAlerts = "do-not-disturb-hides-alerts", doNotDisturbMechanism = "do-not-disturb-mechanism"
        case soundProblem = "sound-problem", alarmSoundInstalled = "alarm-sound-installed", watchers
        /// Who shows the tray item: `PanelReadiness.Host`'s raw values.
        case panel
        /// The sound server, the default output, its mute and loudest channel (percent), and
        /// whether (and to what level) a ringing alarm raises it.
        case soundServer = "sound-server", output, outputMuted = "output-muted", outputVolume = "output-volume"
        case raiseOutput = "raise-output", ringLevel = "ring-level"
    }

    /// Keys of an application's dictionary in the `ListApplications` reply.
    public enum ApplicationKey: String, CaseIterable, Sendable {
        case appID = "app-id", authorization, confinement, alarms
    }

    /// `phone` (b) and `phone-after` (d) for an alarm's own phone choice; neither for none.
    static func phoneValues(_ choice: PhoneRingChoice?) -> (phone: WireValue?, after: WireValue?) {
        switch choice {
        case nil: (nil, nil)
        case .never?: (.bool(false), nil)
        case .ring(let after)?: (.bool(true), after.map(WireValue.double))
        }
    }

    /// `raise-output` (b) and `ring-level` (x) for an alarm's own choice of raising the output;
    /// neither for none.
    static func outputRaiseValues(_ choice: OutputRaiseChoice?) -> (raise: WireValue?, level: WireValue?) {
        switch choice {
        case nil: (nil, nil)
        case .never?: (.bool(false), nil)
        case .raise(let percent)?: (.bool(true), percent.map { .integer(Int64($0)) })
        }
    }

    // MARK: Applications

    /// The `ListApplications` dictionary of `application`.
    public static func encode(_ application: ApplicationRecord) -> [String: WireValue] {
        var dictionary: [String: WireValue] = [
            ApplicationKey.appID.rawValue: .string(application.appID),
            ApplicationKey.authorization.rawValue: .string(application.authorization.rawValue),
            ApplicationKey.alarms.rawValue: .integer(Int64(application.alarmCount)),
        ]
        dictionary[ApplicationKey.confinement.rawValue] = application.confinement.map { .string($0.rawValue) }
        return dictionary
    }

    /// Reads an application's dictionary (the client's side of `encode(_: ApplicationRecord)`);
    /// `nil` when it lacks what a record needs. A confinement this build does not know reads as
    /// not known.
    public static func decodeApplication(_ dictionary: [String: WireValue]) -> ApplicationRecord? {
        guard case .string(let app) = dictionary[ApplicationKey.appID.rawValue],
              case .string(let stateText) = dictionary[ApplicationKey.authorization.rawValue],
              let state = AuthorizationState(rawValue: stateText),
              case .integer(let alarmCount) = dictionary[ApplicationKey.alarms.rawValue] else { return nil }
        var confinement: AppConfinement?
        if case .string(let text) = dictionary[ApplicationKey.confinement.rawValue] { confinement = AppConfinement(rawValue: text) }
        return ApplicationRecord(appID: app, authorization: state, confinement: confinement, alarmCount: Int(alarmCount))
    }

    // MARK: Requests

    /// The dictionary a client sends to `Schedule` for `request`.
    public static func encode(_ request: AlarmRequest) -> [String: WireValue] {
        var dictionary: [RequestKey: WireValue] = [
            .kind: .string(request.kind.rawValue),
            .sound: .string(request.sound.description),
        ]
        switch request.kind {
        case .timer: dictionary[.duration] = .double(request.duration)
        case .alarm where request.duration > 0: dictionary[.preAlert] = .double(request.duration)
        case .alarm: break
        }
        forEachScheduleField(of: request.schedule) { key, value in dictionary[RequestKey(rawValue: key.rawValue)!] = value }
        dictionary[.lateLimit] = request.lateLimit.map(WireValue.double)
        dictionary[.id] = request.id.map { .string($0.hexText) }
        dictionary[.volume] = request.volume.map(WireValue.double)
        dictionary[.crescendo] = request.crescendo.map(WireValue.double)
        (dictionary[.phone], dictionary[.phoneAfter]) = phoneValues(request.phone)
        (dictionary[.raiseOutput], dictionary[.ringLevel]) = outputRaiseValues(request.outputRaise)
        dictionary[.metadata] = request.metadata.map(WireValue.string)
        dictionary[.title] = request.title.map(WireValue.string)
        dictionary[.snooze] = request.snoozeDuration.map(WireValue.double)
        // Sent only when they differ from the default, so an agent older than them still takes
        // every request that does not need them.
        dictionary[.snoozeButton] = request.snoozeButton ? nil : .bool(false)
        dictionary[.soundFallback] = request.soundFallback ? .bool(true) : nil
        dictionary[.buttonLabel] = request.secondaryButtonLabel.map(WireValue.string)
        dictionary[.ringLimit] = request.ringLimit.map(WireValue.double)
        if !request.hooks.isEmpty {
            dictionary[.hooks] = .stringMap(Dictionary(uniqueKeysWithValues: request.hooks.commands.map { ($0.key.rawValue, $0.value) }))
        }
        forEachAppIntentField(of: request.appIntents) { key, value in dictionary[RequestKey(rawValue: key.rawValue)!] = value }
        return Dictionary(uniqueKeysWithValues: dictionary.map { ($0.key.rawValue, $0.value) })
    }

    /// Reads a `Schedule` request, refusing unknown keys and values of the wrong type by name.
    public static func decodeRequest(_ dictionary: [String: WireValue]) throws(AlarmInputError) -> AlarmRequest {
        let fields = try KeyedFields<RequestKey>(dictionary, what: "schedule request")
        let kindName = try fields.string(.kind) ?? AlarmKind.timer.rawValue
        guard let kind = AlarmKind(rawValue: kindName) else {
            throw AlarmInputError("Unknown kind “\(AlarmInputError.quotable(kindName.prefix(64)))”; known kinds: \(AlarmKind.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        let schedule = try fields.schedule(at: .at, time: .time, weekdays: .weekdays, date: .date)
        let duration: TimeInterval
        switch kind {
        case .timer:
            guard let timerDuration = try fields.seconds(.duration) else {
                throw AlarmInputError("A timer request needs a “duration”.")
            }
            guard schedule == nil, try fields.seconds(.preAlert) == nil else {
                throw AlarmInputError("A timer takes a “duration”; “at”, “time”, “date”, “weekdays” and “pre-alert” are for alarms.")
            }
            duration = timerDuration
        case .alarm:
            guard schedule != nil else {
                throw AlarmInputError("An alarm request needs “at” (an instant) or “time” (with “date” or “weekdays” if wanted).")
            }
            guard try fields.seconds(.duration) == nil else {
                throw AlarmInputError("An alarm has no “duration”; its countdown before ringing is “pre-alert”.")
            }
            duration = try fields.seconds(.preAlert) ?? 0
        }
        return AlarmRequest(
            kind: kind,
            schedule: schedule,
            title: try fields.string(.title),
            duration: duration,
            snoozeDuration: try fields.seconds(.snooze),
            snoozeButton: try fields.bool(.snoozeButton) ?? true,
            secondaryButtonLabel: try fields.string(.buttonLabel),
            sound: try fields.string(.sound).map { text throws(AlarmInputError) in try AlarmSound(parsing: text) } ?? .standard,
            soundFallback: try fields.bool(.soundFallback) ?? false,
            volume: try fields.number(.volume),
            crescendo: try fields.seconds(.crescendo),
            phone: try fields.phoneChoice(.phone, after: .phoneAfter),
            outputRaise: try fields.outputRaiseChoice(.raiseOutput, level: .ringLevel),
            ringLimit: try fields.seconds(.ringLimit),
            lateLimit: try fields.seconds(.lateLimit),
            hooks: try fields.hooks(.hooks),
            metadata: try fields.string(.metadata),
            appIntents: try fields.appIntents(.appIntents, executable: .appExecutable),
            id: try fields.string(.id).map { text throws(AlarmInputError) in
                guard let id = UUID(hexText: text) else {
                    throw AlarmInputError("The “id” must be a UUID such as 6f1c2e0a-8d1b-4c55-9f3e-2b7a1d0c9e44 (got “\(AlarmInputError.quotable(text.prefix(64)))”).")
                }
                return id
            }
        )
    }

    /// The keys that spell a schedule: `at` for an instant; `time` alone (once), with `weekdays`
    /// (repeating) or with `date` (a local date and time).
    private static func forEachScheduleField(of schedule: AlarmSchedule?, _ field: (ScheduleKey, WireValue) -> Void) {
        switch schedule {
        case nil:
            break
        case .fixed(let date)?:
            field(.at, .double(date.timeIntervalSince1970))
        case .timeOfDay(let time, let weekdays)?:
            field(.time, .string(time.description))
            if !weekdays.isEmpty { field(.weekdays, .string(weekdays.sorted().map(\.rawValue).joined(separator: ","))) }
        case .localDateTime(let date, let time)?:
            field(.time, .string(time.description))
            field(.date, .string(date.description))
        }
    }

    /// The keys that spell an alarm's app intents: `app-intents`, each button's mode (`a{ss}`),
    /// and `app-executable`.
    private static func forEachAppIntentField(of intents: AppIntentButtons?, _ field: (AppIntentKey, WireValue) -> Void) {
        guard let intents else { return }
        field(.appIntents, .stringMap(Dictionary(uniqueKeysWithValues: intents.modes.map { ($0.key.rawValue, $0.value.rawValue) })))
        if let executable = intents.executable { field(.appExecutable, .string(executable)) }
    }

    /// The app-intent keys, shared by requests and alarms.
    private enum AppIntentKey: String {
        case appIntents = "app-intents", appExecutable = "app-executable"
    }

    /// The schedule keys, shared by requests and alarms.
    private enum ScheduleKey: String {
        case at, time, weekdays, date
    }

    // MARK: Alarms

    /// The dictionary describing `alarm`.
    public static func encode(_ alarm: Alarm) -> [String: WireValue] {
        var dictionary = [String: WireValue](minimumCapacity: AlarmKey.allCases.count)
        forEachField(of: alarm) { key, value in dictionary[key] = value }
        return dictionary
    }

    /// Each key and value of `alarm`'s dictionary, without making the dictionary: what packing
    /// a list of alarms writes (a `ListPacked` of 10,000 alarms spent half its time making and
    /// freeing dictionaries).
    public static func forEachField(of alarm: Alarm, _ field: (_ key: String, _ value: WireValue) -> Void) {
        func put(_ key: AlarmKey, _ value: WireValue?) {
            if let value { field(key.rawValue, value) }
        }
        put(.id, .string(alarm.id.hexText))
        put(.title, .string(alarm.title))
        put(.kind, .string(alarm.kind.rawValue))
        put(.state, .string(alarm.state.name.rawValue))
        put(.duration, .double(alarm.countdownDuration))
        put(.sound, .string(alarm.sound.description))
        put(.ringLimit, .double(alarm.ringLimit))
        put(.lateLimit, .double(alarm.lateLimit))
        put(.created, .double(alarm.createdAt.timeIntervalSince1970))
        forEachScheduleField(of: alarm.schedule) { key, value in field(key.rawValue, value) }
        put(.snooze, alarm.snoozeDuration.map(WireValue.double))
        put(.volume, alarm.volume.map(WireValue.double))
        put(.crescendo, alarm.crescendo.map(WireValue.double))
        let (phone, phoneAfter) = phoneValues(alarm.phone)
        put(.phone, phone)
        put(.phoneAfter, phoneAfter)
        let (raiseOutput, ringLevel) = outputRaiseValues(alarm.outputRaise)
        put(.raiseOutput, raiseOutput)
        put(.ringLevel, ringLevel)
        put(.appID, .string(alarm.owner))
        put(.metadata, alarm.metadata.map(WireValue.string))
        put(.buttonLabel, alarm.secondaryButton.map { .string($0.label) })
        put(.buttonBehavior, alarm.secondaryButton.map { .string($0.behavior.rawValue) })
        if !alarm.hooks.isEmpty {
            put(.hooks, .stringMap(Dictionary(uniqueKeysWithValues: alarm.hooks.commands.map { ($0.key.rawValue, $0.value) })))
        }
        forEachAppIntentField(of: alarm.appIntents) { key, value in field(key.rawValue, value) }
        switch alarm.state {
        case .scheduled(let fireDate):
            put(.fireTime, .double(fireDate.timeIntervalSince1970))
        case .countdown(let phase):
            put(.fireTime, .double(phase.fireDate.timeIntervalSince1970))
            put(.phaseDuration, .double(phase.duration))
            put(.followsWallClock, .bool(phase.followsWallClock))
        case .paused(let phase):
            put(.remaining, .double(phase.remaining))
            put(.phaseDuration, .double(phase.duration))
        case .alerting(let since):
            put(.alertingSince, .double(since.timeIntervalSince1970))
        }
    }

    /// Reads an alarm dictionary (the client's side of `encode(_: Alarm)`).
    public static func decodeAlarm(_ dictionary: [String: WireValue]) throws(AlarmInputError) -> Alarm {
        let fields = try KeyedFields<AlarmKey>(dictionary, what: "alarm")
        let idText = try fields.required(.id, fields.string)
        guard let id = UUID(hexText: idText) else { throw AlarmInputError("“\(idText)” is not an alarm id.") }
        let stateText = try fields.required(.state, fields.string)
        let state: AlarmState
        switch AlarmStateName(rawValue: stateText) {
        case .scheduled?:
            state = .scheduled(fireDate: try fields.required(.fireTime, fields.instant))
        case .countdown?:
            state = .countdown(CountdownPhase(
                fireDate: try fields.required(.fireTime, fields.instant), duration: try fields.required(.phaseDuration, fields.seconds),
                followsWallClock: try fields.bool(.followsWallClock) ?? false))
        case .paused?:
            state = .paused(PausedPhase(remaining: try fields.required(.remaining, fields.seconds), duration: try fields.required(.phaseDuration, fields.seconds)))
        case .alerting?:
            state = .alerting(since: try fields.required(.alertingSince, fields.instant))
        case nil:
            throw AlarmInputError("Unknown alarm state “\(stateText)”.")
        }
        let kindText = try fields.required(.kind, fields.string)
        guard let kind = AlarmKind(rawValue: kindText) else { throw AlarmInputError("Unknown alarm kind “\(kindText)”.") }
        var secondaryButton: SecondaryButton?
        if let label = try fields.string(.buttonLabel) {
            let behaviorText = try fields.required(.buttonBehavior, fields.string)
            guard let behavior = SecondaryButton.Behavior(rawValue: behaviorText) else {
                throw AlarmInputError("Unknown button behavior “\(behaviorText)”.")
            }
            secondaryButton = SecondaryButton(label: label, behavior: behavior)
        }
        return Alarm(
            id: id,
            title: try fields.required(.title, fields.string),
            kind: kind,
            schedule: try fields.schedule(at: .at, time: .time, weekdays: .weekdays, date: .date),
            countdownDuration: try fields.required(.duration, fields.seconds),
            snoozeDuration: try fields.seconds(.snooze),
            secondaryButton: secondaryButton,
            sound: try AlarmSound(parsing: try fields.required(.sound, fields.string)),
            volume: try fields.number(.volume),
            crescendo: try fields.seconds(.crescendo),
            phone: try fields.phoneChoice(.phone, after: .phoneAfter),
            outputRaise: try fields.outputRaiseChoice(.raiseOutput, level: .ringLevel),
            ringLimit: try fields.required(.ringLimit, fields.seconds),
            lateLimit: try fields.seconds(.lateLimit) ?? AlarmRequest.defaultLateLimit,
            hooks: try fields.hooks(.hooks),
            state: state,
            createdAt: try fields.required(.created, fields.instant),
            appID: try fields.string(.appID).flatMap { $0 == AppAuthorizations.commandLineAppID ? nil : $0 },
            metadata: try fields.string(.metadata),
            appIntents: try fields.appIntents(.appIntents, executable: .appExecutable)
        )
    }
}

/// Typed access to a wire dictionary whose keys are the cases of `Key`; unknown keys are refused
/// up front so a typo in a client is an error, not a silently ignored option.
private struct KeyedFields<Key: RawRepresentable & CaseIterable> where Key.RawValue == String {
    private let values: [String: WireValue]

    init(_ values: [String: WireValue], what: String) throws(AlarmInputError) {
        // Checked key by key (a string switch), and sorted only to name the first unknown one:
        // a `List` of 10,000 alarms reads 10,000 dictionaries.
        if values.keys.contains(where: { Key(rawValue: $0) == nil }),
           let unknown = values.keys.filter({ Key(rawValue: $0) == nil }).sorted().first {
            throw AlarmInputError("Unknown key “\(AlarmInputError.quotable(unknown.prefix(64)))” in the \(what); known keys: \(Key.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        self.values = values
    }

    func required<Value>(_ key: Key, _ read: (Key) throws(AlarmInputError) -> Value?) throws(AlarmInputError) -> Value {
        guard let value = try read(key) else { throw AlarmInputError("The key “\(key.rawValue)” is missing.") }
        return value
    }

    func string(_ key: Key) throws(AlarmInputError) -> String? {
        switch values[key.rawValue] {
        case nil: return nil
        case .string(let text)?: return text
        case let other?: throw mismatch(key, other, expected: "a string (s)")
        }
    }

    /// A duration in seconds; any numeric type is accepted so `gdbus call` users can write `<300>`.
    func seconds(_ key: Key) throws(AlarmInputError) -> TimeInterval? {
        switch values[key.rawValue] {
        case nil: return nil
        case .double(let number)?: return number
        case .integer(let number)?: return TimeInterval(number)
        case let other?: throw mismatch(key, other, expected: "a number of seconds (d)")
        }
    }

    /// A plain number (a volume); any numeric type is accepted.
    func number(_ key: Key) throws(AlarmInputError) -> Double? {
        switch values[key.rawValue] {
        case nil: return nil
        case .double(let number)?: return number
        case .integer(let number)?: return Double(number)
        case let other?: throw mismatch(key, other, expected: "a number (d)")
        }
    }

    func instant(_ key: Key) throws(AlarmInputError) -> Date? {
        try seconds(key).map { Date(timeIntervalSince1970: $0) }
    }

    /// An alarm's own phone choice from `phone` (b) and `phone-after` (d): `phone-after` alone
    /// means yes after that long; with `phone` false it is a contradiction.
    func phoneChoice(_ phoneKey: Key, after afterKey: Key) throws(AlarmInputError) -> PhoneRingChoice? {
        let phone = try bool(phoneKey), after = try seconds(afterKey)
        switch (phone, after) {
        case (nil, nil): return nil
        case (false?, nil): return .never
        case (false?, _?): throw AlarmInputError("“\(afterKey.rawValue)” says when to ring the phones, and “\(phoneKey.rawValue)” says never.")
        case (_, let after): return .ring(after: after)
        }
    }

    /// An alarm's own choice of raising the output from `raise-output` (b) and `ring-level` (x):
    /// `ring-level` alone means yes to that level; with `raise-output` false it is a
    /// contradiction. The level's range is `AlarmRequest`'s to judge.
    func outputRaiseChoice(_ raiseKey: Key, level levelKey: Key) throws(AlarmInputError) -> OutputRaiseChoice? {
        let raise = try bool(raiseKey), level = try integer(levelKey)
        switch (raise, level) {
        case (nil, nil): return nil
        case (false?, nil): return .never
        case (false?, _?): throw AlarmInputError("“\(levelKey.rawValue)” says how loud to raise the output, and “\(raiseKey.rawValue)” says never to.")
        case (_, let level): return .raise(toPercent: level)
        }
    }

    /// A whole number (a percentage); any integer type is accepted, a fraction is not.
    func integer(_ key: Key) throws(AlarmInputError) -> Int? {
        switch values[key.rawValue] {
        case nil: return nil
        case .integer(let number)?: return Int(number)
        case let other?: throw mismatch(key, other, expected: "a whole number (x)")
        }
    }

    func bool(_ key: Key) throws(AlarmInputError) -> Bool? {
        switch values[key.rawValue] {
        case nil: return nil
        case .bool(let flag)?: return flag
        case let other?: throw mismatch(key, other, expected: "a boolean (b)")
        }
    }

    /// The schedule spelled by the `at`, `time`, `weekdays` and `date` keys, if any.
    func schedule(at atKey: Key, time timeKey: Key, weekdays weekdaysKey: Key, date dateKey: Key) throws(AlarmInputError) -> AlarmSchedule? {
        let instant = try instant(atKey)
        let timeText = try string(timeKey)
        let weekdaysText = try string(weekdaysKey)
        let dateText = try string(dateKey)
        if let instant {
            guard timeText == nil, weekdaysText == nil, dateText == nil else {
                throw AlarmInputError("“\(atKey.rawValue)” is an instant; it cannot be combined with “\(timeKey.rawValue)”, “\(dateKey.rawValue)” or “\(weekdaysKey.rawValue)”.")
            }
            return .fixed(instant)
        }
        guard let timeText else {
            guard weekdaysText == nil, dateText == nil else {
                throw AlarmInputError("“\(dateKey.rawValue)” and “\(weekdaysKey.rawValue)” need a “\(timeKey.rawValue)”.")
            }
            return nil
        }
        let time = try TimeOfDayParser.parse(timeText)
        switch (dateText, weekdaysText) {
        case (let dateText?, nil):
            return .localDateTime(try TimeOfDayParser.parseDate(dateText), time)
        case (nil, let weekdaysText):
            return .timeOfDay(time, weekdays: try weekdaysText.map { text throws(AlarmInputError) in try TimeOfDayParser.parseRepeat(text) } ?? [])
        case (_?, _?):
            throw AlarmInputError("An alarm rings on a “\(dateKey.rawValue)” or on “\(weekdaysKey.rawValue)”, not both.")
        }
    }

    func hooks(_ key: Key) throws(AlarmInputError) -> AlarmHooks {
        switch values[key.rawValue] {
        case nil:
            return AlarmHooks()
        case .stringMap(let map)?:
            var hooks = AlarmHooks()
            for (eventName, command) in map {
                guard let event = HookEvent(rawValue: eventName) else {
                    throw AlarmInputError("Unknown hook event “\(AlarmInputError.quotable(eventName.prefix(64)))”; known events: \(HookEvent.allCases.map(\.rawValue).joined(separator: ", ")).")
                }
                hooks[event] = command
            }
            return hooks
        case let other?:
            throw mismatch(key, other, expected: "a map of event to command (a{ss})")
        }
    }

    /// The app intents spelled by `key` (each button's mode) and `executableKey`, if any.
    func appIntents(_ key: Key, executable executableKey: Key) throws(AlarmInputError) -> AppIntentButtons? {
        let executable = try string(executableKey)
        switch values[key.rawValue] {
        case nil:
            guard executable == nil else {
                throw AlarmInputError("“\(executableKey.rawValue)” starts an app to perform its intents; it needs “\(key.rawValue)”.")
            }
            return nil
        case .stringMap(let map)?:
            var modes: [AppIntentButtons.Button: AppIntentButtons.Mode] = [:]
            for (buttonName, modeName) in map {
                guard let button = AppIntentButtons.Button(rawValue: buttonName) else {
                    throw AlarmInputError("Unknown app-intent button “\(AlarmInputError.quotable(buttonName.prefix(64)))”; known buttons: \(AppIntentButtons.Button.allCases.map(\.rawValue).joined(separator: ", ")).")
                }
                guard let mode = AppIntentButtons.Mode(rawValue: modeName) else {
                    throw AlarmInputError("Unknown app-intent mode “\(AlarmInputError.quotable(modeName.prefix(64)))”; known modes: \(AppIntentButtons.Mode.allCases.map(\.rawValue).joined(separator: ", ")).")
                }
                modes[button] = mode
            }
            return AppIntentButtons(modes: modes, executable: executable)
        case let other?:
            throw mismatch(key, other, expected: "a map of button to mode (a{ss})")
        }
    }

    private func mismatch(_ key: Key, _ value: WireValue, expected: String) -> AlarmInputError {
        AlarmInputError("The key “\(key.rawValue)” must be \(expected), not a value of type \(value.signature).")
    }
}
