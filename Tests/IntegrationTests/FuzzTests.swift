import BusTestSupport
import CGLib
import Foundation
import Glibc
import GLibSupport
import HeadlessSession
import Testing
import TocsinCore

/// Robustness against whatever a D-Bus client sends: random `Schedule` dictionaries over the bus
/// to the real agent, markup in titles, and the libFuzzer targets of fuzz/ (see fuzz/README.md).
@Suite(.serialized) struct FuzzTests {
    /// Thousands of random `Schedule` requests (wrong types, unknown and missing keys, duplicate
    /// keys, huge and control-character and markup strings, NaN/∞/huge numbers, nested variants),
    /// plus wrongly typed calls and the intents on random ids, all on one connection of an
    /// authorized application. Every reply must be an id or a named io.github.tocsin.Error; the
    /// agent must still answer, log no crash, and start again from what it saved.
    ///
    /// TOCSIN_FUZZ_SEED=N replays a run (the seed is printed); TOCSIN_FUZZ_CALLS=N (default 3000)
    /// and TOCSIN_FUZZ_SECONDS=S (default 25: then it stops early) change its size.
    @Test func randomScheduleRequestsGetAnIdOrANamedError() throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["TOCSIN_FUZZ_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...UInt64.max)
        let calls = environment["TOCSIN_FUZZ_CALLS"].flatMap { Int($0) } ?? 3000
        // A slow machine makes fewer calls rather than a slow test.
        let budget = environment["TOCSIN_FUZZ_SECONDS"].flatMap { Double($0) } ?? 25
        print("FuzzTests: D-Bus fuzzing with seed \(seed) (replay: TOCSIN_FUZZ_SEED=\(seed)), \(calls) calls")

        let fixture = try AgentSession("dbus-fuzz")
        // A FIFO nobody writes to: a "sound file" that blocks whoever opens it.
        let fifo = fixture.session.directory.appendingPathComponent("not-a-sound.wav")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        var generator = RequestGenerator(seed: seed, extraPaths: [fifo.path])

        let client = try BusClient(address: fixture.session.busAddress)
        try client.identify(as: FuzzTests.RequestGenerator.appID)
        let grant = try fixture.tocsin("auth", "grant", FuzzTests.RequestGenerator.appID)
        try #require(grant.status == 0, "\(grant)")

        var outcomes: [String: Int] = [:]
        var unexpected: [String] = []
        /// The alarms this run holds, with the request that made each: an alarm that crashes the
        /// agent later (when it becomes the next deadline) is one of them.
        var alive: [(id: String, replay: String)] = []
        func record(_ call: RequestGenerator.Call, _ outcome: BusClient.Outcome) {
            switch outcome {
            case .reply(let text):
                outcomes["ok " + call.method, default: 0] += 1
                guard call.method == "Schedule" else { return }
                // The id comes back as ('3f2b…',).
                let id = String(text.dropFirst(2).prefix(36))
                if UUID(uuidString: id) != nil, id == id.lowercased(), text == "('\(id)',)" {
                    alive.append((id, call.replay))
                } else {
                    unexpected.append("Schedule replied \(text), not an id, to \(call.replay)")
                }
            case .error(let name, let message):
                outcomes[name, default: 0] += 1
                guard !call.allowedErrors.contains(where: { name.hasPrefix($0) }) else { return }
                unexpected.append("\(name): \(message.prefix(500))\n    to \(call.replay)"
                    + (alive.isEmpty ? "" : "\n  the alarms alive then were made by:\n" + alive.map { "    \($0.replay.prefix(400))" }.joined(separator: "\n")))
            }
        }

        let start = Date()
        var made = 0
        while made < calls, unexpected.isEmpty, Date().timeIntervalSince(start) < budget {
            made += 1
            let call = generator.nextCall(knownIDs: alive.map(\.id))
            let outcome = client.call(call.method, call.arguments, timeout: 10_000)
            call.release()
            record(call, outcome)
            if call.method == "Cancel", case .reply = outcome { alive.removeAll { call.replay.contains($0.id) } }
            // Keep below the application's limit of 100 alarms, so accepted requests keep coming.
            if alive.count >= 40 || made % 200 == 0 {
                while let (id, _) = alive.last, unexpected.isEmpty {
                    let cancel = RequestGenerator.Call.plain("Cancel", id)
                    record(cancel, client.call(cancel.method, cancel.arguments, timeout: 10_000))
                    cancel.release()
                    alive.removeLast()
                }
            }
        }
        let elapsed = Date().timeIntervalSince(start)
        let rang = fixture.agentLog.components(separatedBy: "): fired.").count - 1
        print("FuzzTests: \(made) calls in \(String(format: "%.1f", elapsed)) s (\(Int(Double(made) / elapsed)) calls/s), \(rang) rang: "
              + outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))

