import Foundation
import Testing
@testable import TocsinCommandLine

/// `tocsin phone enable|disable|status|setup`, in a settings directory of the test's own.
/// (`setup` talks to KDE Connect and GSConnect: IntegrationTests.PhoneTests covers it.)
@Suite struct PhoneCommandTests {
    static let off = "Phones: off. Alarms ring at the desk only (tocsin phone enable rings your paired phones too).\n"

    @Test func enablesDisablesAndSaysTheSettingWithoutTheAgent() {
        let world = TestWorld()
        world.agent = nil
        #expect(world.run("phone", "status").stdout == Self.off)
        #expect(world.run("phone", "enable").stdout == "Phones: on. An alarm unanswered for 30 s rings your paired phones (KDE Connect or GSConnect).\n")
        let later = world.run("phone", "enable", "--after", "2m")
        #expect(later.status == 0)
        #expect(later.stdout == "Phones: on. An alarm unanswered for 2 min rings your paired phones (KDE Connect or GSConnect).\n")
        #expect(world.run("phone", "status").stdout == later.stdout)
        #expect(world.run("phone", "disable").stdout == Self.off)
        #expect(FileManager.default.fileExists(atPath: world.configHome.appendingPathComponent("tocsin/phone.json").path))
    }

    @Test(arguments: [
        ([String](), "Missing what to do: enable, disable, status or setup."),
        (["frob"], "Unknown phone action “frob”: enable, disable, status or setup."),
        (["enable", "--remove"], "--remove goes with setup."),
        (["disable", "--after", "1m"], "--after goes with enable."),
        (["enable", "--after", "5x"], "--after: “5x” is not a duration. Try 90, 90s, 3m, 1h30m, 1:30 or 01:02:03."),
        (["enable", "--after"], "--after needs a value."),
        (["enable", "extra"], "Unexpected argument “extra”."),
        (["status", "extra"], "Unexpected argument “extra”."),
        (["setup", "extra"], "Unexpected argument “extra”."),
        (["status", "--frob"], "Unknown option “--frob” for “tocsin phone”."),
    ])
    func eachMistakeIsAUsageError(_ arguments: [String], _ message: String) {
        let world = TestWorld()
        let run = world.run(["phone"] + arguments)
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == "tocsin: \(message)\nSee “tocsin phone --help”.\n")
        #expect(!FileManager.default.fileExists(atPath: world.configHome.path), "nothing is written")
    }
}
