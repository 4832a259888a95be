import BusTestSupport
import CGLib
import Foundation
import Glibc
import GLibSupport
import HeadlessSession
import Testing
import TocsinCore

/// The real agent on a private session bus, and a private "system bus", beside stand-ins for
/// every neighbour it talks to (`stand-in-neighbours`: media players, the notification server,
/// xfconf, the screensaver and Plasma's locker, PowerDevil, the StatusNotifierWatcher, KDE
/// Connect and GSConnect, logind and timedated), which answer every call at random — correctly,
/// with well-formed wrong answers, with odd errors, late, never, or by disconnecting mid-call —
/// send malformed signals many times a second, and call the agent's own objects (tray item,
/// menu, lock-screen interface, media player) with odd arguments. Meanwhile timers and alarms
/// come due one after another, phones are to be rung after 1 s, and a countdown ticks.
///
/// It passes when every alarm is heard (at the null sink's monitor) within 100 ms of its due
/// time, every `GetStatus` the test makes is answered within 100 ms, every call the stand-ins
/// make of the agent's objects is answered, the agent never crashes (the same process
/// throughout, no crash report in its log), and its memory stays bounded.
///
/// Seeded: TOCSIN_NEIGHBOUR_FUZZ_SEED=N replays a run's choices (the seed is printed; timing
/// still differs between runs). TOCSIN_NEIGHBOUR_FUZZ_EXCHANGES (default 2500) and
/// TOCSIN_NEIGHBOUR_FUZZ_SECONDS (default 80, then it stops early) bound it;
/// TOCSIN_NEIGHBOUR_FUZZ_NOTIFICATIONS is `both` (dunst, then the stand-in from a moment the
/// seed picks; the default), `stand-in` or `dunst`; TOCSIN_NEIGHBOUR_FUZZ_KEEP_GOING=1 restarts
/// a crashed agent and goes on, collecting every failure (fuzz/neighbours sets it);
/// TOCSIN_NEIGHBOUR_FUZZ_SPARE=player1,caller,… makes those neighbours behave, to get past a
/// bug already known (never all of them); TOCSIN_NEIGHBOUR_FUZZ_TOLERANCE_MS (100) and
/// TOCSIN_NEIGHBOUR_FUZZ_MEMORY_MB (24) change the bounds.
///
/// A late ring or a slow answer counts only if the agent's process was being scheduled then:
/// the test pings the agent every 20 ms (`org.freedesktop.DBus.Peer.Ping`, which GDBus answers
/// on its own thread, not the main loop); when a ping took over 50 ms, the machine or the bus
/// stalled and the lateness is reported, not judged.
@Suite(.serialized) struct NeighbourFuzzTests {
    @Test func theAgentKeepsTimeWhateverItsNeighboursAnswer() throws {
        let settings = NeighbourFuzz.Settings(ProcessInfo.processInfo.environment)
        print("NeighbourFuzzTests: seed \(settings.seed) (replay: TOCSIN_NEIGHBOUR_FUZZ_SEED=\(settings.seed)), at most \(settings.exchanges) exchanges "
              + "in \(Int(settings.seconds)) s, notifications: \(settings.notifications.rawValue)\(settings.keepGoing ? ", going on after a crash" : "")"
              + (settings.spared.isEmpty ? "" : ", SPARED (behaving): \(settings.spared.joined(separator: ", "))")
              + (settings.tolerance == 0.1 ? "" : ", tolerance \(Int(settings.tolerance * 1000)) ms"))
        let run = try NeighbourFuzz(settings)
        defer { run.end() }
        try run.fuzz()
        run.judge()
    }
}

/// One run of the neighbour fuzzer: the session, the stand-ins, the rings and what was measured.
final class NeighbourFuzz {
    struct Settings {
        enum Notifications: String { case both, standIn = "stand-in", dunst }
        var seed: UInt64
        var exchanges: Int
        var seconds: Double
        var notifications: Notifications
        var keepGoing: Bool
        /// Neighbours that behave (`--spare` of stand-in-neighbours), to get past a bug already known.
        var spared: [String]
        /// How late a ring may be heard and how long GetStatus may take, in seconds (100 ms).
        var tolerance: Double
        /// How much the agent's resident memory may grow after the warm-up, in MB.
        var memoryGrowth: Double

        init(_ environment: [String: String]) {
            seed = environment["TOCSIN_NEIGHBOUR_FUZZ_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64.max)
            exchanges = environment["TOCSIN_NEIGHBOUR_FUZZ_EXCHANGES"].flatMap { Int($0) } ?? 2500
            seconds = environment["TOCSIN_NEIGHBOUR_FUZZ_SECONDS"].flatMap { Double($0) } ?? 80
            notifications = environment["TOCSIN_NEIGHBOUR_FUZZ_NOTIFICATIONS"].flatMap { Notifications(rawValue: $0) } ?? .both
            keepGoing = environment["TOCSIN_NEIGHBOUR_FUZZ_KEEP_GOING"] == "1"
            tolerance = (environment["TOCSIN_NEIGHBOUR_FUZZ_TOLERANCE_MS"].flatMap { Double($0) } ?? 100) / 1000
            spared = (environment["TOCSIN_NEIGHBOUR_FUZZ_SPARE"] ?? "").split(separator: ",").map(String.init)
            memoryGrowth = environment["TOCSIN_NEIGHBOUR_FUZZ_MEMORY_MB"].flatMap { Double($0) } ?? 24
        }
    }

