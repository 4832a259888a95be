import Foundation
import TocsinCore
import TocsinKit
import TocsinFiles

/// `tocsin doctor`: will my alarms be seen and heard on this desktop? One line per check, with
/// what to do about anything that is not fine.
enum DoctorCommand: Command {
    static let name = "doctor"
    static let summary = "check that alarms will be seen and heard on this desktop"
    static let help = """
        Usage: tocsin doctor [--json]

        Checks, each marked ok, optional, warning or problem, with what to do: the agent
        (running or startable), the notification server (buttons, progress bars), do-not-disturb
        and what it means for alarms, the sound server and the alarm sound, waking a suspended
        machine, the time zone, the state directory, and the parts that add to Tocsin without
        being needed (a panel that shows its tray item, a phone link): "optional" names one
        that is not there, and is no fault. A closing line says whether all is well.

        Exit status: 0 when nothing is a problem (warnings allowed), 1 when something is, 3
        when the session bus itself cannot be reached.

          --json   one JSON array of {"check", "level", "message", "fix"}
        """

    /// One finding.
    struct Finding {
        typealias Level = ReadinessReport.Level
        let check: String
        let level: Level
        let message: String
        var fix: String? = nil

        init(check: String, level: Level, message: String, fix: String? = nil) {
            self.check = check
            self.level = level
            self.message = message
            self.fix = fix
        }

        init(check: String, _ report: ReadinessReport) {
            self.init(check: check, level: report.level, message: report.message, fix: report.fix)
        }
    }

    static func run(_ arguments: [String]) throws(CommandError) {
        let parsed = try ParsedArguments(arguments, command: name, flags: ["--json"])
        try parsed.expectPositionals([], command: name)
        let client: TocsinClient
        do { client = try TocsinClient() } catch { throw CommandError(error) }
        let findings = examine(client)
        if parsed.flags.contains("--json") {
            Output.line(AlarmText.json(.array(findings.map { finding in
                var object: [String: JSONValue] = ["check": .string(finding.check), "level": .string(finding.level.rawValue), "message": .string(finding.message)]
                object["fix"] = finding.fix.map(JSONValue.string)
                return .object(object)
            })))
        } else {
            for finding in findings {
                let mark = switch finding.level {
                case .ok: "ok      "
                case .optional: "optional"
                case .warning: "warning "
                case .problem: "PROBLEM "
                }
                Output.line("\(mark) \(finding.check): \(finding.message)")
                if let fix = finding.fix { Output.line("         → \(fix)") }
            }
            Output.line(ReadinessReport.summary(of: findings.map(\.level)))
        }
        if findings.contains(where: { $0.level == .problem }) {
            throw .refused("\(findings.filter { $0.level == .problem }.count) problem(s) found.")
        }
    }

    private static func examine(_ client: TocsinClient) -> [Finding] {
        let status: [String: WireValue]
        do {
            status = try client.status()
        } catch {
            let activatable = client.agentIsActivatable()
            // The agent cannot say what the server shows: asked here, the way the agent asks.
            let probe = NotificationServerProbe.ask()
            let dnd = probe.flatMap { probe in
                probe.profile.doNotDisturb.map { rule in
                    DoNotDisturbReport(state: probe.doNotDisturbOn.map { $0 ? "on" : "off" }, hidesAlerts: rule.hidesAlerts, how: rule.name)
                }
            }
            return [Finding(check: "agent", level: activatable ? .warning : .problem,
                            message: activatable ? "not running, but D-Bus starts it on the first request" : error.message,
                            fix: activatable ? nil : "Start it with “tocsind &”, or install the package, which starts it with your session.")]
                + notificationFindings(server: probe.map { "\($0.identity.name) \($0.identity.version)" },
                                       drawsButtons: probe?.profile.drawsButtons, drawsProgress: probe.map { $0.profile.progress != .none },
                                       doNotDisturb: dnd)
                + localChecks()
        }
        typealias Key = AlarmWireFormat.StatusKey
        func string(_ key: Key) -> String? { if case .string(let value)? = status[key.rawValue] { value } else { nil } }
        func bool(_ key: Key) -> Bool? { if case .bool(let value)? = status[key.rawValue] { value } else { nil } }
        var findings = [Finding(check: "agent", level: .ok, message: "running, version \(string(.version) ?? "?")")]

        findings += notificationFindings(
            server: string(.notificationServer), drawsButtons: bool(.notificationActions), drawsProgress: bool(.notificationProgress),
            doNotDisturb: DoNotDisturbReport(state: string(.doNotDisturb), hidesAlerts: bool(.doNotDisturbHidesAlerts) ?? false,
                                             how: string(.doNotDisturbMechanism) ?? "?"))

        if let problem = string(.soundProblem) {
            findings.append(Finding(check: "sound", level: .problem, message: problem,
                                    fix: "Start PulseAudio or PipeWire (pipewire-pulse) in your session; the agent retries while an alarm rings."))
        } else {
            findings.append(Finding(check: "sound", level: .ok, message: "the agent reaches the sound server"))
        }
        findings += localChecks()
        if bool(.alarmSoundInstalled) == false {
            findings.append(Finding(check: "alarm sound", level: .warning, message: "the sound theme's alarm-clock-elapsed is not installed",
                                    fix: "Install sound-theme-freedesktop, or give alarms a --sound."))
        } else {
            findings.append(Finding(check: "alarm sound", level: .ok, message: "alarm-clock-elapsed is installed"))
        }
        if bool(.canWakeSystem) == true {
            findings.append(Finding(check: "waking the machine", level: .ok, message: "a suspended machine wakes up for the next alarm"))
        } else {
            findings.append(Finding(check: "waking the machine", level: .warning,
                                    message: "a suspended machine will not wake for alarms (\(string(.wakeProblem) ?? "unknown reason"))",
                                    fix: "Alarms due during suspend ring on resume, or are reported missed beyond their late limit."))
        }
        let agentZone = string(.timeZone) ?? "?"
        // Names differ between libraries ("Etc/UTC", "GMT"); what matters is the same clock now
        // and in half a year.
        let now = Date()
        let sameClock = TimeZoneRules(identifier: agentZone).map { zone in
            [0, 182 * 86_400].allSatisfy { zone.secondsFromGMT(for: now + $0) == TimeZone.current.secondsFromGMT(for: now + $0) }
        } ?? false
        findings.append(sameClock
            ? Finding(check: "time zone", level: .ok, message: agentZone)
            : Finding(check: "time zone", level: .warning, message: "the agent uses \(agentZone), this terminal \(TimeZone.current.identifier)",
                      fix: "Local alarm times follow the agent's zone; set TZ the same way for both, or unset it."))
        if let panel = string(.panel).flatMap(PanelReadiness.Host.init(rawValue:)) {
            findings.append(Finding(check: "panel", PanelReadiness.report(panel)))
        }
        if bool(.stateWritable) == false {
            findings.append(Finding(check: "state", level: .problem, message: "\(string(.stateFile) ?? "the state file") cannot be written: changes are refused",
                                    fix: "See the agent's log (journalctl --user -u tocsind) for why; move the file away if it is from a newer Tocsin."))
        } else {
            findings.append(Finding(check: "state", level: .ok, message: "saved in \(string(.stateFile) ?? "?")"))
        }
        return findings
    }

