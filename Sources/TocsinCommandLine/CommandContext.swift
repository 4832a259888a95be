import Foundation
import TocsinCore
import TocsinFiles
import TocsinKit

/// What a command reads from the world besides its arguments: the clock, the zone and locale it
/// reads and writes times in, the environment, the agent, and where it writes. `tocsin` runs
/// commands in `.terminal`; the unit tests give fixed ones, so that parsing and output are
/// checked without the clock, a session bus or an agent.
struct CommandContext {
    /// The current time.
    var now: () -> Date
    /// The zone local times are read and shown in.
    var timeZone: TimeZoneRules
    /// The locale times of day are written for, as the environment names it ("en_US.UTF-8" has
    /// a 12-hour clock).
    var localeIdentifier: String
    /// The process's environment: where the settings files are.
    var environment: [String: String]
    /// Connects to the agent. Commands call it once their arguments are checked, so a usage
    /// error is said even when no agent can be reached.
    var connect: () throws(TocsinError) -> any AgentClient
    /// Where results and messages go.
    var output: any CommandOutput

    /// The terminal's: the system clock, the terminal's zone and locale, the process's
    /// environment, the agent on the session bus, standard output and error.
    static var terminal: CommandContext {
        let environment = ProcessInfo.processInfo.environment
        return CommandContext(
            now: { Date() },
            timeZone: .terminal,
            localeIdentifier: NotificationContentWriter.environmentLocale(environment),
            environment: environment,
            connect: { () throws(TocsinError) -> any AgentClient in try TocsinClient() },
            output: StandardStreams())
    }

    /// How alarms are written for people here.
    var text: AlarmText {
        AlarmText(writer: NotificationContentWriter(timeZone: timeZone, localeIdentifier: localeIdentifier))
    }

    /// Where the command line's settings (config.json) and the phones' (phone.json) are kept.
    var settingsDirectory: URL {
        PhoneSettingsStore.defaultDirectory(environment: environment)
    }
}