    /// How late a ring may be heard, and how long a call may take (TOCSIN_NEIGHBOUR_FUZZ_TOLERANCE_MS).
    var ringTolerance: Double { settings.tolerance }
    var answerTolerance: Double { settings.tolerance }
    /// The warm-up after which the agent's memory is the baseline.
    static let warmUp = 20.0

    /// One alarm of the run, from its scheduling to its end.
    struct Ring {
        let number: Int
        let id: String
        let how: String
        /// How it was scheduled, for a failure's message.
        let description: String
        let due: Date
        var heard: Date?
        /// The agent crashed while it was due or rang: not judged.
        var crashed = false
        var latency: Double? { crashed ? nil : heard.map { $0.timeIntervalSince(due) } }
    }

    /// Something the agent did wrong: what, when, and what the stand-ins said around it.
    struct Failure {
        let what: String
        let at: Date
        let context: String
        /// What makes two failures the same (a crash's message and first frame).
        let signature: String
        /// How bad it was (a slow answer's seconds): the worst of a kind is shown.
        var magnitude = 0.0
    }

    let settings: Settings
    let started = Date()
    private var dice: SplitMix
    private let systemBus: PrivateBus
    let fixture: AgentSession
    private let client: OpaquePointer
    private let standIns: SessionProcess
    private let standInLog: URL
    /// What the alarms ring: a beep at full level from its first sample (the default sound
    /// begins with 270 ms of near-silence, which would read as lateness).
    private let beep: URL
    private let prober: StatusProber
    private(set) var rings: [Ring] = []
    private(set) var failures: [Failure] = []
    private var crashes = 0
    /// Agents that ran, with when each started: a crashed one is followed by another.
    private var agents: [(pid: Int32, from: Date)] = []
    private var dunstEnded: Date?
    private var logLastRead = Date.distantPast
    /// The agent crashed and is not started again.
    private var dead = false
    /// Late rings and slow answers not judged: the machine stalled then.
    private var stalls: [String] = []
    /// A ping slower than this means the machine (or the bus) stalled, not the agent's loop:
    /// GDBus answers `org.freedesktop.DBus.Peer.Ping` on its own thread.
    static let stallThreshold = 0.050
    /// From a few seconds before each crash to a little after the agent answered again: a call
    /// made then tells nothing the crash did not (keep-going runs).
    private var crashWindows: [(from: Date, to: Date)] = []
    /// How long after a restart GetStatus is not judged: the agent is starting.
    static let restartGrace = 3.0
    /// What the test did, when: shown beside the stand-ins' lines in a failure.
    private var timeline: [(at: Date, what: String)] = []

    private func note(_ what: String) { timeline.append((Date(), what)) }
    private var handOver: Date?
    static let appID = "io.github.tocsin.NeighbourFuzz"

    init(_ settings: Settings) throws {
        self.settings = settings
        dice = SplitMix(seed: settings.seed ^ 0x7E57)
        systemBus = try PrivateBus()
        do {
            // The crashed thread's frames only, so that a run with many crashes keeps a readable
            // log. (An abort inside GLib, g_variant_n_children of a number, shows no frame past
            // libc's, with fast or precise unwinding alike: the stand-ins' log says what was answered.)
            fixture = try AgentSession("neighbour-fuzz", agentEnvironment: ["DBUS_SYSTEM_BUS_ADDRESS": systemBus.address,
                                                                             "SWIFT_BACKTRACE": "enable=yes,preset=full,threads=crashed,registers=none,images=none"])
        } catch {
            systemBus.stop()
            throw error
        }
        agents.append((fixture.agent.pid, Date()))
        do {
            client = try PrivateBus.connect(to: fixture.session.busAddress)
            // An application the user allowed, so Schedule is not waiting for an answer.
            g_variant_unref(try Self.call(client, "IdentifyApplication", Variant.tuple([g_variant_new_string(Self.appID)])))
            try #require(try fixture.tocsin("auth", "grant", Self.appID).status == 0)
            // Phones are asked for once a ring is 1 s unanswered.
            let phones = try fixture.tocsin("phone", "enable", "--after", "1s")
            try #require(phones.status == 0, "\(phones)")
            // A countdown on screen all along: the notification server gets a call every second.
            _ = try fixture.startTimer("30m", "--title", "Background")

            standInLog = fixture.session.directory.appendingPathComponent("stand-in-neighbours.log")
            var arguments = ["--seed", "\(settings.seed)", "--log", standInLog.path, "--exchanges", "\(settings.exchanges)"]
            if settings.notifications != .dunst { arguments.append("--notifications") }
            if !settings.spared.isEmpty { arguments += ["--spare", settings.spared.joined(separator: ",")] }
            let launched = try fixture.session.launch(try AgentSession.binary("stand-in-neighbours"), arguments,
                                                      extraEnvironment: ["DBUS_SYSTEM_BUS_ADDRESS": systemBus.address])
            standIns = launched
            guard AgentSession.eventually(timeout: 10, { launched.standardOutput().contains("ready") }) else {
                throw IntegrationError("the stand-ins did not start: \(launched.standardError())")
            }
            switch settings.notifications {
            case .standIn: handOver = Date()
            case .both: handOver = Date().addingTimeInterval(settings.seconds * (0.1 + 0.3 * Double(dice.below(100)) / 100))
            case .dunst: handOver = nil
            }
            beep = fixture.session.directory.appendingPathComponent("beep.wav")
            let sox = try fixture.session.run(try HeadlessSession.executable("sox"),
                                              ["-n", "-r", "44100", "-b", "16", "-c", "2", beep.path, "synth", "0.4", "sine", "880", "vol", "0.5"])
            guard sox.succeeded else { throw IntegrationError("sox could not write the beep: \(sox)") }
        } catch {
            systemBus.stop()
            throw error
        }
        prober = StatusProber(address: fixture.session.busAddress, pid: fixture.agent.pid, seed: settings.seed)
        prober.start()
    }

