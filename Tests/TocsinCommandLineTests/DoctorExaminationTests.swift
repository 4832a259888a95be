import Foundation
import Testing
@testable import TocsinCommandLine
import TocsinCore

/// The doctor's findings from the agent's status (the checks that ask the desktop itself, the
/// phones and the sound driver, are given in as `local`).
@Suite struct DoctorExaminationTests {
    typealias Key = AlarmWireFormat.StatusKey
    typealias Finding = DoctorCommand.Finding

    static let local = [Finding(check: "phones", level: .optional, message: "off")]
    static let utc = TimeZone(identifier: "UTC")!

    func findings(_ status: [Key: WireValue], terminalZone: TimeZone = utc) -> [Finding] {
        DoctorCommand.findings(fromStatus: Dictionary(uniqueKeysWithValues: status.map { ($0.key.rawValue, $0.value) }),
                               local: Self.local, now: t0, terminalZone: terminalZone)
    }

    func summary(_ findings: [Finding]) -> [String] {
        findings.map { "\($0.level.rawValue) \($0.check): \($0.message)" }
    }

    @Test func aHealthyDesktopIsAllOK() {
        let found = findings([
            .version: .string("0.1.0"), .notificationServer: .string("dunst 1.9.0"), .notificationActions: .bool(true),
            .notificationProgress: .bool(true), .doNotDisturb: .string("off"), .doNotDisturbHidesAlerts: .bool(false),
            .doNotDisturbMechanism: .string("dunst pause"), .alarmSoundInstalled: .bool(true), .canWakeSystem: .bool(true),
            .timeZone: .string("UTC"), .stateWritable: .bool(true), .stateFile: .string("/s/alarms.json"),
            .soundServer: .string("PulseAudio 16.1"), .output: .string("speakers"), .outputMuted: .bool(true), .outputVolume: .integer(3),
            .raiseOutput: .bool(true), .ringLevel: .integer(70),
        ])
        #expect(summary(found) == [
            "ok agent: running, version 0.1.0",
            "ok notifications: dunst 1.9.0: buttons and progress bars are shown",
            "ok do not disturb: off",
            "ok sound: the agent reaches the sound server",
            "ok output: speakers on PulseAudio 16.1, muted, 3 %: a ringing alarm raises it to 70 % and puts it back when it stops",
            "optional phones: off",
            "ok alarm sound: alarm-clock-elapsed is installed",
            "ok waking the machine: a suspended machine wakes up for the next alarm",
            "ok time zone: UTC",
            "ok state: saved in /s/alarms.json",
        ])
        #expect(found.allSatisfy { $0.fix == nil })
    }

    @Test func eachTroubleIsFoundWithWhatToDo() {
        let found = findings([
            .version: .string("0.1.0"), .doNotDisturb: .string("on"), .doNotDisturbHidesAlerts: .bool(true),
            .doNotDisturbMechanism: .string("GNOME do-not-disturb"), .soundProblem: .string("no sound server reachable (Not available)"),
            .alarmSoundInstalled: .bool(false), .canWakeSystem: .bool(false), .wakeProblem: .string("tocsind lacks CAP_WAKE_ALARM"),
            .timeZone: .string("UTC"), .panel: .string("none"), .stateWritable: .bool(false), .stateFile: .string("/s/alarms.json"),
        ], terminalZone: TimeZone(identifier: "Europe/Paris")!)
        #expect(summary(found) == [
            "ok agent: running, version 0.1.0",
            "problem notifications: no notification server is running: alarms ring, but nothing is shown",
            "warning do not disturb: on (GNOME do-not-disturb): even alarm alerts are hidden, but alarms still ring",
            "problem sound: no sound server reachable (Not available)",
            "optional phones: off",
            "warning alarm sound: the sound theme's alarm-clock-elapsed is not installed",
            "warning waking the machine: a suspended machine will not wake for alarms (tocsind lacks CAP_WAKE_ALARM)",
            "warning time zone: the agent uses UTC, this terminal Europe/Paris",
            "optional panel: no panel shows Tocsin's tray item: countdowns show in their notifications only",
            "problem state: /s/alarms.json cannot be written: changes are refused",
        ])
        #expect(found.filter { $0.level == .problem || $0.level == .warning }.allSatisfy { $0.fix != nil }, "every fault says what to do")
        #expect(found[0].fix == nil)
    }

    @Test func aMutedOutputWithRaisingOffIsAWarningAndNoServerAProblem() throws {
        let muted = findings([.soundServer: .string("PulseAudio (on PipeWire 0.3.65) 15.0.0"), .output: .string("speakers"),
                              .outputMuted: .bool(true), .outputVolume: .integer(40), .raiseOutput: .bool(false), .ringLevel: .integer(70)])
        let output = try #require(muted.first { $0.check == "output" })
        #expect(output.level == .warning)
        #expect(output.message == "speakers on PulseAudio (on PipeWire 0.3.65) 15.0.0 is muted, 40 % and raising is off: alarms may not be heard")
        #expect(output.fix?.contains("tocsin config raise-output yes") == true)

        let loud = findings([.soundServer: .string("PulseAudio 16.1"), .output: .string("speakers"), .outputMuted: .bool(false),
                             .outputVolume: .integer(90), .raiseOutput: .bool(false), .ringLevel: .integer(70)])
        #expect(loud.first { $0.check == "output" }?.level == .ok)

        let none = try #require(findings([.raiseOutput: .bool(true), .ringLevel: .integer(70)]).first { $0.check == "output" })
        #expect(none.level == .problem && none.message.hasPrefix("no sound server answers the agent"))
        #expect(findings([.raiseOutput: .bool(true), .soundProblem: .string("no sound server")]).allSatisfy { $0.check != "output" },
                "said once, by the sound finding")
        #expect(findings([.version: .string("0.1.0")]).allSatisfy { $0.check != "output" }, "an agent that does not report it")
    }

    @Test func aServerWithoutButtonsIsAWarning() {
        let found = findings([.notificationServer: .string("xfce4-notifyd 0.8"), .notificationActions: .bool(false),
                              .notificationProgress: .bool(false)])
        #expect(summary(found)[1]
            == "warning notifications: xfce4-notifyd 0.8: it shows no buttons, so notifications name the commands to type; it draws no progress bars")
    }

    /// Zone names differ between libraries; the same clock now and in half a year is the same zone.
    @Test func theTimeZoneIsComparedByItsClock() {
        let gmt = findings([.timeZone: .string("Etc/GMT")])
        #expect(gmt.first { $0.check == "time zone" }?.level == .ok)
        let london = findings([.timeZone: .string("Europe/London")])
        #expect(london.first { $0.check == "time zone" }?.level == .warning, "the same offset in January, not in July")
    }
}
