import Foundation
import HeadlessSession
import Testing

/// The output's raise is the user's choice (#34 item 5): `tocsin config raise-output no` reaches
/// the running agent, and an alarm's own `--ring-level` wins over it. Read on the session's
/// PulseAudio sink with pactl.
@Suite(.serialized) struct OutputRaiseChoiceTests {
    static let sink = "tocsin_null"

    /// pactl in the session, which must succeed; its standard output.
    static func pactl(_ fixture: AgentSession, _ arguments: String...) throws -> String {
        let result = try fixture.session.run(try HeadlessSession.executable("pactl"), arguments)
        try #require(result.status == 0, "pactl \(arguments.joined(separator: " ")): \(result)")
        return result.stdout
    }

    /// The sink's mute and its loudest channel's volume in percent, as pactl says them.
    static func output(_ fixture: AgentSession) throws -> (muted: Bool, percent: Int) {
        let mute = try pactl(fixture, "get-sink-mute", sink)
        let volume = try pactl(fixture, "get-sink-volume", sink)
        let percents = volume.matches(of: /(\d+)%/).compactMap { Int($0.1) }
        let loudest = try #require(percents.max(), "no volume in “\(volume)”")
        return (mute.contains("Mute: yes"), loudest)
    }

    /// `output(fixture)` for a message: "muted, 30 %".
    static func said(_ fixture: AgentSession) -> String {
        guard let output = try? output(fixture) else { return "pactl did not answer" }
        return (output.muted ? "muted, " : "") + "\(output.percent) %"
    }

    @Test func raiseOutputNoIsFollowedByTheRunningAgentAndAnAlarmsOwnLevelWinsOverIt() throws {
        let fixture = try AgentSession("raiseoff")
        _ = try Self.pactl(fixture, "set-sink-volume", Self.sink, "30%")
        _ = try Self.pactl(fixture, "set-sink-mute", Self.sink, "1")
        #expect(try Self.output(fixture) == (true, 30))

        // The default first: the ring unmutes the output and raises it to 70 %, so that what is
        // checked after raise-output no can fail.
        let raised = try fixture.startTimer("1s", "--title", "Raised")
        _ = try fixture.waitForNotification(titled: "Raised") { $0.urgency == 2 }
        #expect(try fixture.eventually(timeout: 5) { try Self.output(fixture) == (false, 70) },
                "the muted output was not raised with the default settings: \(Self.said(fixture)); log:\n\(fixture.agentLog)")
        #expect(try fixture.tocsin("stop", raised).status == 0)
        #expect(try fixture.eventually(timeout: 5) { try Self.output(fixture) == (true, 30) }, "not put back after Stop: \(Self.said(fixture))")

        let off = try fixture.tocsin("config", "raise-output", "no")
        #expect(off.status == 0 && off.stdout == "raise-output no\n", "\(off)")
        #expect(fixture.eventually(timeout: 5) { fixture.agentLog.contains("Ringing alarms leave the output as it is, even muted") },
                "the agent did not follow output.json; its log:\n\(fixture.agentLog)")
        let left = try fixture.startTimer("1s", "--title", "Left")
        _ = try fixture.waitForNotification(titled: "Left") { $0.urgency == 2 }
        // The raise above came within milliseconds of the ring; this leaves it ample time to.
        Thread.sleep(forTimeInterval: 1.5)
        #expect(try fixture.alarm(left)?.string("state") == "alerting", "it no longer rings: the check below proves nothing")
        #expect(try Self.output(fixture) == (true, 30), "raised with raise-output no: \(Self.said(fixture))")
        // The alert, as the notification server shows it, says so plainly.
        #expect(fixture.notifications(titled: "Left").last?.body.contains("The sound output is muted and this alarm does not raise it: it may not be heard.") == true,
                "the alert does not say the output is muted: \(String(describing: fixture.notifications(titled: "Left").last?.body))")
        #expect(try fixture.tocsin("stop", left).status == 0)

        // One alarm's own level, over the setting.
        let own = try fixture.startTimer("1s", "--title", "Own", "--ring-level", "50")
        _ = try fixture.waitForNotification(titled: "Own") { $0.urgency == 2 }
        #expect(try fixture.eventually(timeout: 5) { try Self.output(fixture) == (false, 50) },
                "--ring-level 50 did not raise the output with raise-output no: \(Self.said(fixture))")
        #expect(try fixture.tocsin("stop", own).status == 0)
        #expect(try fixture.eventually(timeout: 5) { try Self.output(fixture) == (true, 30) }, "not put back after Stop: \(Self.said(fixture))")
    }
}
