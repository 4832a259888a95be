import Foundation
import TocsinCore
import TocsinFiles

/// `tocsin phone enable [--after DURATION]|disable|status|setup [--remove]`: whether ringing
/// alarms also ring the paired phones (KDE Connect, GSConnect), and how long they ring at the desk first —
/// a file the agent follows (`PhoneSettingsStore`), so this works whether or not the agent
/// runs — and the phone's "Stop alarm" and "Snooze alarm" commands.
enum PhoneCommand: Command {
    static let name = "phone"
    static let summary = "ring your paired phones too when nobody answers an alarm"
    static let help = """
        Usage: tocsin phone enable [--after DURATION]
               tocsin phone disable
               tocsin phone status
               tocsin phone setup [--remove]

        With phones enabled, an alarm or timer that has rung DURATION (default 30s) at the
        desk without being stopped or snoozed also rings every phone paired with KDE Connect
        (or GSConnect, GNOME's KDE Connect) that is within reach (its find-my-phone ring) and sends it a ping with the alarm's
        title. Stopping or snoozing the alarm before then means no phone is rung. Off until
        enabled. A phone that cannot be reached never delays the ring at the desk.

        setup adds "Stop alarm" and "Snooze alarm" (tocsin stop, tocsin snooze) to the run
        commands KDE Connect or GSConnect offers each paired phone, so the phone's KDE Connect
        app can answer a ringing alarm; --remove takes them away again. Other run commands are kept.
        """

    static func run(_ arguments: [String], in context: CommandContext) throws(CommandError) {
        let parsed = try ParsedArguments(arguments, command: name, options: ["--after"], flags: ["--remove"])
        guard let action = parsed.positionals.first else { throw .usage("Missing what to do: enable, disable, status or setup.", command: name) }
        if action != "setup", parsed.flags.contains("--remove") { throw .usage("--remove goes with setup.", command: name) }
        let store = PhoneSettingsStore(directory: context.settingsDirectory)
        switch action {
        case "enable", "disable":
            try parsed.expectPositionals([action], command: name)
            var delay = PhoneRingSettings.defaultDelay
            if let text = parsed.values["--after"] {
                guard action == "enable" else { throw .usage("--after goes with enable.", command: name) }
                delay = try RingOptions.duration(text, what: "--after", command: name)
            }
            // A file that cannot be read is the user's: said, never written over.
            let current: PhoneRingSettings
            do { current = try store.load() } catch { throw .refused("\(error.message); fix or remove it first.") }
            let settings = action == "enable" ? PhoneRingSettings(isEnabled: true, delay: delay) : PhoneRingSettings(isEnabled: false, delay: current.delay)
            do { try store.save(settings) } catch { throw .refused(error.message) }
            context.output.line(describe(settings))
        case "status":
            try parsed.expectPositionals(["status"], command: name)
            do { context.output.line(describe(try store.load())) } catch { throw .refused(error.message) }
        case "setup":
            try parsed.expectPositionals(["setup"], command: name)
            try setUpRunCommands(removing: parsed.flags.contains("--remove"), output: context.output)
        default:
            throw .usage("Unknown phone action “\(AlarmInputError.quotable(action.prefix(20)))”: enable, disable, status or setup.", command: name)
        }
    }

    /// Adds Tocsin's run commands to every paired phone's, or removes them, keeping the others,
    /// in each phone service that answers (KDE Connect, GSConnect); run commands it cannot read
    /// are left as they are, and said on `output`.
    static func setUpRunCommands(removing: Bool, output: any CommandOutput) throws(CommandError) {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "tocsin"
        let ours = KDEConnectRunCommands.tocsinCommands(executable: executable)
        let outcomes = [(PhoneReach.Service.kdeConnect, setUpKDEConnect(ours, removing: removing)),
                        (PhoneReach.Service.gsConnect, setUpGSConnect(ours, removing: removing))]
        var failures: [String] = [], answered: [PhoneReach.Service] = [], silent: [String] = [], devices = 0
        for (service, outcome) in outcomes {
            switch outcome {
            case .noAnswer(let why):
                silent.append("\(service.rawValue): \(why)")
            case .devices(let done, let failed):
                answered.append(service)
                devices += done.count + failed.count
                for device in done {
                    output.line(removing ? "\(device): Stop alarm and Snooze alarm removed." : "\(device): Stop alarm and Snooze alarm added.")
                }
                failures += failed
            }
        }
        guard !answered.isEmpty else {
            throw .unavailable("Neither KDE Connect nor GSConnect answers (\(silent.joined(separator: "; "))); start one of them and pair your phone.")
        }
        guard devices > 0 else {
            throw .refused("\(answered.map(\.rawValue).joined(separator: " and ")) has no paired phone; pair one first.")
        }
        if !failures.isEmpty { throw .refused(failures.joined(separator: "\n")) }
    }

    /// What setting up one service came to: it did not answer, or the devices whose run
    /// commands were changed and what could not be changed.
    private enum ServiceSetup {
        case noAnswer(String)
        case devices(done: [String], failed: [String])
    }

    /// KDE Connect keeps each device's run commands in a file, and is told when one changed.
    private static func setUpKDEConnect(_ ours: [String: KDEConnectRunCommands.Command], removing: Bool) -> ServiceSetup {
        let desk: KDEConnectDesk, devices: [String]
        do throws(CommandError) {
            desk = try KDEConnectDesk()
            devices = try desk.pairedDevices()
        } catch {
            return .noAnswer(error.message)
        }
        var done: [String] = [], failed: [String] = []
        for device in devices {
            let file = KDEConnectDesk.runCommandFile(of: device)
            do {
                let text = FileManager.default.fileExists(atPath: file.path) ? try String(contentsOf: file, encoding: .utf8) : ""
                var commands = try KDEConnectRunCommands.commands(inConfiguration: text)
                if removing {
                    for id in ours.keys { commands[id] = nil }
                } else {
                    commands.merge(ours) { $1 }
                }
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try AtomicFile.write(Data(KDEConnectRunCommands.configuration(text, settingCommands: commands).utf8), to: file)
                desk.announceRunCommandsChanged(of: device)
                done.append(device)
            } catch let error as StoreError {
                failed.append("\(file.path): \(error.message); left as it is")
            } catch {
                failed.append("\(file.path): \(error)")
            }
        }
        return .devices(done: done, failed: failed)
    }

    /// GSConnect keeps them in each device's GSettings, and follows those itself.
    private static func setUpGSConnect(_ ours: [String: KDEConnectRunCommands.Command], removing: Bool) -> ServiceSetup {
        let desk: GSConnectDesk, devices: [GSConnectService.Device]
        do throws(CommandError) {
            desk = try GSConnectDesk()
            devices = try desk.pairedDevices()
        } catch {
            return .noAnswer(error.message)
        }
        var done: [String] = [], failed: [String] = []
        for device in devices {
            do throws(StoreError) {
                let settings = try desk.runCommandSettings(of: device.id)
                try settings.set(try GSConnectService.updating(settings.entries, with: ours, removing: removing))
                done.append(device.id)
            } catch {
                failed.append("\(device.name) (GSConnect): \(error.message); left as it is")
            }
        }
        return .devices(done: done, failed: failed)
    }

    /// What the settings mean, in one line.
    static func describe(_ settings: PhoneRingSettings) -> String {
        settings.isEnabled
            ? "Phones: on. An alarm unanswered for \(DurationFormat.spoken(settings.delay)) rings your paired phones (KDE Connect or GSConnect)."
            : "Phones: off. Alarms ring at the desk only (tocsin phone enable rings your paired phones too)."
    }
}
