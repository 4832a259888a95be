import Foundation
import HeadlessSession

/// The headless session every figure is measured in (private D-Bus bus, Xvfb + dunst, PulseAudio
/// null sink), with the real release-built `tocsind` running in it, a `tocsin watch --json`
/// listening to it, and the D-Bus helper for bulk calls.
final class BenchmarkSession {
    let session: HeadlessSession
    let tools: BenchTools
    /// The agent's `--state-dir`.
    let stateDirectory: URL
    private(set) var agent: SessionProcess
    private(set) var watch: WatchStream!
    let bulkClient: BulkDBusClient

    /// Starts the session (with `soundServer`) and the agent, and waits until the agent answers
    /// and the watcher is subscribed.
    init(tools: BenchTools, soundServer: SoundServerKind = .pulseAudio, label: String = "bench") throws {
        session = try HeadlessSession(label: label, soundServer: soundServer)
        self.tools = tools
        stateDirectory = session.directory.appendingPathComponent("tocsin-state")
        bulkClient = BulkDBusClient(session: session, helperScript: tools.dbusHelper)
        agent = try session.launch(tools.tocsind, Self.agentArguments(stateDirectory: stateDirectory))
        guard waitUntilAgentAnswers(timeout: .seconds(15)) != nil else {
            throw BenchError("the agent did not answer within 15 s; its log:\n\(agent.standardError())")
        }
        // The user's consent for the bench's D-Bus client, given once as `tocsin auth grant` would
        // (it is saved in the state directory, so restarts keep it).
        let granted = try session.run(tools.tocsin, ["auth", "grant", BulkDBusClient.appID])
        guard granted.succeeded else { throw BenchError("tocsin auth grant failed: \(granted)") }
        if let problem = bulkClient.availabilityProblem() { throw BenchError("the D-Bus helper cannot run: \(problem)") }
        watch = try WatchStream(session: session, tocsin: tools.tocsin)
        try waitUntilWatcherIsSubscribed()
    }

    deinit {
        session.stop()
    }

    /// Every alarm the bench schedules belongs to one application, and one application may hold
    /// only 100 alarms by default; the 1,000 and 10,000 figures need more.
    static let appAlarmLimit = 20_000

    /// The agent's command line: its own state directory and the raised per-application limit.
    static func agentArguments(stateDirectory: URL) -> [String] {
        ["--state-dir", stateDirectory.path, "--app-alarm-limit", String(appAlarmLimit)]
    }

    /// The agent's state file.
    var stateFile: URL { stateDirectory.appendingPathComponent("alarms.json") }
    /// The agent's journal of changes not yet folded into `stateFile`.
    var journalFile: URL { stateDirectory.appendingPathComponent("alarms.journal") }

    /// Runs `tocsin` with `arguments` in the session and returns its result.
    @discardableResult
    func tocsin(_ arguments: [String], timeout: Duration = .seconds(60)) throws -> CommandResult {
        try session.run(tools.tocsin, arguments, timeout: timeout)
    }

    /// Times `tocsin arguments` from process start to exit (output discarded).
    func timedTocsin(_ arguments: [String]) throws -> ProcessSpawner.TimedRun {
        try ProcessSpawner.timedRun(tools.tocsin, arguments, environment: session.environment)
    }

    /// How many alarms the agent holds (`tocsin status --json`, key alarm-count).
    func alarmCount() throws -> Int {
        let result = try tocsin(["status", "--json"])
        guard result.succeeded,
              let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
              let count = (object["alarm-count"] as? NSNumber)?.intValue else {
            throw BenchError("tocsin status --json gave no alarm-count: \(result)")
        }
        return count
    }

    /// Ends the agent (SIGTERM, as a session logout would) and waits for it to exit.
    func stopAgent() {
        agent.terminate(grace: .seconds(5))
    }

    /// Starts the agent again and returns how long it took until `probe` (e.g. `["list"]`) first
    /// succeeded, measured from just before the launch; throws if it never answers.
    @discardableResult
    func startAgent(probe: [String] = ["list"], timeout: Duration = .seconds(60)) throws -> Duration {
        let clock = ContinuousClock()
        let started = clock.now
        agent = try session.launch(tools.tocsind, Self.agentArguments(stateDirectory: stateDirectory))
        guard let answered = waitUntilAgentAnswers(probe: probe, timeout: timeout) else {
            throw BenchError("the agent did not answer within \(timeout); its log:\n\(agent.standardError())")
        }
        return answered - started
    }

    /// Polls `tocsin <probe>` back to back until it exits 0 and returns the instant it did.
    private func waitUntilAgentAnswers(probe: [String] = ["list"], timeout: Duration) -> ContinuousClock.Instant? {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while clock.now < deadline {
            // A probe that fails because the name is not taken yet returns within milliseconds.
            if let run = try? timedTocsin(probe), run.status == 0 { return clock.now }
            if !agent.isRunning { return nil }
            // A short pause so the probes do not crowd the agent off the two cores while it loads;
            // it bounds the start-up figure's resolution to about one probe plus 5 ms.
            Thread.sleep(forTimeInterval: 0.005)
        }
        return nil
    }

    /// Schedules a throwaway timer until the watcher prints it, so no later change can be missed.
    private func waitUntilWatcherIsSubscribed() throws {
        for _ in 0..<50 {
            let result = try tocsin(["timer", "1h", "--title", "bench-watch-probe"])
            let id = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            let seen = watch.waitFor(timeout: .milliseconds(300)) { $0.alarmID == id }
            try tocsin(["cancel", id])
            if seen != nil { return }
        }
        throw BenchError("tocsin watch --json never reported a change")
    }
}

/// Every program and file the benchmark uses, found once at start.
struct BenchTools {
    let tocsind: URL
    let tocsin: URL
    /// bench/Helpers/tocsin-dbus.py.
    let dbusHelper: URL
    /// The tests' MPRIS player (Tests/Support/FakeMediaPlayer), built beside the bench; `nil`
    /// when it is not built.
    let mediaPlayer: URL?
    /// The package root (for bench/results).
    let packageDirectory: URL

    /// Finds the release binaries next to this executable and the helper under `packageDirectory`.
    static func locate(packageDirectory: URL, binaryDirectory: URL?) throws -> BenchTools {
        let binaries = binaryDirectory ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let tocsind = binaries.appendingPathComponent("tocsind")
        let tocsin = binaries.appendingPathComponent("tocsin")
        for binary in [tocsind, tocsin] where !FileManager.default.isExecutableFile(atPath: binary.path) {
            throw BenchError("\(binary.path) is not built; run `swift build -c release` (bench/run does)")
        }
        let helper = packageDirectory.appendingPathComponent("bench/Helpers/tocsin-dbus.py")
        guard FileManager.default.fileExists(atPath: helper.path) else {
            throw BenchError("\(helper.path) is missing; pass --package-dir with the package root")
        }
        let player = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("fake-media-player")
        return BenchTools(tocsind: tocsind, tocsin: tocsin, dbusHelper: helper,
                          mediaPlayer: FileManager.default.isExecutableFile(atPath: player.path) ? player : nil,
                          packageDirectory: packageDirectory)
    }
}
