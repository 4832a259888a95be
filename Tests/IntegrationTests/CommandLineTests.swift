import Foundation
import HeadlessSession
import Testing

/// The CLI's own surface: help for every command, and `watch` following changes as they happen.
@Suite(.serialized) struct CommandLineTests {
    @Test func everyCommandHasHelp() throws {
        let fixture = try AgentSession("help")
        let overview = try fixture.tocsin("--help")
        #expect(overview.status == 0)
        for command in ["timer", "list", "show", "watch", "pause", "resume", "cancel", "stop", "snooze", "config"] {
            #expect(overview.stdout.contains("  \(command) "), "tocsin --help does not list \(command)")
            let help = try fixture.tocsin(command, "--help")
            #expect(help.status == 0, "\(command) --help: \(help)")
            #expect(help.stdout.hasPrefix("Usage: tocsin \(command)"), "\(command) --help: \(help.stdout)")
        }
        let agentHelp = try fixture.session.run(try AgentSession.binary("tocsind"), ["--help"])
        #expect(agentHelp.status == 0 && agentHelp.stdout.hasPrefix("Usage: tocsind"))
    }

    /// Alarms offer Snooze unless told otherwise, for as long as `tocsin config` says; timers
    /// offer Stop alone; a settings file that cannot be read costs no alarm and is not written over.
    @Test func alarmsOfferSnoozeByDefaultAndTocsinConfigSetsHowLong() throws {
        let fixture = try AgentSession("default-snooze")
        func snooze(_ id: String) throws -> Double? { try fixture.alarm(id)?.number("snooze") }
        let wakeUp = try fixture.setAlarm("07:00", "--title", "Wake up")
        #expect(try snooze(wakeUp) == 540, "an alarm offers a 9-minute Snooze")
        #expect(try snooze(try fixture.setAlarm("07:05", "--no-snooze")) == nil)
        #expect(try snooze(try fixture.setAlarm("07:10", "--snooze", "2m")) == 120)
        #expect(try snooze(try fixture.setAlarm("07:15", "--button", "Next", "--on-button", "true")) == nil, "a button of its own takes Snooze's place")
        #expect(try snooze(try fixture.startTimer("5m")) == nil, "a timer offers Stop alone")
        let both = try fixture.tocsin("alarm", "07:20", "--snooze", "1m", "--no-snooze")
        #expect(both.status == 2 && both.stderr.contains("--snooze and --no-snooze say opposite things"), "\(both)")

        #expect(try fixture.tocsin("config").stdout == "alarm-snooze 9 min\nraise-output yes\nring-level 70 %\nlock-screen-titles show\n")
        let set = try fixture.tocsin("config", "alarm-snooze", "5m")
        #expect(set.status == 0 && set.stdout == "alarm-snooze 5 min\n", "\(set)")
        #expect(try snooze(try fixture.setAlarm("07:25")) == 300)
        #expect(try fixture.tocsin("config", "alarm-snooze", "off").status == 0)
        #expect(try snooze(try fixture.setAlarm("07:30")) == nil)
        let wrong = try fixture.tocsin("config", "alarm-snooze", "soon")
        #expect(wrong.status == 2 && wrong.stderr.contains("alarm-snooze:"), "\(wrong)")
        #expect(try fixture.tocsin("config", "snooze-length").status == 2)
        #expect(try fixture.tocsin("config", "alarm-snooze", "default").stdout == "alarm-snooze 9 min\n")

        let file = fixture.session.directory.appendingPathComponent("config/tocsin/config.json")
        try Data("{\"alarm-snooze-seconds\": ".utf8).write(to: file)
        let note = try fixture.tocsin("alarm", "07:35")
        #expect(note.status == 0 && note.stderr.contains("config.json could not be read"), "\(note)")
        #expect(try snooze(note.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == 540, "the alarm is set, with the default")
        let refused = try fixture.tocsin("config", "alarm-snooze", "5m")
        #expect(refused.status == 1 && refused.stderr.contains("fix or remove it first"), "\(refused)")
        #expect(try String(contentsOf: file, encoding: .utf8) == "{\"alarm-snooze-seconds\": ", "the unreadable file is left as it was")
    }