    /// A do-not-disturb state to report: `state` "on", "off", or `nil`/"unknown" when it
    /// cannot be read.
    struct DoNotDisturbReport {
        let state: String?
        let hidesAlerts: Bool
        let how: String
    }

    /// The notification server's findings, from the agent's status or from asking the server:
    /// who it is and what it draws, and its do-not-disturb.
    private static func notificationFindings(server: String?, drawsButtons: Bool?, drawsProgress: Bool?,
                                             doNotDisturb: DoNotDisturbReport?) -> [Finding] {
        var findings: [Finding] = []
        if let server {
            var notes: [String] = []
            if drawsButtons == false { notes.append("it shows no buttons, so notifications name the commands to type") }
            if drawsProgress == false { notes.append("it draws no progress bars") }
            findings.append(Finding(check: "notifications", level: drawsButtons == false ? .warning : .ok,
                                    message: server + (notes.isEmpty ? ": buttons and progress bars are shown" : ": " + notes.joined(separator: "; "))))
        } else {
            findings.append(Finding(check: "notifications", level: .problem, message: "no notification server is running: alarms ring, but nothing is shown",
                                    fix: "Start your desktop's notification server (dunst, mako, GNOME Shell, Plasma, xfce4-notifyd)."))
        }
        switch (doNotDisturb?.state, doNotDisturb?.hidesAlerts) {
        case ("on"?, true?):
            findings.append(Finding(check: "do not disturb", level: .warning,
                                    message: "on (\(doNotDisturb?.how ?? "?")): even alarm alerts are hidden, but alarms still ring",
                                    fix: "Stop a ringing alarm with “tocsin stop” (bind it to a keyboard shortcut), or turn do-not-disturb off."))
        case ("on"?, _):
            findings.append(Finding(check: "do not disturb", level: .ok, message: "on (\(doNotDisturb?.how ?? "?")); alarm alerts still show and ring"))
        case ("off"?, _):
            findings.append(Finding(check: "do not disturb", level: .ok, message: "off"))
        default:
            findings.append(Finding(check: "do not disturb", level: .ok, message: "state unknown for this server; alarms ring either way"))
        }
        return findings
    }

    /// Whether an unanswered alarm will ring a phone: the settings, and the paired phones within
    /// reach of KDE Connect and GSConnect (asked whether phones are on or off: with them off, a
    /// missing phone link is named as optional).
    private static func phoneFinding() -> Finding {
        let settings = Result { () throws(StoreError) -> PhoneRingSettings in try PhoneSettingsStore().load() }
        var reach: PhoneReach.Outcome?
        if case .success = settings {
            func answer(_ ask: () throws(CommandError) -> PhoneReach.Answer) -> PhoneReach.Answer {
                do throws(CommandError) { return try ask() } catch { return .noAnswer(error.message) }
            }
            reach = PhoneReach.outcome([.kdeConnect: answer { () throws(CommandError) in try KDEConnectDesk().reachablePhones() },
                                        .gsConnect: answer { () throws(CommandError) in try GSConnectDesk().reachablePhones() }])
        }
        return Finding(check: "phones", PhoneReadiness.report(settings: settings, reach: reach))
    }

    /// What the CLI can see for itself: how libcanberra will reach the sound server.
    private static func localChecks() -> [Finding] {
        let libraryDirectories = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"]
        let pulseDriver = libraryDirectories.contains { directory in
            ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
                .filter { $0.hasPrefix("libcanberra-") }
                .contains { FileManager.default.fileExists(atPath: "\(directory)/\($0)/libcanberra-pulse.so") }
        }
        return [phoneFinding(), pulseDriver
            ? Finding(check: "sound driver", level: .ok, message: "libcanberra plays through PulseAudio (or PipeWire's pulse server)")
            : Finding(check: "sound driver", level: .warning, message: "libcanberra's PulseAudio driver is not installed; it falls back to ALSA, which a running sound server may block",
                      fix: "Install libcanberra-pulse.")]
    }
}
