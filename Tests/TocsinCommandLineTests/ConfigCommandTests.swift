import Foundation
import Testing
@testable import TocsinCommandLine

/// `tocsin config [KEY [VALUE]]`, in a settings directory of the test's own.
@Suite struct ConfigCommandTests {
    @Test func showsChangesAndResetsASetting() throws {
        let world = TestWorld()
        #expect(world.run("config").stdout == "alarm-snooze 9 min\n")
        let set = world.run("config", "alarm-snooze", "5m")
        #expect(set.status == 0)
        #expect(set.stdout == "alarm-snooze 5 min\n")
        #expect(world.run("config", "alarm-snooze").stdout == "5 min\n")
        #expect(world.run("config").stdout == "alarm-snooze 5 min\n")
        #expect(world.run("config", "alarm-snooze", "off").stdout == "alarm-snooze off\n")
        #expect(world.run("config", "alarm-snooze", "default").stdout == "alarm-snooze 9 min\n")
        #expect(FileManager.default.fileExists(atPath: world.configHome.appendingPathComponent("tocsin/config.json").path))
    }

    @Test(arguments: [
        (["a", "b", "c"], "Too many arguments: tocsin config [KEY [VALUE]]."),
        (["nokey"], "No setting “nokey”; there is alarm-snooze."),
        (["alarm-snooze", "soon"], "alarm-snooze: “soon” is not a duration. Try 90, 90s, 3m, 1h30m, 1:30 or 01:02:03."),
        (["--frob"], "Unknown option “--frob” for “tocsin config”."),
    ])
    func eachMistakeIsAUsageError(_ arguments: [String], _ message: String) {
        let world = TestWorld()
        let run = world.run(["config"] + arguments)
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == "tocsin: \(message)\nSee “tocsin config --help”.\n")
        #expect(run.connections == 0)
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
    }
}