        guard unexpected.isEmpty, fixture.agent.isRunning else {
            Issue.record("seed \(seed): \(unexpected.first ?? "the agent died")\nthe agent's log:\n\(Self.excerpt(of: fixture.agentLog))")
            return
        }
        #expect(outcomes["ok Schedule", default: 0] > 0, "no request was ever accepted: the generator is broken")
        Self.expectNoCrash(in: fixture.agentLog, seed: seed)
        let list = try fixture.tocsin("list")
        #expect(list.status == 0, "seed \(seed): tocsin list after fuzzing: \(list)")
        #expect(try fixture.tocsin("list", "--json").status == 0)
        #expect(try fixture.tocsin("status").status == 0)

        // What the agent saved must bring it back up: schedule once more, then restart.
        let survivor = try fixture.startTimer("10m", "--title", "After fuzzing")
        fixture.agent.terminate()
        try fixture.restartAgent()
        #expect(try fixture.alarm(survivor) != nil, "the state saved during fuzzing lost an alarm")
        #expect(fixture.agent.isRunning)
        Self.expectNoCrash(in: fixture.agentLog, seed: seed)
    }

    /// A title full of markup is shown as typed: the summary is never markup (the Notifications
    /// spec), so the agent sends it unchanged; bodies and labels carry no markup of their own, and
    /// dunst, which reads markup in bodies, renders the summary escaped.
    @Test func markupInTitlesIsShownLiterally() throws {
        let fixture = try AgentSession("markup")
        let title = "<b>bold</b> & <i>x</i>"
        let label = "<u>Later</u> &amp; co"
        let id = try fixture.startTimer("2s", "--title", title, "--snooze", "1m", "--button", label)
        let countdown = try fixture.waitForNotification(titled: title)
        let ringing = try fixture.waitForNotification(titled: title) { $0.urgency == 2 }
        #expect(countdown.summary == title)
        #expect(ringing.buttonLabels == ["Stop", label])
        for notification in fixture.notifications(titled: title) {
            // dunst advertises body-markup: whatever the body says must be markup for exactly its text.
            #expect(MarkupText.plainText(ofMarkup: notification.body) != nil, "the body is not escaped: \(notification.body)")
            #expect(!notification.body.contains("<b>") && !notification.body.contains("bold"), "\(notification)")
        }

        // The same from an application over D-Bus, with an entity and a comment in the title.
        let appTitle = "Tea &lt;now&gt; <!-- x --> <span foreground='red'>hot</span>"
        #expect(try fixture.tocsin("auth", "grant", FuzzTests.RequestGenerator.appID).status == 0)
        let client = try BusClient(address: fixture.session.busAddress)
        try client.identify(as: FuzzTests.RequestGenerator.appID)
        let request = Variant.make(dictionary: ["duration": .double(60), "title": .string(appTitle)])
        guard case .reply = client.call("Schedule", [request], timeout: 10_000) else {
            Issue.record("Schedule with a markup title failed")
            return
        }
        let fromApp = try fixture.waitForNotification(titled: appTitle)
        #expect(MarkupText.plainText(ofMarkup: fromApp.body) != nil, "\(fromApp)")

        // What dunst made of it: its history keeps the summary and the message it rendered.
        #expect(try fixture.tocsin("stop", id).status == 0)
        _ = try fixture.session.waitForNotificationClosed(id: ringing.id, timeout: .seconds(5))
        let history = try fixture.session.run(try HeadlessSession.executable("dunstctl"), ["history"])
        #expect(history.status == 0, "\(history)")
        if let shown = DunstHistory.entries(history.stdout).first(where: { $0["summary"] == title }) {
            // The message is markup (format "<b>%s</b>\n%b"); its text must hold the title as typed.
            let message = shown["message"] ?? ""
            #expect(MarkupText.plainText(ofMarkup: message)?.contains(title) == true, "dunst shows “\(message)”")
        } else {
            Issue.record("dunst's history has no notification titled \(title): \(history.stdout.prefix(2000))")
        }
    }

    /// The libFuzzer targets of fuzz/ run 100,000 inputs each (TOCSIN_FUZZ_RUNS to change) without
    /// a crash; fuzz/run builds them with swiftc from Sources/ into .build/fuzz/.
    @Test(.timeLimit(.minutes(15))) func libFuzzerTargetsRunWithoutACrash() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let runs = ProcessInfo.processInfo.environment["TOCSIN_FUZZ_RUNS"] ?? "100000"
        let log = root.appendingPathComponent(".build/fuzz/fuzz-test.log")
        try FileManager.default.createDirectory(at: log.deletingLastPathComponent(), withIntermediateDirectories: true)
        try #require(FileManager.default.createFile(atPath: log.path, contents: nil), "could not create \(log.path)")
        let output = try FileHandle(forWritingTo: log)
        defer { try? output.close() }
        let start = Date()
        let process = try SpawnedProcess(root.appendingPathComponent("fuzz/run"), ["--runs", runs], currentDirectory: root,
                                         standardOutput: .fileHandle(output), standardError: .fileHandle(output))
        let status = process.waitUntilExit()
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        print("FuzzTests: fuzz/run --runs \(runs) took \(Int(Date().timeIntervalSince(start))) s:\n"
              + text.split(separator: "\n").filter { $0.contains(" runs in ") }.joined(separator: "\n"))
        #expect(status == 0, "fuzz/run failed (log: \(log.path)):\n\(text.suffix(6000))")
    }

    static let crashSigns = ["Fatal error", "Program crashed", "Backtracing", "Assertion failed", "Precondition failed"]

    static func expectNoCrash(in log: String, seed: UInt64, sourceLocation: SourceLocation = #_sourceLocation) {
        for sign in crashSigns {
            #expect(!log.contains(sign), "seed \(seed): the agent's log says “\(sign)”:\n\(excerpt(of: log))", sourceLocation: sourceLocation)
        }
    }

    /// The part of the agent's log that tells what happened: from just before a crash report
    /// (its message and the frames that name Tocsin's files), else the end.
    static func excerpt(of log: String) -> String {
        guard let crash = crashSigns.compactMap({ log.range(of: $0)?.lowerBound }).min() else { return String(log.suffix(3000)) }
        let report = log[crash...].split(separator: "\n", omittingEmptySubsequences: false)
        let telling = report.prefix(1) + report.dropFirst().filter { $0.contains("crashed") || $0.contains("Fatal") || $0.contains(" at /") }.prefix(14)
        return (log[..<crash].split(separator: "\n").suffix(3) + telling).joined(separator: "\n")
    }
}

