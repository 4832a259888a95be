import Foundation
import TocsinCore
import TocsinFiles

// The doctor's checks that need no agent: the phones, and the sound driver libcanberra uses.
extension DoctorCommand {
    /// Whether an unanswered alarm will ring a phone: the settings, and the paired phones within
    /// reach of KDE Connect and GSConnect (asked whether phones are on or off: with them off, a
    /// missing phone link is named as optional). The settings are read from `directory`.
    static func phoneFinding(settingsIn directory: URL) -> Finding {
        let settings = Result { () throws(StoreError) -> PhoneRingSettings in try PhoneSettingsStore(directory: directory).load() }
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

    /// What the CLI can see for itself in `context`: whether a phone will ring, and how
    /// libcanberra will reach the sound server.
    static func localChecks(in context: CommandContext) -> [Finding] {
        let libraryDirectories = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/usr/lib"]
        let pulseDriver = libraryDirectories.contains { directory in
            ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
                .filter { $0.hasPrefix("libcanberra-") }
                .contains { FileManager.default.fileExists(atPath: "\(directory)/\($0)/libcanberra-pulse.so") }
        }
        return [phoneFinding(settingsIn: context.settingsDirectory), pulseDriver
            ? Finding(check: "sound driver", level: .ok, message: "libcanberra plays through PulseAudio (or PipeWire's pulse server)")
            : Finding(check: "sound driver", level: .warning, message: "libcanberra's PulseAudio driver is not installed; it falls back to ALSA, which a running sound server may block",
                      fix: "Install libcanberra-pulse.")]
    }
}
