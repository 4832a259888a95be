import Foundation
import TocsinCore
import TocsinFiles

/// `tocsin config [KEY [VALUE]]`: what every alarm gets by default. `alarm-snooze` is the command
/// line's own (config.json, applied as it sets an alarm); `raise-output` and `ring-level` (output.json)
/// and `lock-screen-titles` (lock-screen.json) are the agent's, which the running agent follows,
/// so an application's alarms get them too.
enum ConfigCommand: Command {
    static let name = "config"
    static let summary = "show or change what every alarm gets by default (its Snooze, the output raised, its title when locked)"
    static let help = """
        Usage: tocsin config                 every setting and its value
               tocsin config KEY             one setting's value
               tocsin config KEY VALUE       change it
               tocsin config KEY default     back to the default

        Settings:
        \((CommandLineSettings.Key.allCases.map { ($0.rawValue, $0.summary) } + OutputRaiseSettings.Key.allCases.map { ($0.rawValue, $0.summary) }
            + LockScreenSettings.Key.allCases.map { ($0.rawValue, $0.summary) })
            .map { "  \($0.0): \($0.1)" }.joined(separator: "\n"))

        alarm-snooze is 9m unless set: tocsin alarm offers Snooze (ringing again after it)
        unless given --snooze, --no-snooze or a button of its own. Timers offer Stop alone
        unless given --snooze. Kept in $XDG_CONFIG_HOME/tocsin/config.json, for the command
        line's alarms.

        raise-output and ring-level are the agent's, kept in $XDG_CONFIG_HOME/tocsin/output.json
        and followed by the running agent at once, for every alarm, an application's too: while
        one rings, a muted or quieter output is unmuted and raised to ring-level (70 % unless
        set), then put back as it was. --ring-level and --no-raise decide for one alarm.

        lock-screen-titles is the agent's too, kept in $XDG_CONFIG_HOME/tocsin/lock-screen.json:
        show (the default) lets a locked screen show a ringing alarm's title; hide shows only
        "Alarm" or "Timer" there. Either way it rings and can be stopped without unlocking.

        Examples: tocsin config alarm-snooze 5m
                  tocsin config raise-output no
        """

    static func run(_ arguments: [String], in context: CommandContext) throws(CommandError) {
        let parsed = try ParsedArguments(arguments, command: name)
        guard parsed.positionals.count <= 2 else { throw .usage("Too many arguments: tocsin config [KEY [VALUE]].", command: name) }
        let commandLine = SettingsFile(CommandLineSettingsStore(directory: context.settingsDirectory))
        let output = SettingsFile(OutputRaiseSettingsStore(directory: context.settingsDirectory))
        let lockScreen = SettingsFile(LockScreenSettingsStore(directory: context.settingsDirectory))
        guard let keyText = parsed.positionals.first else {
            try commandLine.list(to: context.output)
            try output.list(to: context.output)
            try lockScreen.list(to: context.output)
            return
        }
        let value = parsed.positionals.count == 2 ? parsed.positionals[1] : nil
        if let key = CommandLineSettings.Key(rawValue: keyText) {
            try commandLine.show(key, changedTo: value, to: context.output)
        } else if let key = OutputRaiseSettings.Key(rawValue: keyText) {
            try output.show(key, changedTo: value, to: context.output)
        } else if let key = LockScreenSettings.Key(rawValue: keyText) {
            try lockScreen.show(key, changedTo: value, to: context.output)
        } else {
            let known = CommandLineSettings.Key.allCases.map(\.rawValue) + OutputRaiseSettings.Key.allCases.map(\.rawValue)
                + LockScreenSettings.Key.allCases.map(\.rawValue)
            throw .usage("No setting “\(AlarmInputError.quotable(keyText.prefix(30)))”; there are \(known.dropLast().joined(separator: ", ")) and \(known.last!).", command: name)
        }
    }
}

/// Settings `tocsin config` shows and changes by key.
protocol ConfigurableSettings {
    associatedtype Key: RawRepresentable<String> & CaseIterable
    func text(of key: Key) -> String
    mutating func set(_ key: Key, to text: String) throws(AlarmInputError)
    mutating func reset(_ key: Key)
}

extension CommandLineSettings: ConfigurableSettings {}
extension OutputRaiseSettings: ConfigurableSettings {}
extension LockScreenSettings: ConfigurableSettings {}

/// One settings file, through its store: read before anything is shown or changed, and never
/// written over when it cannot be read (it is the user's: said, and left for them to fix).
private struct SettingsFile<Settings: ConfigurableSettings> {
    let load: () throws(StoreError) -> Settings
    let save: (Settings) throws(StoreError) -> Void

    init(_ store: CommandLineSettingsStore) where Settings == CommandLineSettings {
        load = store.load
        save = store.save
    }

    init(_ store: OutputRaiseSettingsStore) where Settings == OutputRaiseSettings {
        load = store.load
        save = store.save
    }

    init(_ store: LockScreenSettingsStore) where Settings == LockScreenSettings {
        load = store.load
        save = store.save
    }

    func read() throws(CommandError) -> Settings {
        do { return try load() } catch { throw .refused("\(error.message); fix or remove it first.") }
    }

    /// "KEY VALUE" for every key.
    func list(to output: any CommandOutput) throws(CommandError) {
        let settings = try read()
        for key in Settings.Key.allCases { output.line("\(key.rawValue) \(settings.text(of: key))") }
    }

    /// `key`'s value; with `value`, changed to it first (`default`: back to the default).
    func show(_ key: Settings.Key, changedTo value: String?, to output: any CommandOutput) throws(CommandError) {
        var settings = try read()
        guard let value else {
            output.line(settings.text(of: key))
            return
        }
        if value == "default" {
            settings.reset(key)
        } else {
            do { try settings.set(key, to: value) } catch { throw .usage("\(key.rawValue): \(error.message)", command: ConfigCommand.name) }
        }
        do { try save(settings) } catch { throw .refused(error.message) }
        output.line("\(key.rawValue) \(settings.text(of: key))")
    }
}
