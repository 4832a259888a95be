import Foundation
import TocsinCore

/// The options timers and alarms share: what they are called, how they ring, and their hooks.
struct RingOptions {
    /// Options that take a value.
    static let names: Set<String> = Set(["--title", "--snooze", "--button", "--sound", "--volume", "--crescendo", "--ring-for", "--late-limit",
                                         "--phone-after", "--ring-level"]).union(hookOptions.keys)
    /// Options that take none.
    static let flags: Set<String> = ["--phone", "--no-phone", "--no-snooze", "--no-raise"]

    /// The hook options and the events they run on.
    static let hookOptions: [String: HookEvent] = [
        "--on-fire": .fire, "--on-stop": .stop, "--on-snooze": .snooze, "--on-cancel": .cancel,
        "--on-missed": .missed, "--on-button": .secondary, "--on-phone": .phone,
    ]

    /// Help text for the shared options.
    static let help = """
          --title TEXT        what it is for, shown in the notification
          --snooze DURATION   offer a Snooze button that rings again after DURATION
                              (alarms offer one by default: tocsin config alarm-snooze)
          --no-snooze         offer Stop alone
          --button LABEL      label of the second button: with --snooze it renames Snooze;
                              with --on-button it is a custom button
          --on-button CMD     run CMD when the custom button is pressed (ends this ring)
          --sound NAME|FILE   a sound-theme event id (e.g. bell) or a 16-bit WAV/Ogg file
          --volume PERCENT    how loud, 1 to 100 (default 100)
          --crescendo DURATION
                              start soft and rise to the volume over DURATION (steps each time
                              the sound repeats)
          --ring-for DURATION stop ringing by itself after DURATION (default 10m)
          --late-limit DURATION
                              if the computer was asleep or off when it was due, still ring
                              up to DURATION late (default 10m); later, report it as missed
          --phone             ring your paired phones if it rings unanswered, even with
                              tocsin phone off (after the delay tocsin phone set, or 30s)
          --phone-after DURATION
                              the same, after DURATION unanswered
          --no-phone          never ring the phones for it
          --ring-level PERCENT
                              while it rings, unmute the sound output and raise it to at
                              least PERCENT (1 to 100), even with tocsin config
                              raise-output no; without it, alarms raise the output to
                              tocsin config ring-level (70 by default)
          --no-raise          leave the output as it is while it rings, even muted
          --on-fire CMD       run CMD when it starts ringing
          --on-stop CMD       run CMD when it is stopped
          --on-snooze CMD     run CMD when it is snoozed
          --on-cancel CMD     run CMD when it is cancelled
          --on-missed CMD     run CMD when it was missed
          --on-phone CMD      run CMD when it rang your paired phones (tocsin phone)

        Commands run with /bin/sh -c and get TOCSIN_ID, TOCSIN_TITLE and TOCSIN_EVENT in
        their environment.
        """

    let title: String?
    var snoozeDuration: TimeInterval?
    /// `--no-snooze`: Stop alone, whatever the defaults say.
    let refusesSnooze: Bool
    let buttonLabel: String?
    let sound: AlarmSound
    let volume: Double?
    let crescendo: TimeInterval?
    let ringLimit: TimeInterval?
    let lateLimit: TimeInterval?
    let phone: PhoneRingChoice?
    let outputRaise: OutputRaiseChoice?
    let hooks: AlarmHooks

