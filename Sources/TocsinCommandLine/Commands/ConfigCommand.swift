import Foundation
import TocsinCore

/// `tocsin config [KEY [VALUE]]`: what the command line sets once for every alarm.
enum ConfigCommand: Command {
    static let name = "config"
    static let summary = "show or change what every alarm gets by default (its Snooze)"
    static let help = """
        Usage: tocsin config                 every setting and its value
               tocsin config KEY             one setting's value
               tocsin config KEY VALUE       change it
               tocsin config KEY default     back to the default

        Settings (kept in $XDG_CONFIG_HOME/tocsin/config.json):
        \(CommandLineSettings.Key.allCases.map { "  \($0.rawValue): \($0.summary)" }.joined(separator: "\n"))

        alarm-snooze is 9m unless set: tocsin alarm offers Snooze (ringing again after it)
        unless given --snooze, --no-snooze or a button of its own. Timers offer Stop alone
        unless given --snooze.

        Example: tocsin config alarm-snooze 5m
        """

    static func run(_ arguments: [String], in context: CommandContext) throws(CommandError) {
        let parsed = try ParsedArguments(arguments, command: name)
        guard parsed.positionals.count <= 2 else { throw .usage("Too many arguments: tocsin config [KEY [VALUE]].", command: name) }
        let store = CommandLineSettingsStore(directory: context.settingsDirectory)
        // A file that cannot be read is the user's: said, never written over.
        let settings: CommandLineSettings
        do { settings = try store.load() } catch { throw .refused("\(error.message); fix or remove it first.") }
        guard let keyText = parsed.positionals.first else {
            for key in CommandLineSettings.Key.allCases { context.output.line("\(key.rawValue) \(settings.text(of: key))") }
            return
        }
        guard let key = CommandLineSettings.Key(rawValue: keyText) else {
            let known = CommandLineSettings.Key.allCases.map(\.rawValue).joined(separator: ", ")
            throw .usage("No setting “\(AlarmInputError.quotable(keyText.prefix(30)))”; there is \(known).", command: name)
        }
        guard parsed.positionals.count == 2 else {
            context.output.line(settings.text(of: key))
            return
        }
        var changed = settings
        let value = parsed.positionals[1]
        if value == "default" {
            changed.reset(key)
        } else {
            do { try changed.set(key, to: value) } catch { throw .usage("\(key.rawValue): \(error.message)", command: name) }
        }
        do { try store.save(changed) } catch { throw .refused(error.message) }
        context.output.line("\(key.rawValue) \(changed.text(of: key))")
    }
}