extension FuzzTests {
    // MARK: - The client

    /// One GDBus connection to the session bus of a test session, calling the agent synchronously.
    final class BusClient {
        enum Outcome {
            /// The reply, printed as GVariant text.
            case reply(String)
            /// A D-Bus error: its name ("io.github.tocsin.Error.InvalidArgument", or GDBus's own
            /// names for a missing reply) and message.
            case error(name: String, message: String)
        }

        private let connection: OpaquePointer

        init(address: String) throws {
            connection = try PrivateBus.connect(to: address)
        }

        deinit {
            g_dbus_connection_close_sync(connection, nil, nil)
            g_object_unref(UnsafeMutableRawPointer(connection))
        }

        /// Says who this connection is (the agent asks the user about applications by this id).
        func identify(as appID: String) throws {
            if case .error(let name, let message) = call("IdentifyApplication", [g_variant_new_string(appID)], timeout: 10_000) {
                throw IntegrationError("IdentifyApplication failed: \(name): \(message)")
            }
        }

        /// Calls `method` of the agent's interface with `arguments` (floating variants are consumed,
        /// others keep their references).
        func call(_ method: String, _ arguments: [OpaquePointer], timeout: Int32) -> Outcome {
            var error: UnsafeMutablePointer<GError>?
            let reply = g_dbus_connection_call_sync(
                connection, "io.github.tocsin.Agent", "/io/github/tocsin/Agent", "io.github.tocsin.Alarms1", method,
                Variant.tuple(arguments), nil, G_DBUS_CALL_FLAGS_NONE, timeout, nil, &error)
            if let error {
                let failure = GLibError(consuming: error)
                let name = failure.remoteName ?? (failure.isTimeout ? "timeout (no reply)" : "local GDBus error \(failure.code)")
                return .error(name: name, message: failure.message)
            }
            guard let reply else { return .error(name: "no reply", message: "") }
            defer { g_variant_unref(reply) }
            return .reply(VariantText.print(reply))
        }
    }