    /// What a keyboard shortcut or a panel button runs: `tocsin pause`, `resume` and `cancel`
    /// without an id act on the one timer on screen that can take them; a waiting alarm is never
    /// their target, and several candidates are listed instead of guessed between.
    @Test func pauseResumeAndCancelWithoutAnIDActOnTheOneOnScreen() throws {
        let fixture = try AgentSession("no-id")
        let wakeUp = try fixture.setAlarm("07:00", "--title", "Wake up")
        let pasta = try fixture.startTimer("10m", "--title", "Pasta")
        let paused = try fixture.tocsin("pause")
        #expect(paused.status == 0, "\(paused)")
        #expect(paused.stderr.contains("Paused “Pasta” (\(pasta.prefix(8)))."), "\(paused.stderr)")
        #expect(try fixture.alarm(pasta)?.string("state") == "paused")
        let nothing = try fixture.tocsin("pause")
        #expect(nothing.status == 1 && nothing.stderr.contains("Nothing is counting down, so there is nothing to pause"), "\(nothing)")
        #expect(try fixture.tocsin("resume").status == 0)
        #expect(try fixture.alarm(pasta)?.string("state") == "countdown")

        let tea = try fixture.startTimer("3m", "--title", "Tea")
        let ambiguous = try fixture.tocsin("pause")
        #expect(ambiguous.status == 2, "\(ambiguous)")
        #expect(ambiguous.stderr.contains("2 alarms could be paused; give one's ID"), "\(ambiguous.stderr)")
        #expect(ambiguous.stderr.contains("  \(pasta.prefix(8))  “Pasta”, ") && ambiguous.stderr.contains("  \(tea.prefix(8))  “Tea”, "), "\(ambiguous.stderr)")
        #expect(try fixture.alarms().compactMap { $0.string("state") }.sorted() == ["countdown", "countdown", "scheduled"], "nothing was paused")

        #expect(try fixture.tocsin("cancel", tea).status == 0)
        #expect(try fixture.tocsin("cancel").status == 0)
        let left = try fixture.alarms()
        #expect(left.map { $0.string("id") } == [wakeUp], "the waiting alarm is no target of cancel without an id: \(left)")
        let noTimer = try fixture.tocsin("cancel")
        #expect(noTimer.status == 1 && noTimer.stderr.contains("Nothing is counting down, paused or ringing"), "\(noTimer)")
    }

    /// `tocsin watch --format waybar`, as waybar's custom module runs it: an idle line, the
    /// countdown once a second — the same seconds, in the same order, as the live notification —
    /// the ring, and idle again after Stop.
    @Test func watchAsAWaybarModuleShowsTheCountdownTheNotificationShows() throws {
        let fixture = try AgentSession("watch-waybar")
        let watch = try fixture.startWatching("watch", "--format", "waybar")
        let id = try fixture.startTimer("4s", "--title", "Pasta")
        _ = try fixture.waitForNotification(titled: "Pasta") { $0.urgency == 2 }
        #expect(fixture.eventually(timeout: 3) { watch.standardOutput().contains(#""class":"ringing""#) }, "\(watch.standardOutput())")
        #expect(try fixture.tocsin("stop", id).status == 0)
        #expect(fixture.eventually(timeout: 3) { watch.standardOutput().split(separator: "\n").last?.contains(#""class":"idle""#) == true })
        watch.terminate()

        let lines = try watch.standardOutput().split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
        }
        // Each line with its progress: a line changes when either does.
        let shown = lines.map { "\($0["class"] ?? "?") \($0["text"] ?? "?") \($0["percentage"] ?? "?")%" }
        let texts = lines.map { "\($0["class"] ?? "?") \($0["text"] ?? "?")" }.reduce(into: [String]()) { if $0.last != $1 { $0.append($1) } }
        #expect(texts == ["idle ", "countdown Pasta 0:04", "countdown Pasta 0:03", "countdown Pasta 0:02", "countdown Pasta 0:01", "ringing Pasta ringing", "idle "], "\(shown)")
        #expect(lines.allSatisfy { Set($0.keys) == ["text", "tooltip", "class", "alt", "percentage"] })
        #expect(lines[1]["tooltip"] as? String == "Pasta: 0:04 left")
        // What the live notification showed in the same seconds: the same time left and progress.
        let notified = fixture.notifications(titled: "Pasta").filter { $0.urgency != 2 }.compactMap { notification in
            notification.body.firstMatch(of: /^(\d+:\d\d) remaining/).map { "countdown Pasta \($0.1) \(notification.value ?? -1)%" }
        }
        let ticks = shown.filter { $0.hasPrefix("countdown ") }
        #expect(Array(ticks.dropFirst()) == Array(notified.dropFirst()), "the bar: \(ticks)\nthe notification: \(notified)")
    }

    @Test func watchPrintsEachChangeAsItHappens() throws {
        let fixture = try AgentSession("watch")
        let watch = try fixture.startWatching("watch")
        let id = try fixture.startTimer("1s", "--title", "Watched")
        _ = try fixture.waitForNotification(titled: "Watched") { $0.urgency == 2 }
        #expect(try fixture.tocsin("stop", id).status == 0)
        #expect(fixture.eventually(timeout: 3) { watch.standardOutput().contains("stopped") })
        watch.terminate()
        // Each line: time of day, the event, the short id, the title, the state in brackets.
        let events = watch.standardOutput().split(separator: "\n").map { line in
            ["scheduled", "fired", "stopped"].first { line.contains("  \($0) ") } ?? String(line)
        }
        #expect(events == ["scheduled", "fired", "stopped"], "\(watch.standardOutput())")
        #expect(watch.standardOutput().contains(String(id.prefix(8))))
    }

    @Test func watchSaysWhenTheAgentGoesAndComesBack() throws {
        let fixture = try AgentSession("watch-restart")
        let watch = try fixture.startWatching("watch", "--json")
        fixture.agent.terminate()
        try fixture.restartAgent()
        _ = try fixture.startTimer("1m", "--title", "After restart")
        #expect(fixture.eventually(timeout: 3) { watch.standardOutput().contains("\"event\":\"scheduled\"") }, "\(watch.standardOutput())")
        watch.terminate()
        let events = watch.standardOutput().split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["event"] as? String
        }
        #expect(events == ["agent-stopped", "agent-started", "scheduled"], "\(watch.standardOutput())")
    }
}
