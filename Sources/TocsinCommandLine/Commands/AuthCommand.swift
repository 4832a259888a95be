import Foundation
import TocsinCore

/// `tocsin auth list|grant APP|revoke APP|reset APP`: which applications may set alarms that
/// ring through do-not-disturb.
enum AuthCommand: Command {
    static let name = "auth"
    static let summary = "see and change which applications may set alarms"
    static let help = """
        Usage: tocsin auth list
               tocsin auth grant APP     allow APP to set alarms
               tocsin auth revoke APP    refuse APP (its requests fail)
               tocsin auth reset APP     forget the answer (APP is asked again)

        Applications other than this command line ask once whether they may set alarms that
        ring through do-not-disturb (a notification with Allow and Don't Allow). APP is the
        application's id as the list shows it, e.g. org.example.Cook; a Flatpak app is known
        by its Flatpak id, another program by its executable's name.

        The list says where each app ran when it last asked: in a Flatpak sandbox (Tocsin
        runs no commands for it and reads only files its sandbox shows it) or not sandboxed
        (it has your rights, and its alarms may run commands), and how many alarms it holds.
        """

    static func run(_ arguments: [String], in context: CommandContext) throws(CommandError) {
        let parsed = try ParsedArguments(arguments, command: name)
        guard let action = parsed.positionals.first else { throw .usage("Missing what to do: list, grant, revoke or reset.", command: name) }
        let client: any AgentClient
        do { client = try context.connect() } catch { throw CommandError(error) }
        switch action {
        case "list":
            try parsed.expectPositionals(["list"], command: name)
            let applications: [ApplicationRecord]
            do { applications = try client.applications() } catch { throw CommandError(error) }
            context.output.line("\(AppAuthorizations.commandLineAppID)  authorized (this command line, always)")
            for application in applications.sorted(by: { $0.appID < $1.appID }) {
                context.output.line(line(for: application))
            }
        case "grant", "revoke", "reset":
            try parsed.expectPositionals([action, "APP"], command: name)
            let state: AuthorizationState = switch action {
            case "grant": .authorized
            case "revoke": .denied
            default: .notDetermined
            }
            do { try client.setAuthorization(state, for: parsed.positionals[1]) } catch { throw CommandError(error) }
        default:
            throw .usage("Unknown auth action “\(AlarmInputError.quotable(action.prefix(20)))”: list, grant, revoke or reset.", command: name)
        }
    }

    /// "org.example.Cook  authorized  Flatpak sandbox  2 alarms".
    static func line(for application: ApplicationRecord) -> String {
        let confinement = application.confinement?.phrase ?? "sandbox not known (it has not asked yet)"
        let alarms = application.alarmCount == 1 ? "1 alarm" : "\(application.alarmCount) alarms"
        return "\(application.appID)  \(application.authorization.rawValue)  \(confinement)  \(alarms)"
    }
}