    enum VariantText {
        /// `variant` as GVariant text, as `gdbus call` reads and prints it.
        static func print(_ variant: OpaquePointer) -> String {
            guard let text = g_variant_print(variant, 1) else { return "?" }
            defer { g_free(text) }
            return String(cString: text)
        }
    }

    // MARK: - The generator

    /// Random calls to the agent, from a seed: mostly `Schedule` with a random `a{sv}`, some with the
    /// wrong signature, some intents on random or real ids.
    struct RequestGenerator {
        static let appID = "io.github.tocsin.fuzz"

        struct Call {
            let method: String
            /// The arguments, references the call owns (`release()` after the call).
            let arguments: [OpaquePointer]
            /// A `gdbus call` that sends the same, to reproduce a failure.
            let replay: String
            /// Error name prefixes that are a correct answer.
            let allowedErrors: [String]

            func release() {
                for argument in arguments { g_variant_unref(argument) }
            }

            /// `method(id)`, answered by success or one of Tocsin's errors.
            static func plain(_ method: String, _ id: String) -> Call {
                Call(method: method, arguments: [g_variant_ref_sink(g_variant_new_string(id))!],
                     replay: "gdbus call --session -d io.github.tocsin.Agent -o /io/github/tocsin/Agent -m io.github.tocsin.Alarms1.\(method) \(id)",
                     allowedErrors: ["io.github.tocsin.Error."])
            }
        }

        private var random: SplitMix
        private let strings: [String]
        private let sounds: [String]

        init(seed: UInt64, extraPaths: [String]) {
            random = SplitMix(seed: seed)
            strings = Self.strings + extraPaths
            sounds = Self.sounds + extraPaths
        }

