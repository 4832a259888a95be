import Foundation
import TocsinCore

// What `tocsin doctor` finds: the agent's own account of this desktop (its status), or, when it
// does not answer, what the command line can ask the notification server itself.
extension DoctorCommand {
    /// Every finding, in the order they are printed: the agent, notifications and do-not-disturb,
    /// sound and the output, the local checks, the alarm sound, waking, the time zone, a panel,
    /// the state file, the locked screen.
    static func examine(_ client: any AgentClient, in context: CommandContext) -> [Finding] {
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
                + localChecks(in: context)
                + [lockScreenFinding(in: context)]
        }
        return findings(fromStatus: status, local: localChecks(in: context), now: context.now(), terminalZone: .current)
            + [lockScreenFinding(in: context)]
    }

    /// The findings the agent's `status` gives, with `local` (what the command line sees for
    /// itself) after the sound's, and the agent's time zone compared with `terminalZone`, the
    /// terminal's, at `now` and half a year later.
    static func findings(fromStatus status: [String: WireValue], local: [Finding], now: Date, terminalZone: TimeZone) -> [Finding] {
        typealias Key = AlarmWireFormat.StatusKey
        func string(_ key: Key) -> String? { if case .string(let value)? = status[key.rawValue] { value } else { nil } }
        func bool(_ key: Key) -> Bool? { if case .bool(let value)? = status[key.rawValue] { value } else { nil } }
        func integer(_ key: Key) -> Int64? { if case .integer(let value)? = status[key.rawValue] { value } else { nil } }
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
        // The output, from an agent that reports it (0.1's does not), unless the sound finding
        // already says no sound server answers.
        if let raises = bool(.raiseOutput), string(.soundProblem) == nil {
            let output = string(.soundServer).map { server in
                OutputReadiness.Output(server: server, sink: string(.output), percent: integer(.outputVolume).map { Int($0) }, isMuted: bool(.outputMuted))
            }
            let settings = OutputRaiseSettings(raises: raises, levelPercent: integer(.ringLevel).map { Int($0) } ?? OutputRaiseSettings.standard.levelPercent)
            findings.append(Finding(check: "output", OutputReadiness.report(output, settings: settings)))
        }
        findings += local
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
        let sameClock = TimeZoneRules(identifier: agentZone).map { zone in
            [0, 182 * 86_400].allSatisfy { zone.secondsFromGMT(for: now + $0) == terminalZone.secondsFromGMT(for: now + $0) }
        } ?? false
        findings.append(sameClock
            ? Finding(check: "time zone", level: .ok, message: agentZone)
            : Finding(check: "time zone", level: .warning, message: "the agent uses \(agentZone), this terminal \(terminalZone.identifier)",
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

    /// What a ringing alarm shows on this session's locked screen, and how it is stopped there.
    static func lockScreenFinding(in context: CommandContext) -> Finding {
        Finding(check: "locked screen", LockScreenReadiness.report(LockerProbe.situation(environment: context.environment,
                                                                                          settingsDirectory: context.settingsDirectory)))
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
    static func notificationFindings(server: String?, drawsButtons: Bool?, drawsProgress: Bool?,
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
}
