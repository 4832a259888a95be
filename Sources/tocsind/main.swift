import FoundationEssentials
import Glibc
import TocsinAgent
import TocsinCore

// tocsind: the Tocsin session agent. Everything it does lives in TocsinAgent; this file only
// reads the command line.
MemoryReturner.routeGLibSlicesThroughMalloc()
MemoryReturner.allocateFromOneArena()

let usage = """
    Usage: tocsind [--state-dir DIR] [--hook-time-limit SECONDS] [--app-alarm-limit N] [--no-tray]

    The Tocsin agent: keeps your alarms and timers and rings them on time. It serves
    io.github.tocsin.Agent on the session bus; use the `tocsin` command to talk to it.

      --state-dir DIR   keep alarms in DIR (default: $XDG_STATE_HOME/tocsin)
      --hook-time-limit SECONDS
                        kill a hook still running after SECONDS (default 60)
      --app-alarm-limit N
                        the most alarms one application (not the tocsin command line) may
                        hold (default 100)
      --no-tray         show no tray item; by default one (a StatusNotifierItem) is shown
                        while something runs, for panels with a tray and Tocsin's GNOME Shell
                        extension, wherever one of them is there to show it
      --version         print the version
      --help            show this help
    """

var configuration = AgentConfiguration()
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "--state-dir":
        guard let directory = arguments.popFirst() else {
            refuse("--state-dir needs a directory.")
        }
        configuration.stateDirectory = URL(fileURLWithPath: directory, isDirectory: true)
    case "--hook-time-limit":
        guard let text = arguments.popFirst(), let seconds = Double(text), seconds > 0, seconds.isFinite else {
            refuse("--hook-time-limit needs a number of seconds above zero.")
        }
        configuration.hookTimeLimit = seconds
    case "--app-alarm-limit":
        guard let text = arguments.popFirst(), let limit = Int(text), limit > 0 else {
            refuse("--app-alarm-limit needs a number of alarms above zero.")
        }
        configuration.alarmsPerApplication = limit
    case "--no-tray":
        configuration.showsTrayItem = false
    case "--tray":
        // The default since the tray item became one; still taken, as earlier set-ups pass it.
        configuration.showsTrayItem = true
    case "--version":
        print("tocsind \(TocsinVersion.string)")
        exit(0)
    case "--help", "-h":
        print(usage)
        exit(0)
    default:
        refuse("unknown option “\(argument)”.\n\n\(usage)")
    }
}
exit(Agent(configuration: configuration).run())

/// Says what is wrong with the command line on standard error and exits with status 2.
func refuse(_ problem: String) -> Never {
    AgentLog.writeToStandardError("tocsind: \(problem)")
    exit(2)
}
