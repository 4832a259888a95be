import Foundation
import Testing
@testable import TocsinCommandLine
import TocsinCore
import TocsinFiles

/// `tocsin config [KEY [VALUE]]`, in a settings directory of the test's own.
@Suite struct ConfigCommandTests {
    @Test func showsChangesAndResetsASetting() throws {
        let world = TestWorld()
        #expect(world.run("config").stdout == "alarm-snooze 9 min\nraise-output yes\nring-level 70 %\nlock-screen-titles show\n")
        let set = world.run("config", "alarm-snooze", "5m")
        #expect(set.status == 0)
        #expect(set.stdout == "alarm-snooze 5 min\n")
        #expect(world.run("config", "alarm-snooze").stdout == "5 min\n")
        #expect(world.run("config").stdout == "alarm-snooze 5 min\nraise-output yes\nring-level 70 %\nlock-screen-titles show\n")
        #expect(world.run("config", "alarm-snooze", "off").stdout == "alarm-snooze off\n")
        #expect(world.run("config", "alarm-snooze", "default").stdout == "alarm-snooze 9 min\n")
        #expect(FileManager.default.fileExists(atPath: world.configHome.appendingPathComponent("tocsin/config.json").path))
        #expect(!FileManager.default.fileExists(atPath: world.configHome.appendingPathComponent("tocsin/output.json").path),
                "the agent's file is written only when one of its settings changes")
    }

    /// raise-output and ring-level are the agent's: kept in output.json, through the store the
    /// agent reads, and config.json is left alone.
    @Test func theOutputSettingsGoToTheAgentsFile() throws {
        let world = TestWorld()
        let store = OutputRaiseSettingsStore(directory: world.configHome.appendingPathComponent("tocsin"))
        #expect(world.run("config", "raise-output").stdout == "yes\n")
        #expect(world.run("config", "ring-level").stdout == "70 %\n")
        let off = world.run("config", "raise-output", "no")
        #expect(off.status == 0 && off.stdout == "raise-output no\n", "\(off.stderr)")
        #expect(try store.load() == OutputRaiseSettings(raises: false, levelPercent: 70))
        #expect(world.run("config", "ring-level", "45%").stdout == "ring-level 45 %\n")
        #expect(world.run("config", "ring-level", "50").stdout == "ring-level 50 %\n")
        #expect(try store.load() == OutputRaiseSettings(raises: false, levelPercent: 50))
        #expect(world.run("config").stdout == "alarm-snooze 9 min\nraise-output no\nring-level 50 %\nlock-screen-titles show\n")
        #expect(world.run("config", "raise-output", "yes").stdout == "raise-output yes\n")
        #expect(world.run("config", "ring-level", "default").stdout == "ring-level 70 %\n")
        #expect(try store.load() == .standard)
        #expect(!FileManager.default.fileExists(atPath: world.configHome.appendingPathComponent("tocsin/config.json").path))
        #expect(world.run("config", "--help").stdout.contains("$XDG_CONFIG_HOME/tocsin/output.json"))
    }

    /// lock-screen-titles is the agent's too: kept in lock-screen.json, through the store the
    /// agent reads.
    @Test func theLockScreenSettingGoesToItsOwnFile() throws {
        let world = TestWorld()
        let store = LockScreenSettingsStore(directory: world.configHome.appendingPathComponent("tocsin"))
        #expect(world.run("config", "lock-screen-titles").stdout == "show\n")
        let hide = world.run("config", "lock-screen-titles", "hide")
        #expect(hide.status == 0 && hide.stdout == "lock-screen-titles hide\n", "\(hide.stderr)")
        #expect(try store.load() == LockScreenSettings(showsTitles: false))
        #expect(world.run("config").stdout.hasSuffix("lock-screen-titles hide\n"))
        #expect(world.run("config", "lock-screen-titles", "default").stdout == "lock-screen-titles show\n")
        #expect(try store.load() == .standard)
        #expect(!FileManager.default.fileExists(atPath: world.configHome.appendingPathComponent("tocsin/output.json").path))
        #expect(world.run("config", "--help").stdout.contains("$XDG_CONFIG_HOME/tocsin/lock-screen.json"))
    }

    @Test(arguments: [
        (["a", "b", "c"], "Too many arguments: tocsin config [KEY [VALUE]]."),
        (["nokey"], "No setting “nokey”; there are alarm-snooze, raise-output, ring-level and lock-screen-titles."),
        (["lock-screen-titles", "blur"], "lock-screen-titles: “blur” is neither show nor hide."),
        (["alarm-snooze", "soon"], "alarm-snooze: “soon” is not a duration. Try 90, 90s, 3m, 1h30m, 1:30 or 01:02:03."),
        (["raise-output", "maybe"], "raise-output: “maybe” is neither yes nor no."),
        (["ring-level", "0"], "ring-level: “0” is not a percentage from 1 to 100."),
        (["ring-level", "101"], "ring-level: “101” is not a percentage from 1 to 100."),
        (["ring-level", "loud"], "ring-level: “loud” is not a percentage from 1 to 100."),
        (["--frob"], "Unknown option “--frob” for “tocsin config”."),
    ])
    func eachMistakeIsAUsageError(_ arguments: [String], _ message: String) {
        let world = TestWorld()
        let run = world.run(["config"] + arguments)
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == "tocsin: \(message)\nSee “tocsin config --help”.\n")
        #expect(run.connections == 0)
        #expect(!FileManager.default.fileExists(atPath: world.configHome.appendingPathComponent("tocsin/output.json").path), "nothing written")
    }

    /// A file that cannot be read is the user's: said, and never written over.
    @Test func anUnreadableFileIsRefusedAndLeftAlone() throws {
        let world = TestWorld()
        let file = world.configHome.appendingPathComponent("tocsin/config.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{\"alarm-snooze-seconds\": ".utf8).write(to: file)
        let run = world.run("config", "alarm-snooze", "5m")
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("tocsin: \(file.path) could not be read ("), "\(run.stderr)")
        #expect(run.stderr.hasSuffix("); fix or remove it first.\n"), "\(run.stderr)")
        #expect(try String(contentsOf: file, encoding: .utf8) == "{\"alarm-snooze-seconds\": ")
        #expect(world.run("config", "ring-level", "50").status == 0, "the other file is not in the way")
    }

    @Test func anUnreadableOutputFileIsRefusedAndLeftAlone() throws {
        let world = TestWorld()
        let file = world.configHome.appendingPathComponent("tocsin/output.json")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        for text in ["{\"raise-output\": fal", "{\"ring-level\": 500}"] {
            try Data(text.utf8).write(to: file)
            for arguments in [["config", "raise-output", "no"], ["config", "ring-level", "default"], ["config", "ring-level"], ["config"]] {
                let run = world.run(arguments)
                #expect(run.status == 1, "\(arguments)")
                #expect(run.stderr.hasPrefix("tocsin: \(file.path) could not be read ("), "\(run.stderr)")
                #expect(run.stderr.hasSuffix("); fix or remove it first.\n"), "\(run.stderr)")
                #expect(try String(contentsOf: file, encoding: .utf8) == text)
            }
        }
        #expect(world.run("config", "ring-level").stderr
                == "tocsin: \(file.path) could not be read (its ring-level, 500, is not a percentage from 1 to 100); fix or remove it first.\n")
        #expect(world.run("config", "alarm-snooze", "5m").status == 0, "the other file is not in the way")
    }
}
