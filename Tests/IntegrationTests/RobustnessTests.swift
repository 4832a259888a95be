import Foundation
import HeadlessSession
import Testing

/// Crashes, full and read-only disks, many clients at once, and hooks that misbehave lose
/// nothing and stop nothing.
@Suite(.serialized) struct RobustnessTests {
    @Test func twoHundredOperationsWithKillNineAtRandomMomentsLoseNothing() throws {
        let seed = UInt64(Date().timeIntervalSince1970)
        var random = SplitMix(seed: seed)
        let fixture = try AgentSession("crashes")
        let tocsin = try AgentSession.binary("tocsin")
        /// What must exist: id → expected state name ("countdown" or "paused").
        var expected: [String: String] = [:]
        /// Ids whose last change raced a kill: either outcome is allowed, but never a duplicate.
        var uncertain: Set<String> = []
        var cancelled: Set<String> = []
        var kills = 0

        for operation in 0..<200 {
            let racing = random.next() % 12 == 0
            let choice = random.next() % 10
            let existing = expected.keys.sorted()
            var arguments: [String]
            var target: String?
            switch choice {
            case _ where existing.isEmpty, 0...3:
                arguments = ["timer", "\(600 + random.next() % 3000)s", "--title", "Op \(operation)"]
            case 4...5:
                target = existing[Int(random.next() % UInt64(existing.count))]
                arguments = ["cancel", target!]
            case 6...7:
                target = existing.first { expected[$0] == "countdown" } ?? existing[0]
                arguments = [expected[target!] == "countdown" ? "pause" : "resume", target!]
            default:
                target = existing.first { expected[$0] == "paused" } ?? existing[0]
                arguments = [expected[target!] == "paused" ? "resume" : "pause", target!]
            }
            if racing {
                // Kill the agent while the call may be in flight.
                let call = try fixture.session.launch(tocsin, arguments)
                Thread.sleep(forTimeInterval: Double(random.next() % 20) / 1000)
                fixture.agent.kill(signal: SIGKILL)
                _ = fixture.agent.waitForExit(timeout: .seconds(5))
                _ = call.waitForExit(timeout: .seconds(30))
                kills += 1
                try fixture.restartAgent()
                if let target { uncertain.insert(target) }
                if arguments[0] == "timer", call.terminationStatus == 0 {
                    let id = call.standardOutput().trimmingCharacters(in: .whitespacesAndNewlines)
                    expected[id] = "countdown"
                } else if arguments[0] == "timer" {
                    uncertain.insert("new timer of operation \(operation)")
                }
                if call.terminationStatus == 0, let target {
                    apply(arguments[0], to: target, expected: &expected, cancelled: &cancelled)
                }
                // Learn the truth for the target from the agent itself.
                if let target, !cancelled.contains(target) {
                    let state = try fixture.alarm(target)?.string("state")
                    if let state { expected[target] = state } else { expected[target] = nil; cancelled.insert(target) }
                }
                continue
            }
            let result = try fixture.session.run(tocsin, arguments)
            try #require(result.status == 0, "seed \(seed), operation \(operation) \(arguments): \(result)")
            if arguments[0] == "timer" {
                expected[result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)] = "countdown"
            } else if let target {
                apply(arguments[0], to: target, expected: &expected, cancelled: &cancelled)
            }
            if random.next() % 15 == 0 {
                fixture.agent.kill(signal: SIGKILL)
                _ = fixture.agent.waitForExit(timeout: .seconds(5))
                kills += 1
                try fixture.restartAgent()
            }
        }
        fixture.agent.kill(signal: SIGKILL)
        _ = fixture.agent.waitForExit(timeout: .seconds(5))
        try fixture.restartAgent()