    /// Reads the shared options of `parsed` for `command`.
    init(_ parsed: ParsedArguments, command: String) throws(CommandError) {
        if parsed.values["--on-button"] != nil && parsed.values["--button"] == nil {
            throw .usage("--on-button needs --button LABEL to name the button.", command: command)
        }
        var hooks = AlarmHooks()
        for (option, event) in Self.hookOptions {
            hooks[event] = parsed.values[option]
        }
        self.hooks = hooks
        title = parsed.values["--title"]
        buttonLabel = parsed.values["--button"]
        snoozeDuration = try parsed.values["--snooze"].map { text throws(CommandError) in try Self.duration(text, what: "--snooze", command: command) }
        refusesSnooze = parsed.flags.contains("--no-snooze")
        if refusesSnooze && snoozeDuration != nil {
            throw .usage("--snooze and --no-snooze say opposite things; give one.", command: command)
        }
        if refusesSnooze && parsed.values["--button"] != nil && parsed.values["--on-button"] == nil {
            throw .usage("--button names the Snooze button, and --no-snooze leaves it out.", command: command)
        }
        ringLimit = try parsed.values["--ring-for"].map { text throws(CommandError) in try Self.duration(text, what: "--ring-for", command: command) }
        lateLimit = try parsed.values["--late-limit"].map { text throws(CommandError) in try Self.duration(text, what: "--late-limit", command: command) }
        sound = try Self.sound(parsed.values["--sound"], command: command)
        crescendo = try parsed.values["--crescendo"].map { text throws(CommandError) in try Self.duration(text, what: "--crescendo", command: command) }
        let phoneAfter = try parsed.values["--phone-after"].map { text throws(CommandError) in try Self.duration(text, what: "--phone-after", command: command) }
        switch (parsed.flags.contains("--phone"), parsed.flags.contains("--no-phone")) {
        case (true, true): throw .usage("--phone and --no-phone say opposite things; give one.", command: command)
        case (_, true) where phoneAfter != nil: throw .usage("--phone-after says when to ring the phones, and --no-phone says never.", command: command)
        case (_, true): phone = .never
        case (true, _): phone = .ring(after: phoneAfter)
        default: phone = phoneAfter.map { .ring(after: $0) }
        }
        let refusesRaise = parsed.flags.contains("--no-raise")
        if refusesRaise && parsed.values["--ring-level"] != nil {
            throw .usage("--ring-level says how loud to raise the output, and --no-raise says never to.", command: command)
        }
        let ringLevel = try parsed.values["--ring-level"].map { text throws(CommandError) -> Int in
            do throws(AlarmInputError) {
                return try OutputRaiseSettings.level(parsing: text)
            } catch {
                throw .usage("--ring-level: \(error.message)", command: command)
            }
        }
        outputRaise = refusesRaise ? .never : ringLevel.map { OutputRaiseChoice.raise(toPercent: $0) }
        volume = try parsed.values["--volume"].map { text throws(CommandError) in
            let digits = text.hasSuffix("%") ? String(text.dropLast()) : text
            guard let percent = Double(digits), percent > 0, percent <= 100 else {
                throw .usage("--volume takes a percentage from 1 to 100, not “\(AlarmInputError.quotable(text.prefix(20)))”.", command: command)
            }
            return percent / 100
        }
    }

    /// These options with the user's default Snooze for an alarm (`settings.alarmSnooze`) where
    /// the alarm says nothing of its own: no `--snooze`, no `--no-snooze`, no custom button.
    func withDefaultSnooze(_ settings: CommandLineSettings) -> RingOptions {
        guard snoozeDuration == nil, !refusesSnooze, hooks[.secondary] == nil else { return self }
        var options = self
        options.snoozeDuration = settings.alarmSnooze
        return options
    }

    /// The request for a `kind` with these options, so `timer` and `alarm` carry every shared
    /// option the same way.
    func request(kind: AlarmKind, schedule: AlarmSchedule? = nil, duration: TimeInterval) -> AlarmRequest {
        AlarmRequest(
            kind: kind,
            schedule: schedule,
            title: title,
            duration: duration,
            snoozeDuration: snoozeDuration,
            secondaryButtonLabel: buttonLabel,
            sound: sound,
            volume: volume,
            crescendo: crescendo,
            phone: phone,
            outputRaise: outputRaise,
            ringLimit: ringLimit,
            lateLimit: lateLimit,
            hooks: hooks)
    }

    /// A duration typed on the command line, or a usage error naming `what`.
    static func duration(_ text: String, what: String, command: String) throws(CommandError) -> TimeInterval {
        do {
            return try DurationParser.parse(text)
        } catch {
            throw .usage("\(what): \(error.message)", command: command)
        }
    }

    /// The sound as the agent needs it: file paths made absolute, since the agent has its own
    /// working directory.
    private static func sound(_ text: String?, command: String) throws(CommandError) -> AlarmSound {
        guard var text else { return .standard }
        if text.contains("/") || FileManager.default.fileExists(atPath: text) {
            // Made absolute in words only: asking the file whether it is a directory would
            // wait as long as a hung network mount does.
            text = URL(fileURLWithPath: text, isDirectory: false).standardizedFileURL.path
        }
        do {
            return try AlarmSound(parsing: text)
        } catch {
            throw .usage(error.message, command: command)
        }
    }
}
