import Foundation
import HeadlessSession
import Testing

/// The CLI's own surface: help for every command, and `watch` following changes as they happen.
@Suite(.serialized) struct CommandLineTests {
    @Test func everyCommandHasHelp() throws {
        let fixture = try AgentSession("help")
        let overview = try fixture.tocsin("--help")
        #expect(overview.status == 0)
        for command in ["timer", "list", "show", "watch", "pause", "resume", "cancel", "stop", "snooze"] {
            #expect(overview.stdout.contains("  \(command) "), "tocsin --help does not list \(command)")
            let help = try fixture.tocsin(command, "--help")
            #expect(help.status == 0, "\(command) --help: \(help)")
            #expect(help.stdout.hasPrefix("Usage: tocsin \(command)"), "\(command) --help: \(help.stdout)")
        }
        let agentHelp = try fixture.session.run(try AgentSession.binary("tocsind"), ["--help"])
        #expect(agentHelp.status == 0 && agentHelp.stdout.hasPrefix("Usage: tocsind"))
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