        let final = try fixture.alarms()
        let ids = final.compactMap { $0.string("id") }
        #expect(Set(ids).count == ids.count, "seed \(seed): duplicated alarms")
        for (id, state) in expected {
            #expect(final.first { $0.string("id") == id }?.string("state") == state, "seed \(seed): \(id) should be \(state)")
        }
        #expect(cancelled.isDisjoint(with: ids), "seed \(seed): cancelled alarms came back: \(cancelled.intersection(ids))")
        // Alarms the test does not know of can only come from timers whose creation raced a kill.
        let unknown = Set(ids).subtracting(expected.keys)
        #expect(unknown.count <= uncertain.filter { $0.hasPrefix("new timer") }.count, "seed \(seed): unexpected alarms \(unknown)")
        #expect(kills >= 10, "seed \(seed): only \(kills) kills")
    }

    private func apply(_ command: String, to id: String, expected: inout [String: String], cancelled: inout Set<String>) {
        switch command {
        case "cancel":
            expected[id] = nil
            cancelled.insert(id)
        case "pause": expected[id] = "paused"
        case "resume": expected[id] = "countdown"
        default: break
        }
    }

    /// Runs `mount` (root) and requires it to work.
    private static func mount(_ arguments: [String]) throws {
        let errors = Pipe()
        let mount = try SpawnedProcess(URL(fileURLWithPath: "/bin/mount"), arguments, standardError: .pipe(errors))
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try #require(mount.waitUntilExit() == 0, "mount \(arguments.joined(separator: " ")) failed (this test needs root): \(message)")
    }

    private static func unmount(_ path: String) {
        (try? SpawnedProcess(URL(fileURLWithPath: "/bin/umount"), ["-l", path]))?.waitUntilExit()
    }

    @Test func aFullDiskAndAReadOnlyDiskRefuseChangesAndKeepTheLastGoodState() throws {
        let fixture = try AgentSession("disk")
        fixture.agent.terminate()
        _ = fixture.agent.waitForExit(timeout: .seconds(5))
        let state = fixture.stateDirectory
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try Self.mount(["-t", "tmpfs", "-o", "size=256k,mode=0700", "tocsin-test", state.path])
        defer { Self.unmount(state.path) }
        try fixture.restartAgent()
        let kept = try fixture.startTimer("1h", "--title", "Kept")
        // The state is the snapshot plus the journal of changes since; neither may be touched.
        let stateFiles = ["alarms.json", "alarms.journal"].map { state.appendingPathComponent($0) }
        func stateBytes() -> [Data?] { stateFiles.map { FileManager.default.contents(atPath: $0.path) } }
        #expect(stateBytes().contains { $0 != nil }, "nothing was saved")

        // Fill the disk. A change is a line appended to the journal, which may still fit in the
        // journal's last block: schedule until the disk really has no room for the next one.
        let filler = state.appendingPathComponent("filler")
        let dd = try fixture.session.run(URL(fileURLWithPath: "/bin/dd"), ["if=/dev/zero", "of=\(filler.path)", "bs=4k"])
        #expect(dd.stderr.contains("No space left on device"), "\(dd.stderr)")
        var savedBeforeFull: [String] = []
        var full = try fixture.tocsin("timer", "2h", "--title", "Lost")
        while full.status == 0 && savedBeforeFull.count < 100 {
            savedBeforeFull.append(full.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            full = try fixture.tocsin("timer", "2h", "--title", "Lost")
        }
        let good = stateBytes()
        #expect(full.status == 1, "the disk never refused a change")
        #expect(full.stderr.contains("Could not save the alarms to \(state.path)/"), "\(full.stderr)")
        #expect(full.stderr.contains("No space left on device"), "\(full.stderr)")
        #expect(full.stderr.contains("Nothing was changed."))
        let again = try fixture.tocsin("timer", "2h", "--title", "Lost")
        #expect(again.status == 1)
        #expect(stateBytes() == good, "a refused change touched the saved state")
        #expect(try fixture.alarms().compactMap { $0.string("id") } == [kept] + savedBeforeFull, "a refused change took effect anyway")
        #expect(fixture.agent.isRunning)

        // Room again: changes work.
        try FileManager.default.removeItem(at: filler)
        let afterFreeing = try fixture.tocsin("timer", "3h", "--title", "Saved")
        #expect(afterFreeing.status == 0, "\(afterFreeing)")
        let goodAgain = stateBytes()

        // Read-only: refused, last state intact and loadable after a restart.
        try Self.mount(["-o", "remount,ro", state.path])
        let readOnly = try fixture.tocsin("cancel", kept)
        #expect(readOnly.status == 1)
        #expect(readOnly.stderr.contains("Read-only file system"), "\(readOnly.stderr)")
        #expect(stateBytes() == goodAgain)
        fixture.agent.kill(signal: SIGKILL)
        _ = fixture.agent.waitForExit(timeout: .seconds(5))
        try fixture.restartAgent()
        #expect(try fixture.alarms().compactMap { $0.string("title") }.sorted() == (["Kept", "Saved"] + savedBeforeFull.map { _ in "Lost" }).sorted())
    }

    @Test func twentyClientsAtOnceAreAllAnsweredAndTheFinalStateAddsUp() throws {
        let fixture = try AgentSession("load")
        let clients = 20
        let seconds = Double(ProcessInfo.processInfo.environment["TOCSIN_LOAD_SECONDS"] ?? "") ?? 30
        // Each client is a shell loop of real `tocsin` calls: schedule, list, cancel every other
        // one; it writes the ids it kept and counts failed calls.
        let script = """
            end=$(( $(date +%s) + $2 ))
            n=0; failures=0
            while [ "$(date +%s)" -lt "$end" ]; do
              id=$("$1" timer "$(( 600 + n ))s" --title "client $3 #$n" 2>>"$4.err") || { failures=$((failures+1)); continue; }
              "$1" list >/dev/null 2>>"$4.err" || failures=$((failures+1))
              if [ $((n % 2)) -eq 0 ]; then
                "$1" cancel "$id" 2>>"$4.err" || { failures=$((failures+1)); echo "$id" >> "$4"; }
              else
                echo "$id" >> "$4"
              fi
              n=$((n+1))
            done
            echo "$n $failures" > "$4.count"
            """
        let tocsin = try AgentSession.binary("tocsin")
        let outputs = (0..<clients).map { fixture.session.directory.appendingPathComponent("client-\($0)") }
        let processes = try (0..<clients).map { index in
            try fixture.session.launch(URL(fileURLWithPath: "/bin/sh"), ["-c", script, "sh", tocsin.path, "\(Int(seconds))", "\(index)", outputs[index].path])
        }
        for process in processes { _ = process.waitForExit(timeout: .seconds(seconds + 120)) }
        var kept: Set<String> = []
        var operations = 0
        for output in outputs {
            let counts = (try? String(contentsOf: output.appendingPathExtension("count"), encoding: .utf8))?.split(separator: " ") ?? []
            try #require(counts.count == 2, "a client did not finish: \(output.lastPathComponent)")
            operations += Int(counts[0]) ?? 0
            #expect(counts[1].trimmingCharacters(in: .whitespacesAndNewlines) == "0",
                    "\(output.lastPathComponent) had failed calls: \((try? String(contentsOf: output.appendingPathExtension("err"), encoding: .utf8)) ?? "")")
            kept.formUnion(((try? String(contentsOf: output, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init))
        }
        // Correctness is the point, not throughput: every client must have got through rounds.
        #expect(operations >= clients * 2, "only \(operations) rounds in \(seconds) s")
        let final = Set(try fixture.alarms().compactMap { $0.string("id") })
        #expect(final == kept, "the agent holds \(final.count) alarms, the clients kept \(kept.count)")
        #expect(fixture.agent.isRunning)
    }

    @Test func aHookFloodingItsOutputDoesNotGrowTheAgent() throws {
        let fixture = try AgentSession("hook-flood")
        let before = try Self.residentKilobytes(of: fixture.agent.pid)
        let id = try fixture.startTimer("1s", "--title", "Chatty", "--on-fire", "head -c 200000000 /dev/zero | tr '\\\\0' x")
        _ = try fixture.waitForNotification(titled: "Chatty") { $0.urgency == 2 }
        #expect(fixture.eventually(timeout: 30) { fixture.agentLog.contains("fire hook of “Chatty” finished") }, "\(fixture.agentLog.suffix(500))")
        let after = try Self.residentKilobytes(of: fixture.agent.pid)
        #expect(after - before < 20_000, "the agent grew by \(after - before) kB reading 200 MB of hook output")
        #expect(fixture.agentLog.contains("(further output not logged)"))
        #expect(fixture.agentLog.utf8.count < 100_000, "the log got \(fixture.agentLog.utf8.count) bytes")
        #expect(try fixture.tocsin("stop", id).status == 0)
    }

    /// GLib 2.74 keeps the slices of every freed GVariant for good; the agent routes them through
    /// malloc and trims after large replies, so listing many alarms leaves no memory behind.
    @Test func listingFiveThousandAlarmsLeavesNoMemoryBehind() throws {
        let fixture = try AgentSession("big-list")
        for index in 0..<5 { _ = try fixture.setAlarm("2030-01-0\(index + 1)T07:00:00Z", "--title", "seed \(index)") }
        let empty = try Self.residentKilobytes(of: fixture.agent.pid)
        fixture.agent.terminate()
        // Clone the agent-written entries (terminating folds the journal into alarms.json).
        let stateFile = fixture.stateDirectory.appendingPathComponent("alarms.json")
        var state = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: stateFile)) as? [String: Any])
        let seeds = try #require(state["alarms"] as? [[String: Any]])
        try #require(seeds.count == 5)
        state["alarms"] = (0..<5_000).map { index -> [String: Any] in
            var alarm = seeds[index % seeds.count]
            alarm["id"] = UUID().uuidString
            alarm["title"] = "far \(index)"
            return alarm
        }
        try JSONSerialization.data(withJSONObject: state).write(to: stateFile)
        try fixture.restartAgent()
        for _ in 0..<3 { #expect(try fixture.tocsin("list").status == 0) }
        Thread.sleep(forTimeInterval: 2)
        let held = try Self.residentKilobytes(of: fixture.agent.pid) - empty
        // 5,000 alarms need about 3 MB; GLib's slice magazines alone kept 31 MB more after a
        // List of them, and a heap that is never trimmed keeps the reply's peak.
        #expect(held < 12_000, "the agent held \(held) kB more with 5,000 alarms listed than with 5 alarms")
        #expect(try fixture.alarms().count == 5_000)
    }

    private static func residentKilobytes(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
    }
}