        mutating func nextCall(knownIDs: [String]) -> Call {
            let dice = random.below(100)
            if dice < 88 {
                return make("Schedule", [request()], allowed: ["io.github.tocsin.Error."])
            } else if dice < 92 {
                // The wrong signature: GDBus refuses it before the agent sees it.
                let wrong: [[OpaquePointer]] = [
                    [], [g_variant_new_string("{'duration': <60.0>}")], [request(), g_variant_new_string("x")],
                    [stringMap()], [g_variant_new_variant(request())],
                ]
                return make("Schedule", wrong[random.below(wrong.count)], allowed: ["org.freedesktop.DBus.Error.InvalidArgs"])
            } else {
                let method = ["Pause", "Resume", "Stop", "Countdown", "Secondary", "Get", "Cancel"][random.below(7)]
                let id = !knownIDs.isEmpty && random.below(2) == 0 ? knownIDs[random.below(knownIDs.count)]
                    : random.below(3) == 0 ? UUID().uuidString : string()
                return make(method, [g_variant_new_string(id)], allowed: ["io.github.tocsin.Error."])
            }
        }

        private func make(_ method: String, _ arguments: [OpaquePointer], allowed: [String]) -> Call {
            // Sink the arguments so printing them for the replay does not consume them.
            let sunk = arguments.map { g_variant_ref_sink($0)! }
            let printed = sunk.map { VariantText.print($0) }.joined(separator: " ")
            let quoted = printed.count > 2000 ? "\(printed.prefix(2000))… (\(printed.count) characters)"
                : "\"" + printed.replacing(/["\\$`]/) { "\\" + $0.output } + "\""
            let replay = "gdbus call --session -d io.github.tocsin.Agent -o /io/github/tocsin/Agent -m io.github.tocsin.Alarms1.\(method) \(quoted)"
            return Call(method: method, arguments: sunk, replay: replay, allowedErrors: allowed)
        }

        /// A random `a{sv}`. Most start from a valid request (a timer, an alarm at a time of day or
        /// at an instant) with a few keys changed, added, repeated or removed, so that absurd
        /// values reach the checks after the first refusal; the rest are random throughout.
        mutating func request() -> OpaquePointer {
            let keys = AlarmWireFormat.RequestKey.allCases.map(\.rawValue)
            var entries: [(key: String, value: OpaquePointer)] = []
            if random.below(10) < 7 {
                switch random.below(3) {
                case 0: entries = [("duration", g_variant_new_double(Double(random.below(3) == 0 ? 1 + random.below(4) : 1 + random.below(7200))))]
                case 1: entries = [("kind", g_variant_new_string("alarm")), ("time", g_variant_new_string(Self.times[random.below(Self.times.count)]))]
                default: entries = [("kind", g_variant_new_string("alarm")), ("at", g_variant_new_double(Date().timeIntervalSince1970 + Double(60 + random.below(1_000_000))))]
                }
                for _ in 0..<random.below(4) {
                    let key = random.below(12) == 0 ? string() : keys[random.below(keys.count)]
                    let value = random.below(3) < 2 ? typedValue(for: key) : value(for: key, depth: 0)
                    if let index = entries.firstIndex(where: { $0.key == key }), random.below(8) != 0 {
                        g_variant_unref(g_variant_ref_sink(entries[index].value))
                        entries[index].value = value
                    } else {
                        entries.append((key, value))
                    }
                }
                if random.below(8) == 0, !entries.isEmpty {
                    g_variant_unref(g_variant_ref_sink(entries.remove(at: random.below(entries.count)).value))
                }
            } else {
                for _ in 0..<random.below(9) {
                    let key = random.below(10) == 0 ? string() : keys[random.below(keys.count)]
                    entries.append((key, value(for: key, depth: 0)))
                }
            }
            let items: [OpaquePointer?] = entries.map { g_variant_new_dict_entry(g_variant_new_string($0.key), g_variant_new_variant($0.value)) }
            return items.withUnsafeBufferPointer { g_variant_new_array(Variant.type("{sv}"), $0.baseAddress, gsize($0.count)) }
        }

        /// A value of the type `key` expects, from the edges of what it accepts and beyond.
        private mutating func typedValue(for key: String) -> OpaquePointer {
            switch key {
            case "kind": return g_variant_new_string(["timer", "alarm", "Alarm", "", string()][random.below(5)])
            case "time": return g_variant_new_string(random.below(3) == 0 ? string() : Self.times[random.below(Self.times.count)])
            case "date": return g_variant_new_string(random.below(3) == 0 ? string() : Self.dates[random.below(Self.dates.count)])
            case "weekdays": return g_variant_new_string(random.below(3) == 0 ? string() : Self.repeats[random.below(Self.repeats.count)])
            case "sound": return g_variant_new_string(random.below(3) == 0 ? string() : sounds[random.below(sounds.count)])
            case "hooks": return stringMap()
            case "raise-output": return g_variant_new_boolean(random.below(2) == 0 ? 0 : 1)
            case "ring-level":
                // Mostly a level, now and then one just outside 1–100.
                return random.below(4) == 0 ? g_variant_new_int64(([0, -1, 101, .max, .min] as [gint64])[random.below(5)])
                    : g_variant_new_int32(Int32(1 + random.below(100)))
            case "at": return g_variant_new_double(random.below(2) == 0 ? double() : Date().timeIntervalSince1970 + double())
            case "duration", "snooze", "ring-limit", "late-limit", "pre-alert", "crescendo", "volume":
                switch random.below(5) {
                case 0, 1: return g_variant_new_double(key == "volume" ? Double(1 + random.below(100)) / 100 : Double(1 + random.below(key == "crescendo" ? 600 : 86_400)))
                case 2: return g_variant_new_int32(Int32(truncatingIfNeeded: random.next() % 100_000))
                default: return g_variant_new_double(double())
                }
            default: return g_variant_new_string(string())
            }
        }

        /// A value of a random D-Bus type, more often the type the key expects.
        private mutating func value(for key: String, depth: Int) -> OpaquePointer {
            let expectsString = ["kind", "title", "button-label", "sound", "time", "weekdays", "date", "metadata"].contains(key)
            switch random.below(20) {
            case 0..<6: return expectsString ? g_variant_new_string(string()) : g_variant_new_double(double())
            case 6..<8: return g_variant_new_string(string())
            case 8..<10: return g_variant_new_double(double())
            case 10: return g_variant_new_int64(gint64(Int64(bitPattern: random.next())))
            case 11:
                switch random.below(7) {
                case 0: return g_variant_new_byte(UInt8(truncatingIfNeeded: random.next()))
                case 1: return g_variant_new_int16(Int16(truncatingIfNeeded: random.next()))
                case 2: return g_variant_new_uint16(UInt16(truncatingIfNeeded: random.next()))
                case 3: return g_variant_new_int32(Int32(truncatingIfNeeded: random.next()))
                case 4: return g_variant_new_uint32(UInt32(truncatingIfNeeded: random.next()))
                case 5: return g_variant_new_uint64(([0, 1, 60, UInt(Int.max), UInt(Int.max) + 1, .max] as [guint64])[random.below(6)])
                default: return g_variant_new_int64(([0, -1, 1, 60, 86_400, .max, .min] as [gint64])[random.below(7)])
                }
            case 12: return g_variant_new_boolean(random.below(2) == 0 ? 0 : 1)
            case 13: return stringMap()
            case 14 where depth < 3: return g_variant_new_variant(value(for: key, depth: depth + 1))
            case 15 where depth < 3:
                let entries: [OpaquePointer?] = (0..<random.below(4)).map { _ in
                    g_variant_new_dict_entry(g_variant_new_string(string()), g_variant_new_variant(value(for: key, depth: depth + 1)))
                }
                return entries.withUnsafeBufferPointer { g_variant_new_array(Variant.type("{sv}"), $0.baseAddress, gsize($0.count)) }
            case 16:
                let items: [OpaquePointer?] = (0..<random.below(4)).map { _ in g_variant_new_string(string()) }
                return items.withUnsafeBufferPointer { g_variant_new_array(Variant.type("s"), $0.baseAddress, gsize($0.count)) }
            case 17:
                let bytes: [OpaquePointer?] = (0..<random.below(8)).map { _ in g_variant_new_byte(UInt8(truncatingIfNeeded: random.next())) }
                return bytes.withUnsafeBufferPointer { g_variant_new_array(Variant.type("y"), $0.baseAddress, gsize($0.count)) }
            case 18:
                return Variant.tuple([g_variant_new_string(string()), g_variant_new_double(double())])
            default:
                return random.below(2) == 0 ? g_variant_new_object_path("/io/github/tocsin/x") : g_variant_new_signature("a{sv}")
            }
        }

        /// An `a{ss}` as the hooks are sent. The commands run (/bin/sh -c) if the request is
        /// accepted, so they are harmless ones; event names are random too.
        private mutating func stringMap() -> OpaquePointer {
            let events = ["fire", "stop", "snooze", "secondary", "cancel", "missed"]
            let commands = ["true", ":", "exit 0", "", "   ", "\t\n", String(repeating: ":", count: 5000), "true # <b>&amp;</b>"]
            let entries: [OpaquePointer?] = (0..<random.below(5)).map { _ in
                let event = random.below(4) == 0 ? string() : events[random.below(events.count)]
                return g_variant_new_dict_entry(g_variant_new_string(event), g_variant_new_string(commands[random.below(commands.count)]))
            }
            return entries.withUnsafeBufferPointer { g_variant_new_array(Variant.type("{ss}"), $0.baseAddress, gsize($0.count)) }
        }

        private mutating func double() -> Double {
            switch random.below(4) {
            case 0: return Double(bitPattern: random.next())
            case 1: return Date().timeIntervalSince1970 + Self.doubles[random.below(Self.doubles.count)]
            default: return Self.doubles[random.below(Self.doubles.count)]
            }
        }

        private mutating func string() -> String {
            switch random.below(10) {
            case 0..<6: return strings[random.below(strings.count)]
            case 6: return strings[random.below(strings.count)] + strings[random.below(strings.count)]
            case 7:
                let units = ["a", "é", " ", "\u{1b}", "<b>", "&", "👩‍👩‍👧‍👦", "e\u{301}", "\u{200b}", "9", ":", "\n"]
                let lengths = [39, 40, 41, 199, 200, 201, 4096, 4097, 100_000, 1_000_000]
                return String(repeating: units[random.below(units.count)], count: lengths[random.below(lengths.count)])
            default:
                // Random scalars, control characters and surrogate-free planes included.
                let scalars = (0..<random.below(24)).compactMap { _ in
                    Unicode.Scalar(UInt32(random.below(4) == 0 ? random.below(0x110000) : random.below(0x250)))
                }
                return String(String.UnicodeScalarView(scalars.filter { $0 != "\0" }))
            }
        }

        static let doubles: [Double] = [
            0, -0.0, 1, -1, 0.5, 1e-300, .leastNonzeroMagnitude, 1, 2, 5, 59, 60, 90, 600, 3600, 86_400, 86_400.5, 31_622_400,
            31_622_401, 1e9, 3e13, 1e15, 9.223372036854775e18, 9.3e18, 1e300, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
            .infinity, -.infinity, .nan, -600, -1e300,
        ]

        static let times = ["7:00", "07:00", "23:59", "0:00", "12am", "12pm", "7:15pm", "noon", "midnight", "24:00", "7", "13pm", "7:60"]
        static let dates = ["2099-12-31", "2030-02-28", "2028-02-29", "2026-02-30", "1970-01-01", "0000-01-01", "9999-12-31", "2099-1-1"]
        static let repeats = ["daily", "weekdays", "weekends", "once", "mon-fri", "sat-mon", "mon,wed,fri", "mon,mon", "sunday", "funday"]
        static let sounds = [
            "default", "bell", "alarm-clock-elapsed", "no-such-sound", "/usr/share/sounds/freedesktop/stereo/bell.oga",
            "/usr/share/sounds/freedesktop/stereo/alarm-clock-elapsed.oga", "/nonexistent.wav", "relative.wav/", "/dev/zero", "/",
            "/etc/shadow", "/proc/self/mem", "/tmp", "bell.oga", "../bell",
        ]

        static let strings: [String] = [
            "", " ", "timer", "alarm", "Timer", "90", "1h30m", "1:30", "7:00", "07:00", "23:59", "24:00", "7:15pm", "12am", "noon",
            "2026-12-01", "2099-12-31", "2026-02-30", "0000-01-01", "9999-12-31", "daily", "weekdays", "mon-fri", "sat-mon", "mon,mon",
            "default", "bell", "alarm-clock-elapsed", "no-such-sound", "/usr/share/sounds/freedesktop/stereo/bell.oga",
            "/usr/share/sounds/freedesktop/stereo/alarm-clock-elapsed.oga", "/nonexistent.wav", "relative.wav/", "/dev/zero", "/",
            "/etc/shadow", "Pasta", "<b>bold</b> & <i>x</i>", "&amp;", "&", "<", "]]>", "<span foreground='red'>x</span>",
            "\u{1b}[31mred\u{1b}[0m", "\u{7}", "\r\n", "\u{7f}", "\u{85}", "\u{2028}", "\u{202e}evil", "\u{200b}", "\u{feff}",
            "e\u{301}", "👩‍👩‍👧‍👦", "آزمایش\u{200c}ی", "null", "{}", "[1,", "\"x\"", "{\"a\":[1,{\"b\":null}]}", "1e999",
            String(repeating: "[", count: 2000) + String(repeating: "]", count: 2000),
            "fire", "stop", "snooze", "secondary", "cancel", "missed", "Duration", "button_label", "id", "state",
            "3f2b8c1e-0d4a-4c1e-9a57-8f1e2d3c4b5a", "3F2B8C1E-0D4A-4C1E-9A57-8F1E2D3C4B5A", "3f2b",
        ]
    }


    // MARK: - Markup

    enum MarkupText {
        /// The text a markup parser shows for `markup` (Pango markup is GMarkup with a few elements):
        /// `nil` when it is not well-formed. "&lt;b&gt;" shows as "<b>"; elements add no text.
        static func plainText(ofMarkup markup: String) -> String? {
            final class Collected { var text = "" }
            let collected = Collected()
            var parser = GMarkupParser()
            parser.text = { _, characters, length, userData, _ in
                let piece = String(decoding: UnsafeRawBufferPointer(start: characters, count: Int(length)), as: UTF8.self)
                Unmanaged<Collected>.fromOpaque(userData!).takeUnretainedValue().text += piece
            }
            let context = g_markup_parse_context_new(&parser, GMarkupParseFlags(rawValue: 0), Unmanaged.passUnretained(collected).toOpaque(), nil)
            defer { g_markup_parse_context_free(context) }
            var error: UnsafeMutablePointer<GError>?
            let document = "<markup>\(markup)</markup>"
            let parsed = g_markup_parse_context_parse(context, document, -1, &error) != 0 && g_markup_parse_context_end_parse(context, &error) != 0
            if let error { g_error_free(error) }
            return parsed ? collected.text : nil
        }
    }

    enum DunstHistory {
        /// The notifications in `dunstctl history` output, each as its string fields.
        static func entries(_ json: String) -> [[String: String]] {
            // {"type": "aa{sv}", "data": [[{"summary": {"type": "s", "data": "…"}, …}, …]]}
            guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
                  let data = object["data"] as? [[[String: Any]]] else { return [] }
            return data.flatMap { $0 }.map { entry in
                entry.compactMapValues { ($0 as? [String: Any])?["data"] as? String }
            }
        }
    }
}
