import Testing
@testable import TocsinCommandLine
import TocsinCore

/// `tocsin` itself: picking the command, help, the version, and unknown commands.
@Suite struct DispatchTests {
    static let overview = """
        Usage: tocsin COMMAND [options]

        Alarms and timers that ring no matter what, from the command line.

        Commands:
          timer    start a timer that counts down and rings
          alarm    set an alarm at a time of day, on a date, or repeating
          list     list alarms and timers
          show     show one alarm or timer in full
          watch    print every change of every alarm as it happens
          status   show how the agent is set up (time zone, waking the machine, state file)
          doctor   check that alarms will be seen and heard on this desktop
          auth     see and change which applications may set alarms
          phone    ring your paired phones too when nobody answers an alarm
          config   show or change what every alarm gets by default (its Snooze, the output raised, its title when locked)
          pause    pause a counting-down timer (the only one without ID)
          resume   resume a paused timer (the only one without ID)
          cancel   remove an alarm or timer, whatever its state (the only one on screen without ID)
          stop     stop a ringing alarm (all ringing ones without ID)
          snooze   snooze a ringing alarm (all ringing ones without ID)

        “tocsin COMMAND --help” tells more about each. Exit status: 0 done, 1 refused by the
        agent, 2 usage error, 3 agent not reachable.

        """

    static let commandNames = ["timer", "alarm", "list", "show", "watch", "status", "doctor", "auth", "phone", "config",
                               "pause", "resume", "cancel", "stop", "snooze"]

    @Test(arguments: ["--help", "-h", "help"])
    func helpPrintsTheOverviewOnStandardOutput(_ word: String) {
        let run = TestWorld().run(word)
        #expect(run.status == 0)
        #expect(run.stdout == Self.overview)
        #expect(run.stderr == "")
    }

    @Test func withoutACommandTheOverviewGoesToStandardErrorAsAUsageError() {
        let run = TestWorld().run()
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == Self.overview)
    }

    @Test func versionPrintsTheVersion() {
        let run = TestWorld().run("--version")
        #expect(run.status == 0)
        #expect(run.stdout == "tocsin \(TocsinVersion.string)\n")
    }

    @Test func anUnknownCommandIsAUsageErrorPointingAtTheOverview() {
        let run = TestWorld().run("frobnicate", "now")
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == "tocsin: Unknown command “frobnicate”.\nSee “tocsin --help”.\n")
        #expect(run.connections == 0)
    }

    /// Each command's help starts with its usage, goes to standard output, and needs no agent.
    @Test(arguments: commandNames)
    func everyCommandHasHelp(_ name: String) {
        for flag in ["--help", "-h"] {
            let world = TestWorld()
            world.agent = nil
            let run = world.run(name, flag)
            #expect(run.status == 0, "\(name) \(flag): \(run.stderr)")
            #expect(run.stdout.hasPrefix("Usage: tocsin \(name)"), "\(name) \(flag): \(run.stdout)")
            #expect(run.stderr == "")
            #expect(run.connections == 0)
        }
    }

    @Test func helpIsShownWhateverElseTheArgumentsSay() {
        let run = TestWorld().run("timer", "5x", "--frobnicate", "--help")
        #expect(run.status == 0)
        #expect(run.stdout == TimerCommand.help + "\n")
    }

    @Test func theTimerAndAlarmHelpIncludeTheSharedOptions() {
        #expect(TimerCommand.help.contains(RingOptions.help))
        #expect(AlarmCommand.help.contains(RingOptions.help))
    }

    @Test func anIntentsHelpSaysWhatItDoesWithoutAnID() {
        #expect(TestWorld().run("pause", "--help").stdout == """
            Usage: tocsin pause [ID]

            Asks the agent to pause the alarm or timer ID (any unique prefix of its id).

            Without ID it acts on the one alarm or timer on screen (counting down, paused or
            ringing) that can be paused, and lists the candidates when there are
            several: a keyboard shortcut or a panel button can bind “tocsin pause”.

            Exit status: 0 done, 1 refused by the agent (unknown id, wrong state), 2 usage error,
            3 agent not reachable.

            """)
        #expect(TestWorld().run("stop", "--help").stdout.contains("""
            Without ID it acts on every alarm that is ringing, which makes it a good keyboard
            shortcut: bind “tocsin stop” in your desktop's keyboard settings.
            """))
    }
}
