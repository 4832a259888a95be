import Foundation
import TocsinCore

/// `tocsin phone enable [--after DURATION]|disable|status`: whether ringing alarms also ring the
/// paired phones (KDE Connect), and how long they ring at the desk first. The setting is a file
/// the agent follows (`PhoneSettingsStore`), so this works whether or not the agent runs.
enum PhoneCommand: Command {
    static let name = "phone"
    static let summary = "ring your paired phones too when nobody answers an alarm"
    static let help = """
        Usage: tocsin phone enable [--after DURATION]
               tocsin phone disable
               tocsin phone status

        With phones enabled, an alarm or timer that has rung DURATION (default 30s) at the
        desk without being stopped or snoozed also rings every phone paired with KDE Connect
        that is within reach (its find-my-phone ring) and sends it a ping with the alarm's
        title. Stopping or snoozing the alarm before then means no phone is rung. Off until
        enabled. A phone that cannot be reached never delays the ring at the desk.
        """

    static func run(_ arguments: [String]) throws(CommandError) {
        let parsed = try ParsedArguments(arguments, command: name, options: ["--after"])
        guard let action = parsed.positionals.first else { throw .usage("Missing what to do: enable, disable or status.", command: name) }
        let store = PhoneSettingsStore()
        switch action {
        case "enable", "disable":
            try parsed.expectPositionals([action], command: name)
            var delay = PhoneRingSettings.defaultDelay
            if let text = parsed.values["--after"] {
                guard action == "enable" else { throw .usage("--after goes with enable.", command: name) }
                do { delay = try DurationParser.parse(text) } catch { throw .usage(error.message, command: name) }
            }
            // A file that cannot be read is the user's: said, never written over.
            let current: PhoneRingSettings
            do { current = try store.load() } catch { throw .refused("\(error.message); fix or remove it first.") }
            let settings = action == "enable" ? PhoneRingSettings(isEnabled: true, delay: delay) : PhoneRingSettings(isEnabled: false, delay: current.delay)
            do { try store.save(settings) } catch { throw .refused(error.message) }
            Output.line(describe(settings))
        case "status":
            try parsed.expectPositionals(["status"], command: name)
            do { Output.line(describe(try store.load())) } catch { throw .refused(error.message) }
        default:
            throw .usage("Unknown phone action “\(AlarmInputError.quotable(action.prefix(20)))”: enable, disable or status.", command: name)
        }
    }

    /// What the settings mean, in one line.
    static func describe(_ settings: PhoneRingSettings) -> String {
        settings.isEnabled
            ? "Phones: on. An alarm unanswered for \(DurationFormat.spoken(settings.delay)) rings your paired phones (KDE Connect)."
            : "Phones: off. Alarms ring at the desk only (tocsin phone enable rings your paired phones too)."
    }
}
