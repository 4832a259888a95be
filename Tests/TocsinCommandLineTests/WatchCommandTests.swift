import Testing
@testable import TocsinCommandLine
import TocsinCore

/// `tocsin watch`: its options, and the line it prints for a change. (Following the agent needs
/// a main loop and a bus: IntegrationTests.CommandLineTests watch it.)
@Suite struct WatchCommandTests {
    @Test(arguments: [
        (["--format", "nope"], "Unknown format “nope”; known formats: waybar, i3blocks, polybar."),
        (["--format", "waybar", "--json"], "--json and --format go one at a time."),
        (["--format"], "--format needs a value."),
        (["extra"], "Unexpected argument “extra”."),
        (["--format", "waybar", "--format", "polybar"], "--format is given twice."),
    ])
    func eachMistakeIsAUsageErrorSaidBeforeWatching(_ arguments: [String], _ message: String) {
        let world = TestWorld()
        // No agent: were the arguments taken, the command would fail to connect (exit 3)
        // rather than watch forever.
        world.agent = nil
        let run = world.run(["watch"] + arguments)
        #expect(run.status == 2)
        #expect(run.stderr == "tocsin: \(message)\nSee “tocsin watch --help”.\n")
        #expect(run.connections == 0)
    }

    @Test func aChangeIsOneLineWithTheTimeEventIDTitleAndStatus() throws {
        let text = AlarmText(writer: NotificationContentWriter(timeZone: .utc, localeIdentifier: "C"))
        #expect(text.watchLine(.fired, try Sample.bell(), removed: false, at: at(0)) == "08:00  fired         be110000  Bell  (ringing since 07:59)")
        #expect(text.watchLine(.cancelled, try Sample.pasta(), removed: true, at: at(75)) == "08:01  cancelled     a1b2c3d4  Pasta  (removed)")
        #expect(text.watchLine(.paused, try Sample.tea(), removed: false, at: at(0)) == "08:00  paused        a1b2ffff  Tea  (1:05 left, paused)")
    }
}
