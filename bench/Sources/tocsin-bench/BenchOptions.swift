import Foundation

/// The command line of tocsin-bench (normally run through bench/run).
struct BenchOptions {
    var quick = false
    /// The idle windows' length, when not the plan's (to catch a rare wake-up, or to watch one).
    var idleWindow: Duration?
    /// Where the JSON results go (default: <package>/bench/results).
    var outputDirectory: URL?
    /// The package root, where bench/Helpers lives (default: the current directory).
    var packageDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    /// Where tocsind and tocsin are (default: next to this executable).
    var binaryDirectory: URL?
    /// The steps to run (all when nil): a developer's shortcut while working on one figure.
    var steps: Set<BenchStep>?

    static let usage = """
        Usage: tocsin-bench [--quick] [--idle-window S] [--output DIR] [--package-dir DIR] [--bin-dir DIR] [--only STEP,…]

        Measures Tocsin (fire precision, idle cost, memory, latency, live-activity jitter) and the
        alternatives (`at`, a `sleep; notify-send; canberra-gtk-play` script, KAlarm) in one headless
        session, prints a Markdown table and writes JSON. Normally run as bench/run, which builds
        the release binaries and installs the packages it needs first.

          --quick            fewer samples and 10 s idle windows (under about 3 minutes)
          --idle-window S    count idle wake-ups over S seconds (default: 60; 8 with --quick)
          --output DIR       write DIR/<timestamp>.json and DIR/latest.json (default bench/results)
          --package-dir DIR  the package root (default: the current directory)
          --bin-dir DIR      where tocsind and tocsin are (default: next to tocsin-bench)
          --only STEP,…      run only these steps (for working on one figure): \(BenchStep.allCases.map(\.rawValue).joined(separator: ", "))
        """

    /// Parses `arguments` (without the program name); throws a usage message on a mistake.
    static func parse(_ arguments: [String]) throws -> BenchOptions {
        var options = BenchOptions()
        var remaining = arguments[...]
        func value(for option: String) throws -> URL {
            guard let text = remaining.popFirst() else { throw BenchError("\(option) needs a directory\n\n\(usage)") }
            return URL(fileURLWithPath: text)
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--quick": options.quick = true
            case "--idle-window":
                guard let text = remaining.popFirst(), let seconds = Int(text), seconds > 0 else {
                    throw BenchError("--idle-window needs a whole number of seconds\n\n\(usage)")
                }
                options.idleWindow = .seconds(seconds)
            case "--output": options.outputDirectory = try value(for: argument)
            case "--package-dir": options.packageDirectory = try value(for: argument)
            case "--bin-dir": options.binaryDirectory = try value(for: argument)
            case "--only":
                guard let list = remaining.popFirst() else { throw BenchError("--only needs a list of steps\n\n\(usage)") }
                options.steps = Set(try list.split(separator: ",").map { name in
                    guard let step = BenchStep(rawValue: String(name)) else { throw BenchError("unknown step “\(name)”\n\n\(usage)") }
                    return step
                })
            case "--help", "-h": throw BenchError(usage)
            default: throw BenchError("unknown option “\(argument)”\n\n\(usage)")
            }
        }
        return options
    }
}

/// The steps of a run, in the order they run.
enum BenchStep: String, CaseIterable, Sendable {
    /// Idle cost, memory and `tocsin list` with no alarm.
    case empty
    /// Fire precision, first audio and hooks.
    case fire
    /// Wake-ups and jitter with live countdowns.
    case countdowns
    /// 100, 1,000 and 10,000 alarms.
    case many
    /// Idle wake-ups by thread with 0 and 2,000 alarms, and with no sound server (sessions of their own).
    case idle
    /// The tray item's wake-ups, in a session of its own with waybar's tray.
    case tray
    /// GetStatus and Stop while an alarm rings and two media players are frozen.
    case frozen
    /// Due → sound with the output unmuted and muted, on PulseAudio and PipeWire.
    case output
    /// Due → lit display and due → title shown on a locked screen (Plasma's locker, xscreensaver).
    case lockScreen = "lock-screen"
    /// Due → lit display and → title readable on GNOME Shell's locked screen (43 and 48).
    case gnomeLockScreen = "gnome-lock-screen"
    /// `at`, the sleep script (and KAlarm).
    case peers
}
