import Foundation
import TocsinCore
import TocsinKit

/// `tocsin timer DURATION …`: starts a countdown that rings at zero.
enum TimerCommand: Command {
    static let name = "timer"
    static let summary = "start a timer that counts down and rings"
    static let help = """
        Usage: tocsin timer DURATION [options]

        Starts a timer: a notification counts down second by second with Pause and Cancel
        buttons, and at zero the alarm rings (through do-not-disturb) until stopped.
        Prints the new timer's id on standard output.

        DURATION: 90, 90s, 3m, 1h30m, 1:30 (minutes:seconds) or 01:02:03.

        Options:
          --title TEXT        what it is for, shown in the notification (default "Timer")
          --snooze DURATION   offer a Snooze button that rings again after DURATION
          --button LABEL      label of the second button: with --snooze it renames Snooze;
                              with --on-button it is a custom button
          --on-button CMD     run CMD when the custom button is pressed (ends the timer)
          --sound NAME|FILE   a sound-theme event id (e.g. bell) or a 16-bit WAV/Ogg file
          --ring-for DURATION stop ringing by itself after DURATION (default 10m)
          --on-fire CMD       run CMD when it starts ringing
          --on-stop CMD       run CMD when it is stopped
          --on-snooze CMD     run CMD when it is snoozed
          --on-cancel CMD     run CMD when it is cancelled

        Commands run with /bin/sh -c and get TOCSIN_ID, TOCSIN_TITLE and TOCSIN_EVENT in
        their environment.

        Example: tocsin timer 3m --title Pasta --snooze 1m
        """

    static func run(_ arguments: [String]) throws(CommandError) {
        let hookOptions: [String: HookEvent] = [
            "--on-fire": .fire, "--on-stop": .stop, "--on-snooze": .snooze, "--on-cancel": .cancel, "--on-button": .secondary,
        ]
        let parsed = try ParsedArguments(
            arguments, command: name,
            options: Set(["--title", "--snooze", "--button", "--sound", "--ring-for"]).union(hookOptions.keys))
        try parsed.expectPositionals(["DURATION"], command: name)
        if parsed.values["--on-button"] != nil && parsed.values["--button"] == nil {
            throw .usage("--on-button needs --button LABEL to name the button.", command: name)
        }
        var hooks = AlarmHooks()
        for (option, event) in hookOptions {
            hooks[event] = parsed.values[option]
        }
        let request = AlarmRequest(
            title: parsed.values["--title"],
            duration: try duration(parsed.positionals[0], what: "DURATION"),
            snoozeDuration: try parsed.values["--snooze"].map { text throws(CommandError) in try duration(text, what: "--snooze") },
            secondaryButtonLabel: parsed.values["--button"],
            sound: try sound(parsed.values["--sound"]),
            ringLimit: try parsed.values["--ring-for"].map { text throws(CommandError) in try duration(text, what: "--ring-for") },
            hooks: hooks)
        // The agent checks again; checking here first makes a bad combination a usage error.
        let now = Date()
        do {
            _ = try request.makeAlarm(id: UUID(), now: now)
        } catch {
            throw .usage(error.message, command: name)
        }
        let id: UUID
        do {
            id = try TocsinClient().schedule(request)
        } catch {
            throw CommandError(error)
        }
        print(id.uuidString.lowercased())
        let title = request.title.flatMap { $0.isEmpty ? nil : $0 } ?? AlarmRequest.defaultTitle
        let fireDate = now.addingTimeInterval(request.duration)
        Output.note("“\(title)” rings in \(DurationFormat.spoken(request.duration)), at \(AlarmText.writer.timeOfDay(fireDate)).")
    }

    private static func duration(_ text: String, what: String) throws(CommandError) -> TimeInterval {
        do {
            return try DurationParser.parse(text)
        } catch {
            throw .usage("\(what): \(error.message)", command: name)
        }
    }

    /// The sound as the agent needs it: file paths made absolute, since the agent has its own
    /// working directory.
    private static func sound(_ text: String?) throws(CommandError) -> AlarmSound {
        guard var text else { return .standard }
        if text.contains("/") || FileManager.default.fileExists(atPath: text) {
            text = URL(fileURLWithPath: text).standardizedFileURL.path
        }
        do {
            return try AlarmSound(parsing: text)
        } catch {
            throw .usage(error.message, command: name)
        }
    }
}