    func end() {
        prober.stop()
        standIns.terminate()
        g_object_unref(UnsafeMutableRawPointer(client))
        systemBus.stop()
    }

    // MARK: Fuzzing

    /// Rings one alarm after another until the stand-ins have made their exchanges or time is up.
    func fuzz() throws {
        let deadline = started.addingTimeInterval(settings.seconds)
        var number = 0
        while Date() < deadline, !standIns.standardOutput().contains("done ") {
            if let handOver, dunstEnded == nil, Date() >= handOver { endDunst() }
            if checkAgent() == false { break }
            number += 1
            ringOnce(number)
        }
        // What the last exchanges did shows in a moment.
        Thread.sleep(forTimeInterval: 0.5)
        _ = checkAgent()
    }

    /// The notification server's name goes to the stand-in: dunst is ended (it does not let
    /// its name be taken), and the stand-in, queued behind it, gets it.
    private func endDunst() {
        dunstEnded = Date()
        note("dunst ended: the stand-in takes the notification server's name")
        fixture.session.childProcesses.first { $0.name == "dunst" && $0.isRunning }?.terminate()
        print("NeighbourFuzzTests: dunst ended at +\(Self.seconds(Date().timeIntervalSince(started))) s; the stand-in serves notifications from now on")
    }

    /// Schedules one alarm 2–4 s ahead (a timer over D-Bus or the command line, or an alarm at
    /// an instant), checks that it is heard within `ringTolerance` of its due time, lets it ring
    /// 0.6–2.4 s (or until its 2 s ring limit), stops it and waits for silence.
    ///
    /// Each ring has a recording of its own, from before it is scheduled to its silence: the
    /// recording's timeline is estimated from when audio arrives, and over a long recording the
    /// shifts of streams starting and stopping add up (bench/Sources/tocsin-bench/SoundDelay.swift).
    private func ringOnce(_ number: Int) {
        let recording: SoundRecording
        do {
            recording = try fixture.session.startRecording()
        } catch {
            fail("no recording could be started: \(error)", at: Date())
            return
        }
        defer {
            _ = recording.stop()
            try? FileManager.default.removeItem(at: recording.rawAudioURL)
        }
        let lead = 2 + Double(dice.below(2000)) / 1000
        let limited = dice.below(4) == 0
        let title = "Ring \(number)"
        let how = ["D-Bus timer", "tocsin timer", "tocsin alarm"][dice.below(3)]
        let id: String
        do {
            switch how {
            case "D-Bus timer":
                var request: [String: WireValue] = ["duration": .double(lead), "title": .string(title), "sound": .string(beep.path)]
                if limited { request["ring-limit"] = .double(2) }
                let reply = try Self.call(client, "Schedule", Variant.tuple([Variant.make(dictionary: request)]))
                defer { g_variant_unref(reply) }
                id = Variant.string(in: reply, at: 0)
            default:
                let arguments = how == "tocsin timer" ? ["timer", String(format: "%.3fs", lead)] : ["alarm", AgentSession.instant(in: lead).text]
                let result = try fixture.tocsin(arguments + ["--title", title, "--sound", beep.path] + (limited ? ["--ring-for", "2s"] : []), environment: [:])
                guard result.status == 0 else { throw IntegrationError("tocsin \(arguments[0]) failed: \(result)") }
                id = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            }
        } catch {
            fail("\(title) could not be scheduled (\(how)): \(error)", at: Date())
            Thread.sleep(forTimeInterval: 1)
            return
        }
        guard let due = how == "D-Bus timer" ? fireTime(of: id) : ((try? fixture.alarm(id)?.number("fire-time")) ?? nil).map(Date.init(timeIntervalSince1970:)) else {
            fail("\(title) (\(how), \(id)) has no fire-time", at: Date())
            return
        }
        note("\(title) scheduled (\(how)\(limited ? ", 2 s ring limit" : "")), due at \(Self.clock(due))")
        var ring = Ring(number: number, id: id, how: how,
                        description: "\(title) (\(how)\(limited ? ", 2 s ring limit" : ""), due at +\(Self.seconds(due.timeIntervalSince(started))) s)", due: due)
        defer { rings.append(ring) }

        // Heard: the first loud window from just before the due time (a sound before it is not this ring's).
        let heardBy = due.addingTimeInterval(1.5)
        while Date() < heardBy {
            let trace = recording.currentTrace()
            if let loud = trace.firstLoudWindow(after: due.addingTimeInterval(-0.5)) {
                ring.heard = loud
                if loud < due.addingTimeInterval(-0.02), !trace.isSilent(from: due.addingTimeInterval(-0.5), to: due.addingTimeInterval(-0.02), threshold: 0.01) {
                    // Not this ring's start: something sounded before it was due. The first loud window after is its start.
                    ring.heard = trace.firstLoudWindow(after: due.addingTimeInterval(-0.02))
                    fail("\(title) (\(how)): something sounded in the 0.5 s before it was due", at: due, window: 1.5)
                    if ring.heard == nil { continue }
                }
                break
            }
            // A crash ends this ring: the agent started again has not heard of it.
            guard checkAgent() == true else {
                ring.crashed = true
                return
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        // Judged at the end (`judgeRings`), when every ping around it is in.

        // Rings a while (or to its ring limit), then Stop.
        let stopAt = limited ? due.addingTimeInterval(2.4) : due.addingTimeInterval(0.6 + Double(dice.below(1800)) / 1000)
        while Date() < stopAt {
            // A crash ends this ring: the agent started again has not heard of it.
            guard checkAgent() == true else {
                ring.crashed = true
                return
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        var stopping = limited ? "its ring limit" : ""
        if !limited {
            // Already stopped is fine: the stand-ins press Stop too.
            if dice.below(2) == 0 {
                let result = try? fixture.tocsin("stop", id)
                stopping = "tocsin stop (status \(result.map { "\($0.status)" } ?? "?"): \(result?.stderr.prefix(200) ?? ""))"
            } else if how != "D-Bus timer" {
                // The application may stop only its own alarms: the command line's are stopped as the user would.
                let result = try? fixture.session.run(try AgentSession.binary("tocsin"), ["stop"])
                stopping = "tocsin stop, all (status \(result.map { "\($0.status)" } ?? "?"): \(result?.stderr.prefix(200) ?? ""))"
            } else {
                do {
                    g_variant_unref(try Self.call(client, "Stop", Variant.tuple([g_variant_new_string(id)])))
                    stopping = "D-Bus Stop"
                } catch {
                    stopping = "D-Bus Stop (\(error))"
                }
            }
        }
        let stopped = Date()
        note("\(title) stopped by \(stopping)")
        let silentBy = stopped.addingTimeInterval(3)
        // Silent over the last 0.3 s recorded, once the recording reaches 0.3 s past the stop.
        while true {
            let trace = recording.currentTrace()
            if let end = trace.end, end > stopped.addingTimeInterval(0.3), trace.isSilent(from: end.addingTimeInterval(-0.3), to: end) { break }
            guard Date() < silentBy else {
                fail("\(title) (\(how)) still rang 3 s after it was stopped by \(stopping)", at: stopped, window: 1)
                _ = try? fixture.tocsin("stop")
                break
            }
            // A crash ends this ring: the agent started again has not heard of it.
            guard checkAgent() == true else {
                ring.crashed = true
                return
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        Thread.sleep(forTimeInterval: 0.2)
    }

    private func fireTime(of id: String) -> Date? {
        guard let reply = try? Self.call(client, "Get", Variant.tuple([g_variant_new_string(id)])) else { return nil }
        defer { g_variant_unref(reply) }
        let alarm = Variant.child(reply, 0)
        defer { g_variant_unref(alarm) }
        guard case .double(let seconds)? = Variant.dictionary(alarm)["fire-time"] else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    // MARK: The agent's health

    /// Whether the agent is still the one that was started; on a crash it records the failure
    /// and, when going on, starts the agent again. `nil`: it crashed and was restarted.
    private func checkAgent() -> Bool? {
        guard !dead else { return false }
        var crashed = !fixture.agent.isRunning
        // Its log is read four times a second: a crash report comes before the process ends.
        if !crashed, Date().timeIntervalSince(logLastRead) > 0.25 {
            logLastRead = Date()
            let log = fixture.agentLog
            crashed = FuzzTests.crashSigns.contains { log.contains($0) }
        }
        guard crashed else { return true }
        recordCrash()
        guard settings.keepGoing else {
            dead = true
            return false
        }
        // A crash at start (an alarm that rang again, the same answer) is recorded and tried again, thrice.
        for attempt in 1...3 {
            if restart() { return nil }
            if attempt < 3, !fixture.agent.isRunning || FuzzTests.crashSigns.contains(where: fixture.agentLog.contains) { recordCrash() }
        }
        failures.append(Failure(what: "the agent did not start again after its crash (three tries)", at: Date(), context: "", signature: "restart"))
        dead = true
        return false
    }

    /// Records the crash of the agent now running, once its report is written.
    private func recordCrash() {
        let noticed = Date()
        // The backtrace is written before the process ends.
        _ = fixture.agent.waitForExit(timeout: .seconds(20))
        let full = fixture.agentLog
        let standIn = StandInLog(standInLog)
        // When this agent left the bus, as the stand-ins saw it (not an earlier one's leaving).
        let startedAt = agents.last?.from ?? .distantPast
        let left = standIn.departures.last { $0 >= startedAt } ?? noticed
        let lines = full.split(separator: "\n").map(String.init)
        // The report's own message first ("Fatal error: …", "arithmetic overflow"), else the signal.
        let message = ["Fatal error", "Swift runtime failure", ":ERROR:", "Program crashed", "Signal"].lazy.compactMap { sign in
            lines.first { $0.contains(sign) }
        }.first ?? "the agent exited with status \(fixture.agent.terminationStatus.map(String.init) ?? "?")"
        // The agent's own frames name the bug: the first of TocsinAgent, below GLibSupport's.
        let frames = lines.filter { $0.contains(" in tocsind at /") }.map { line in
            line.replacingOccurrences(of: #"^.* 0x[0-9a-f]+ "#, with: "", options: .regularExpression)
                .replacingOccurrences(of: #" \+ \d+ in tocsind at .*/Sources/"#, with: " at ", options: .regularExpression)
        }
        let agentFrame = frames.first { $0.contains(" at TocsinAgent/") } ?? frames.first ?? "(no frame of Tocsin's in the backtrace)"
        crashes += 1
        crashWindows.append((from: noticed.addingTimeInterval(-5), to: Date().addingTimeInterval(60)))
        failures.append(Failure(
            what: "the agent crashed (\(agents.count == 1 ? "pid \(fixture.agent.pid)" : "its run \(agents.count), pid \(fixture.agent.pid)")): \(message)\n"
                + "  in \(agentFrame)\n\(FuzzTests.excerpt(of: full))",
            at: left, context: standIn.context(before: left, window: 2),
            signature: message.replacingOccurrences(of: #"0x[0-9a-f]+"#, with: "", options: .regularExpression) + " in " + agentFrame))
    }

    /// Starts the agent again with a state of its own (an alarm that rang when it crashed
    /// would ring again at once), as the application the user allowed, with its countdown.
    private func restart() -> Bool {
        prober.pause(true)
        defer { prober.pause(false) }
        do {
            let state = fixture.stateDirectory
            for name in (try? FileManager.default.contentsOfDirectory(atPath: state.path)) ?? [] {
                try? FileManager.default.removeItem(at: state.appendingPathComponent(name))
            }
            try fixture.restartAgent()
            agents.append((fixture.agent.pid, Date()))
            prober.follow(pid: fixture.agent.pid)
            g_variant_unref(try Self.call(client, "IdentifyApplication", Variant.tuple([g_variant_new_string(Self.appID)])))
            guard try fixture.tocsin("auth", "grant", Self.appID).status == 0 else { throw IntegrationError("tocsin auth grant failed") }
            _ = try fixture.startTimer("30m", "--title", "Background")
            note("the agent was started again (pid \(fixture.agent.pid))")
            crashWindows[crashWindows.count - 1].to = Date().addingTimeInterval(Self.restartGrace)
            return true
        } catch {
            note("the agent could not be started again: \(error)")
            return false
        }
    }

    // MARK: Judging

    private func fail(_ what: String, at: Date, window: Double = 1, log: StandInLog? = nil) {
        let end = at.addingTimeInterval(ringTolerance * 2)
        let context = (log ?? StandInLog(standInLog)).context(before: end, window: window)
        failures.append(Failure(what: what, at: at, context: context + testContext(before: end, window: window + 1), signature: what))
    }

    /// The test's own steps in the `window` seconds before `date`.
    private func testContext(before date: Date, window: Double) -> String {
        let steps = timeline.filter { $0.at <= date && $0.at >= date.addingTimeInterval(-window) }
        guard !steps.isEmpty else { return "" }
        return "\n  the test:\n" + steps.map { "    \(Self.clock($0.at)) \($0.what)" }.joined(separator: "\n")
    }

    static func clock(_ date: Date) -> String { String(format: "%.3f", date.timeIntervalSince1970) }

    /// Records an issue for every failure and prints the summary.
    func judge() {
        // Make the stand-ins say their counts, and wait for the last lines.
        let standIn = StandInLog(standInLog)
        let answers = prober.answers()
        judgeRings(standIn)
        let judged = answers.filter { answer in !crashWindows.contains { answer.at >= $0.from && answer.at <= $0.to } }
        for answer in judged where answer.error != nil || answer.seconds > answerTolerance {
            // Slow because the machine stalled (the agent's GDBus thread was slow too), not the agent's loop.
            let stall = prober.slowestPing(from: answer.at, to: answer.at.addingTimeInterval(answer.seconds))
            if answer.error == nil, stall > Self.stallThreshold {
                stalls.append("GetStatus \(Self.milliseconds(answer.seconds)) ms at +\(Self.seconds(answer.at.timeIntervalSince(started))) s (Ping \(Self.milliseconds(stall)) ms)")
                continue
            }
            let what = (answer.error.map { "GetStatus failed (\($0)) after \(Self.milliseconds(answer.seconds)) ms" }
                ?? "GetStatus was answered in \(Self.milliseconds(answer.seconds)) ms") + " (Peer.Ping meanwhile, answered by the agent's GDBus thread: at most \(Self.milliseconds(stall)) ms)"
            let end = answer.at.addingTimeInterval(answer.seconds)
            failures.append(Failure(what: what + " at +\(Self.seconds(answer.at.timeIntervalSince(started))) s", at: answer.at,
                                    context: standIn.context(before: end, window: 1 + answer.seconds) + testContext(before: end, window: 2), signature: "GetStatus",
                                    magnitude: answer.seconds))
        }
        for line in standIn.lines where line.text.contains(" caller timeout: ") {
            let at = Date(timeIntervalSince1970: line.time)
            failures.append(Failure(what: "the agent never answered (5 s) a call of its own objects: \(line.text)", at: at,
                                    context: standIn.context(before: at.addingTimeInterval(-5), window: 1), signature: "caller timeout"))
        }
        let memory = memoryVerdict()
        if let problem = memory.problem {
            failures.append(Failure(what: problem, at: Date(), context: "", signature: "memory"))
        }
        // The harness itself: rings came due, the stand-ins were asked, players among them.
        let fromAgent = standIn.lines.filter { line in standIn.agentNames.contains { line.text.contains(" from \($0) ") } }
        let heard = rings.compactMap(\.latency)

        print(summary(standIn: standIn, answers: answers, memory: memory.text, fromAgent: fromAgent.count))
        #expect(rings.count >= 3, "only \(rings.count) alarms came due: the run is too short to say anything")
        #expect(fromAgent.count >= 50, "the agent made only \(fromAgent.count) calls of the stand-ins: they are not where it looks")
        #expect(fromAgent.contains { $0.text.contains("PlaybackStatus") } || crashes > 0, "no media player was asked whether it plays")
        #expect(!heard.isEmpty || crashes > 0, "no ring was heard at all")

        // One issue per kind of failure (a crash's message and frame, a late answer), shown by
        // its first occurrence (a slow answer by its slowest), with when it happened again.
        var groups: [(signature: String, failures: [Failure])] = []
        for failure in failures.sorted(by: { $0.at < $1.at }) {
            if let index = groups.firstIndex(where: { $0.signature == failure.signature }) {
                groups[index].failures.append(failure)
            } else {
                groups.append((failure.signature, [failure]))
            }
        }
        for group in groups {
            let shown = group.failures.max { $0.magnitude < $1.magnitude || ($0.magnitude == $1.magnitude && $0.at > $1.at) }!
            let others = group.failures.filter { $0.at != shown.at }.map { "+\(Self.seconds($0.at.timeIntervalSince(started)))" }
            Issue.record("""
                seed \(settings.seed) (TOCSIN_NEIGHBOUR_FUZZ_SEED=\(settings.seed)), at +\(Self.seconds(shown.at.timeIntervalSince(started))) s \
                (\(shown.at.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))): \(shown.what)
                \(others.isEmpty ? "" : "the same \(others.count) more time(s), at \(others.prefix(20).joined(separator: ", ")) s\n")\
                what the stand-ins did just before (\(standInLog.lastPathComponent), kept in \(fixture.session.directory.path)):
                \(shown.context.isEmpty ? "  (nothing)" : shown.context)
                """)
        }
        if !failures.isEmpty { fixture.session.keepsDirectory = true }
    }

    /// Each ring heard within `ringTolerance` of its due time, unless the machine stalled then.
    private func judgeRings(_ standIn: StandInLog) {
        for ring in rings where !ring.crashed {
            guard let latency = ring.latency else {
                fail("\(ring.description) was not heard within 1.5 s of its due time", at: ring.due, window: 1.5, log: standIn)
                continue
            }
            guard latency > ringTolerance || latency < -0.02 else { continue }
            let stall = prober.slowestPing(from: ring.due, to: ring.due.addingTimeInterval(latency))
            if latency > 0, stall > Self.stallThreshold {
                stalls.append("\(ring.description) heard \(Self.milliseconds(latency)) ms late (Ping \(Self.milliseconds(stall)) ms)")
                continue
            }
            fail("\(ring.description) was heard \(Self.milliseconds(latency)) ms \(latency < 0 ? "before" : "after") its due time "
                 + "(Peer.Ping meanwhile, answered by the agent's GDBus thread: at most \(Self.milliseconds(stall)) ms)", at: ring.due, window: 1.5, log: standIn)
        }
    }

    private func memoryVerdict() -> (text: String, problem: String?) {
        // The last agent, if it ran long enough to have warmed up.
        guard let last = agents.last else { return ("no agent", nil) }
        let samples = prober.memory().filter { $0.pid == last.pid }
        let afterWarmUp = samples.filter { $0.at.timeIntervalSince(last.from) >= Self.warmUp }
        guard let baseline = afterWarmUp.first, let end = samples.last, end.at.timeIntervalSince(baseline.at) > 10 else {
            return ("not measured (the agent ran less than \(Int(Self.warmUp) + 10) s)", nil)
        }
        let peak = samples.map(\.kilobytes).max() ?? 0
        let growth = Double(end.kilobytes - baseline.kilobytes) / 1024
        let text = "RSS \(Self.megabytes(samples.first?.kilobytes ?? 0)) MB at start, \(Self.megabytes(baseline.kilobytes)) MB after \(Int(Self.warmUp)) s, "
            + "\(Self.megabytes(end.kilobytes)) MB at the end (peak \(Self.megabytes(peak)) MB)"
        let problem = growth > settings.memoryGrowth
            ? "the agent's memory grew by \(String(format: "%.1f", growth)) MB after its warm-up (more than \(Int(settings.memoryGrowth)) MB): \(text)" : nil
        return (text, problem)
    }

    private func summary(standIn: StandInLog, answers: [StatusProber.Answer], memory: String, fromAgent: Int) -> String {
        let elapsed = Date().timeIntervalSince(started)
        let kinds = standIn.kinds
        let exchanges = kinds.values.reduce(0, +)
        let latencies = rings.map { ring in ring.crashed ? "crash" : ring.latency.map { "\(Self.milliseconds($0))" } ?? "never" }
        let slowest = answers.max { $0.seconds < $1.seconds }
        let byNeighbour = Dictionary(grouping: standIn.lines.filter { line in standIn.agentNames.contains { line.text.contains(" from \($0) ") } }) { $0.neighbour }
            .mapValues(\.count).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let notifications: String = dunstEnded.map { "dunst, then the stand-in from +\(Self.seconds($0.timeIntervalSince(started))) s" } ?? "dunst"
        let rate = Int(Double(exchanges) / max(1, elapsed))
        let kindText: String = kinds.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        let latest: String = rings.compactMap(\.latency).max().map { "; latest \(Self.milliseconds($0)) ms" } ?? ""
        let slowestText: String = slowest.map { "\(Self.milliseconds($0.seconds)) ms at +\(Self.seconds($0.at.timeIntervalSince(started))) s" } ?? "-"
        let pids: String = agents.map { "\($0.pid)" }.joined(separator: ", ")
        let agentText: String = agents.count == 1 ? "pid \(agents[0].pid) throughout" : "\(crashes) crash(es), pids \(pids)"
        var lines: [String] = []
        lines.append("NeighbourFuzzTests: seed \(settings.seed): \(exchanges) exchanges in \(Self.seconds(elapsed)) s (\(rate)/s); notifications: \(notifications)")
        lines.append("  exchanges by kind: \(kindText)")
        lines.append("  calls the agent made of the stand-ins (\(fromAgent)): \(byNeighbour)")
        lines.append("  rings: \(rings.count); due→heard (ms): \(latencies.joined(separator: ", "))\(latest)")
        lines.append("  client answers: \(answers.count) GetStatus, slowest \(slowestText)")
        lines.append("  agent: \(agentText); \(memory)")
        let pings = prober.pings()
        lines.append("  Peer.Ping of the agent every 20 ms (its GDBus thread, a measure of the machine): \(pings.count), slowest \(Self.milliseconds(pings.map(\.seconds).max() ?? 0)) ms, "
                     + "\(pings.filter { $0.seconds > Self.stallThreshold }.count) over \(Self.milliseconds(Self.stallThreshold)) ms")
        if !stalls.isEmpty {
            lines.append("  not judged, the machine stalled then (\(stalls.count)): " + stalls.prefix(10).joined(separator: "; "))
        }
        let warnings = Self.glibWarnings(in: fixture.agentLog)
        if !warnings.isEmpty {
            lines.append("  GLib warnings in the agent's log (not failures; \(warnings.count) distinct):")
            lines += warnings.prefix(12).map { "    \($0.count)× \($0.text)" }
        }
        lines.append("  failures: \(failures.isEmpty ? "none" : "\(failures.count)")")
        return lines.joined(separator: "\n")
    }

    /// The distinct GLib criticals and warnings in `log`, without their times, with counts.
    static func glibWarnings(in log: String) -> [(text: String, count: Int)] {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for line in log.split(separator: "\n") where line.contains("-CRITICAL **") || line.contains("-WARNING **") {
            let text = line.replacingOccurrences(of: #"\(process:\d+\): "#, with: "", options: .regularExpression)
                .replacingOccurrences(of: #"\d\d:\d\d:\d\d\.\d\d\d: "#, with: "", options: .regularExpression)
            if counts[text] == nil { order.append(text) }
            counts[text, default: 0] += 1
        }
        return order.map { ($0, counts[$0]!) }
    }

    // MARK: Helpers

    static func call(_ connection: OpaquePointer, _ method: String, _ arguments: OpaquePointer?) throws -> OpaquePointer {
        let reply = try GLibError.check {
            g_dbus_connection_call_sync(connection, AlarmsInterface.busName, AlarmsInterface.objectPath, AlarmsInterface.name, method,
                                        arguments, nil, G_DBUS_CALL_FLAGS_NONE, 10_000, nil, $0)
        }
        guard let reply else { throw IntegrationError("\(method) had no reply") }
        return reply
    }

    static func seconds(_ value: Double) -> String { String(format: "%.1f", value) }
    static func milliseconds(_ value: Double) -> String { String(format: "%.0f", value * 1000) }
    static func megabytes(_ kilobytes: Int) -> String { String(format: "%.1f", Double(kilobytes) / 1024) }
}

/// The stand-ins' log, read back: each line's time, neighbour and kind, the agent's unique
/// names and when it left the bus.
struct StandInLog {
    struct Line {
        let time: Double
        let neighbour: String
        let kind: String
        let text: String
        /// An exchange, not a note.
        let isExchange: Bool
    }

    let lines: [Line]
    let agentNames: Set<String>
    /// When the agent left the session bus (seconds since 1970).
    let departures: [Date]

    init(_ url: URL) {
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        var lines: [Line] = []
        var names: Set<String> = []
        var departures: [Date] = []
        for raw in text.split(separator: "\n") {
            // "<time> <#n|-> <bus> <neighbour> <kind…>: <what>"
            let fields = raw.split(separator: " ", maxSplits: 4)
            guard fields.count == 5, let time = Double(fields[0]) else { continue }
            let rest = fields[4]
            let kind = rest.firstRange(of: ": ").map { String(rest[..<$0.lowerBound]) } ?? String(rest)
            let line = Line(time: time, neighbour: String(fields[3]), kind: kind, text: String(raw), isExchange: fields[1] != "-")
            if fields[1] == "-" {
                if let match = raw.firstMatch(of: /the agent is on the bus as (:[0-9.]+)/) { names.insert(String(match.1)) }
                if raw.contains(") left the bus") { departures.append(Date(timeIntervalSince1970: time)) }
            }
            lines.append(line)
        }
        self.lines = lines
        agentNames = names
        self.departures = departures
    }

    /// Exchanges by kind.
    var kinds: [String: Int] {
        Dictionary(grouping: lines.filter(\.isExchange), by: \.kind).mapValues(\.count)
    }

    /// What the stand-ins did in the `window` seconds before `date` (and 0.1 s after): the
    /// agent's last calls of them and how they were answered, then everything else (signals,
    /// calls of its objects, neighbours coming and going), newest last.
    func context(before date: Date, window: Double) -> String {
        let end = date.timeIntervalSince1970 + 0.1, start = end - window - 0.1
        let recent = lines.filter { $0.time >= start && $0.time <= end }
        let fromAgent = recent.filter { line in agentNames.contains { line.text.contains(" from \($0) ") } }
        let others = recent.filter { line in !agentNames.contains { line.text.contains(" from \($0) ") } && line.neighbour != "stand-in-neighbours" }
        func show(_ lines: ArraySlice<Line>) -> String { lines.map { "    " + String($0.text.prefix(400)) }.joined(separator: "\n") }
        return "  the agent's last calls of the stand-ins:\n" + (fromAgent.isEmpty ? "    (none)" : show(fromAgent.suffix(8)))
            + "\n  the rest:\n" + (others.isEmpty ? "    (none)" : show(others.suffix(14)))
    }
}

/// Asks the agent `GetStatus` every 50–200 ms from a thread and a connection of its own, timing
/// each answer, and reads the agent's resident memory every half second.
final class StatusProber: @unchecked Sendable {
    struct Answer {
        let at: Date
        let seconds: Double
        let error: String?
    }

    struct Memory {
        let at: Date
        let pid: Int32
        let kilobytes: Int
    }

    private let lock = NSLock()
    private var recorded: [Answer] = []
    private var samples: [Memory] = []
    private var pinged: [Answer] = []
    private var paused = false
    private var stopped = false
    private var pid: Int32
    private let address: String
    private let seed: UInt64
    private let finished = DispatchSemaphore(value: 0)

    init(address: String, pid: Int32, seed: UInt64) {
        self.address = address
        self.pid = pid
        self.seed = seed
    }

    func start() {
        Thread { [self] in run() }.start()
        Thread { [self] in ping() }.start()
    }

    /// `org.freedesktop.DBus.Peer.Ping` of the agent every 20 ms: GDBus answers it on its own
    /// thread, whatever the main loop does, so a slow one says the machine or the bus stalled.
    private func ping() {
        defer { finished.signal() }
        guard let connection = try? PrivateBus.connect(to: address) else { return }
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        while !lock.withLock({ stopped }) {
            if !lock.withLock({ paused }) {
                let at = Date()
                let started = ContinuousClock.now
                var error: UnsafeMutablePointer<GError>?
                let reply = g_dbus_connection_call_sync(connection, AlarmsInterface.busName, "/", "org.freedesktop.DBus.Peer", "Ping",
                                                        nil, nil, G_DBUS_CALL_FLAGS_NONE, 5000, nil, &error)
                let elapsed = ContinuousClock.now - started
                if let reply { g_variant_unref(reply) }
                let failure = error.map { GLibError(consuming: $0).message }
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                lock.withLock { pinged.append(Answer(at: at, seconds: seconds, error: failure)) }
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    func stop() {
        let wasStopped = lock.withLock { () -> Bool in
            defer { stopped = true }
            return stopped
        }
        if !wasStopped {
            finished.wait()
            finished.wait()
        }
    }

    func pause(_ pausing: Bool) { lock.withLock { paused = pausing } }
    func follow(pid: Int32) { lock.withLock { self.pid = pid } }
    func answers() -> [Answer] { lock.withLock { recorded } }
    func memory() -> [Memory] { lock.withLock { samples } }
    func pings() -> [Answer] { lock.withLock { pinged } }

    /// The slowest ping that was under way at some moment between `from` and `to` (5 s for one unanswered).
    func slowestPing(from: Date, to: Date) -> Double {
        pings().filter { $0.at <= to && $0.at.addingTimeInterval($0.seconds) >= from }.map { $0.error == nil ? $0.seconds : 5 }.max() ?? 0
    }

    private func run() {
        defer { finished.signal() }
        guard let connection = try? PrivateBus.connect(to: address) else {
            lock.withLock { recorded.append(Answer(at: Date(), seconds: 0, error: "no connection to the session bus")) }
            return
        }
        defer { g_object_unref(UnsafeMutableRawPointer(connection)) }
        var random = SplitMix(seed: seed ^ 0x5747)
        var nextSample = Date()
        while true {
            let (isStopped, isPaused, pid) = lock.withLock { (stopped, paused, self.pid) }
            if isStopped { return }
            if !isPaused {
                let at = Date()
                let started = ContinuousClock.now
                var error: UnsafeMutablePointer<GError>?
                let reply = g_dbus_connection_call_sync(connection, AlarmsInterface.busName, AlarmsInterface.objectPath, AlarmsInterface.name,
                                                        AlarmsMethod.getStatus.rawValue, nil, nil, G_DBUS_CALL_FLAGS_NONE, 5000, nil, &error)
                let elapsed = ContinuousClock.now - started
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                if let reply { g_variant_unref(reply) }
                let failure = error.map { GLibError(consuming: $0).message }
                // A call made while the agent was being restarted tells nothing.
                if !lock.withLock({ paused }) { lock.withLock { recorded.append(Answer(at: at, seconds: seconds, error: failure)) } }
            }
            if Date() >= nextSample {
                nextSample = Date().addingTimeInterval(0.5)
                if let kilobytes = Self.residentKilobytes(of: pid) { lock.withLock { samples.append(Memory(at: Date(), pid: pid, kilobytes: kilobytes)) } }
            }
            Thread.sleep(forTimeInterval: 0.05 + Double(random.below(150)) / 1000)
        }
    }

    /// VmRSS from /proc/PID/status, in kB.
    static func residentKilobytes(of pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
    }
}
