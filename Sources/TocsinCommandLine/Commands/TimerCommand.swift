import Foundation
import TocsinCore

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
        \(RingOptions.help)

        Example: tocsin timer 3m --title Pasta --snooze 1m
        """

    static func run(_ arguments: [String], in context: CommandContext) throws(CommandError) {
        let parsed = try ParsedArguments(arguments, command: name, options: RingOptions.names, flags: RingOptions.flags)
        try parsed.expectPositionals(["DURATION"], command: name)
        let options = try RingOptions(parsed, command: name)
        let duration = try RingOptions.duration(parsed.positionals[0], what: "DURATION", command: name)
        let request = options.request(kind: .timer, duration: duration)
        let now = context.now()
        let alarm = try RequestSender.schedule(request, now: now, command: name, in: context)
        let fireDate = alarm.fireDate ?? now.addingTimeInterval(request.duration)
        context.output.note("“\(alarm.title)” rings in \(DurationFormat.spoken(request.duration)), at \(context.text.writer.timeOfDay(fireDate)).")
    }
}
