import Testing
@testable import TocsinCommandLine
import TocsinCore

/// What `tocsin doctor` prints for given findings, and how it ends.
@Suite struct DoctorReportTests {
    typealias Finding = DoctorCommand.Finding

    static let mixed = [
        Finding(check: "agent", level: .ok, message: "running, version 0.1.0"),
        Finding(check: "do not disturb", level: .warning, message: "on (GNOME): even alarm alerts are hidden, but alarms still ring",
                fix: "Stop a ringing alarm with “tocsin stop”."),
        Finding(check: "phones", level: .optional, message: "off", fix: "tocsin phone enable"),
        Finding(check: "sound", level: .problem, message: "no sound server reachable", fix: "Start PipeWire."),
    ]

    @Test func eachFindingIsMarkedWithItsLevelAndItsFixFollows() {
        #expect(DoctorReport(findings: Self.mixed).lines == [
            "ok       agent: running, version 0.1.0",
            "warning  do not disturb: on (GNOME): even alarm alerts are hidden, but alarms still ring",
            "         → Stop a ringing alarm with “tocsin stop”.",
            "optional phones: off",
            "         → tocsin phone enable",
            "PROBLEM  sound: no sound server reachable",
            "         → Start PipeWire.",
            "1 problem found: see above.",
        ])
    }

    @Test func aProblemEndsTheCommandWithExit1() throws {
        let failure = try #require(DoctorReport(findings: Self.mixed + [Finding(check: "state", level: .problem, message: "read-only")]).failure)
        #expect(failure.exitStatus == 1)
        #expect(failure.message == "2 problem(s) found.")
    }

    @Test func theVerdictSaysWhatWasFound() {
        let ok = Finding(check: "agent", level: .ok, message: "running")
        let optional = Finding(check: "panel", level: .optional, message: "none")
        let warning = Finding(check: "sound driver", level: .warning, message: "ALSA")
        func verdict(_ findings: [Finding]) -> String? { DoctorReport(findings: findings).lines.last }
        #expect(verdict([ok]) == "All is well: alarms will be seen and heard here.")
        #expect(verdict([ok, optional]) == "All is well: alarms will be seen and heard here (1 optional part not set up).")
        #expect(verdict([ok, warning, warning, optional, optional]) == "Alarms will ring here; 2 warnings above (2 optional parts not set up).")
        #expect(DoctorReport(findings: [ok, warning, optional]).failure == nil, "warnings are allowed")
    }

    @Test func jsonIsOneArrayWithAFixOnlyWhereThereIsOne() {
        #expect(DoctorReport(findings: [Self.mixed[0], Self.mixed[3]]).json
            == #"[{"check":"agent","level":"ok","message":"running, version 0.1.0"},{"check":"sound","fix":"Start PipeWire.","level":"problem","message":"no sound server reachable"}]"#)
    }

    @Test func doctorTakesNoArguments() {
        let world = TestWorld()
        let run = world.run("doctor", "now")
        #expect(run.status == 2)
        #expect(run.stderr == "tocsin: Unexpected argument “now”.\nSee “tocsin doctor --help”.\n")
        #expect(run.connections == 0)
    }
}
