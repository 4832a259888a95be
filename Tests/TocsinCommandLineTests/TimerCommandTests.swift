import Foundation
import Testing
@testable import TocsinCommandLine
import TocsinCore

/// `tocsin timer DURATION [options]`.
@Suite struct TimerCommandTests {
    @Test func startsATimerPrintsItsIDAndSaysWhenItRings() throws {
        let world = TestWorld()
        let run = world.run("timer", "3m", "--title", "Pasta")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "5eed0000-0000-4000-8000-000000000001\n")
        #expect(run.stderr == "“Pasta” rings in 3 min, at 08:03.\n")
        let request = try #require(world.agent?.scheduled.first)
        #expect(request.kind == .timer)
        #expect(request.duration == 180)
        #expect(request.title == "Pasta")
        #expect(request.schedule == nil)
        #expect(request.snoozeDuration == nil, "a timer offers Stop alone unless given --snooze")
    }

    @Test(arguments: [("90", 90.0), ("90s", 90), ("1h30m", 5400), ("1:30", 90), ("01:02:03", 3723)])
    func readsEveryDurationSpelling(_ text: String, _ seconds: TimeInterval) throws {
        let world = TestWorld()
        #expect(world.run("timer", text).status == 0)
        #expect(try #require(world.agent?.scheduled.first).duration == seconds)
    }

    @Test func theSharedOptionsReachTheRequest() throws {
        let world = TestWorld()
        let run = world.run("timer", "10m", "--snooze", "1m", "--button", "Again", "--sound", "bell", "--volume", "50%",
                            "--crescendo", "30s", "--ring-for", "2m", "--late-limit", "1h", "--phone-after", "45s",
                            "--on-fire", "echo fire", "--on-stop=echo stop")
        #expect(run.status == 0, "\(run.stderr)")
        let request = try #require(world.agent?.scheduled.first)
        #expect(request.snoozeDuration == 60)
        #expect(request.secondaryButtonLabel == "Again")
        #expect(request.sound == .themeEvent("bell"))
        #expect(request.volume == 0.5)
        #expect(request.crescendo == 30)
        #expect(request.ringLimit == 120)
        #expect(request.lateLimit == 3600)
        #expect(request.phone == .ring(after: 45))
        #expect(request.hooks[.fire] == "echo fire")
        #expect(request.hooks[.stop] == "echo stop")
        #expect(request.hooks[.snooze] == nil)
    }

    @Test func phoneFlagsChooseThePhoneRing() throws {
        func phone(_ arguments: String...) throws -> PhoneRingChoice? {
            let world = TestWorld()
            let run = world.run(["timer", "1m"] + arguments)
            #expect(run.status == 0, "\(run.stderr)")
            return try #require(world.agent?.scheduled.first).phone
        }
        #expect(try phone() == nil)
        #expect(try phone("--phone") == .ring(after: nil))
        #expect(try phone("--phone", "--phone-after", "2m") == .ring(after: 120))
        #expect(try phone("--no-phone") == .never)
    }

    @Test func outputFlagsChooseWhetherTheOutputIsRaised() throws {
        func outputRaise(_ arguments: String...) throws -> OutputRaiseChoice? {
            let world = TestWorld()
            let run = world.run(["timer", "1m"] + arguments)
            #expect(run.status == 0, "\(run.stderr)")
            return try #require(world.agent?.scheduled.first).outputRaise
        }
        #expect(try outputRaise() == nil, "as the agent's settings say")
        #expect(try outputRaise("--ring-level", "40") == .raise(toPercent: 40))
        #expect(try outputRaise("--ring-level", "100%") == .raise(toPercent: 100))
        #expect(try outputRaise("--ring-level=1") == .raise(toPercent: 1))
        #expect(try outputRaise("--no-raise") == .never)
    }

    @Test func aCustomButtonRunsItsHook() throws {
        let world = TestWorld()
        #expect(world.run("timer", "1m", "--button", "Next step", "--on-button", "next-step").status == 0)
        let request = try #require(world.agent?.scheduled.first)
        #expect(request.secondaryButtonLabel == "Next step")
        #expect(request.hooks[.secondary] == "next-step")
    }

    /// The end time said is the agent's, which may fall on the next minute from the one worked
    /// out here a moment before.
    @Test func saysTheEndTimeTheAgentKeeps() {
        let world = TestWorld()
        world.now = at(59)
        world.agent?.now = at(61)
        #expect(world.run("timer", "3m").stderr == "“Timer” rings in 3 min, at 08:04.\n")
    }

    @Test func writesTheTimeInTheTerminalsZoneAndLocale() {
        let world = TestWorld()
        world.timeZone = TimeZoneRules(secondsEast: -5 * 3600)
        world.localeIdentifier = "en_US.UTF-8"
        #expect(world.run("timer", "3m", "--title", "Pasta").stderr == "“Pasta” rings in 3 min, at 3:03 AM.\n")
    }

    static let mistakes: [([String], String)] = [
        ([], "Missing DURATION."),
        (["5x"], "DURATION: “5x” is not a duration. Try 90, 90s, 3m, 1h30m, 1:30 or 01:02:03."),
        (["-5s"], "DURATION: “-5s” is negative; a duration must be longer than zero."),
        (["0"], "The timer duration must be longer than zero (got 0 s)."),
        (["100000h"], "The timer duration 4166 d 16 h is too long; at most 366 d is accepted."),
        (["5m", "extra"], "Unexpected argument “extra”."),
        (["5m", "--frobnicate"], "Unknown option “--frobnicate” for “tocsin timer”."),
        (["5m", "--json"], "Unknown option “--json” for “tocsin timer”."),
        (["5m", "--title"], "--title needs a value."),
        (["5m", "--title", "a", "--title", "b"], "--title is given twice."),
        (["5m", "--no-snooze=yes"], "--no-snooze takes no value."),
        (["5m", "--snooze", "1m", "--no-snooze"], "--snooze and --no-snooze say opposite things; give one."),
        (["5m", "--snooze", "soon"], "--snooze: “soon” is not a duration. Try 90, 90s, 3m, 1h30m, 1:30 or 01:02:03."),
        (["5m", "--on-button", "true"], "--on-button needs --button LABEL to name the button."),
        (["5m", "--no-snooze", "--button", "Hi"], "--button names the Snooze button, and --no-snooze leaves it out."),
        (["5m", "--volume", "0"], "--volume takes a percentage from 1 to 100, not “0”."),
        (["5m", "--volume", "101"], "--volume takes a percentage from 1 to 100, not “101”."),
        (["5m", "--volume", "loud"], "--volume takes a percentage from 1 to 100, not “loud”."),
        (["5m", "--phone", "--no-phone"], "--phone and --no-phone say opposite things; give one."),
        (["5m", "--phone-after", "1m", "--no-phone"], "--phone-after says when to ring the phones, and --no-phone says never."),
        (["5m", "--ring-for", "5x"], "--ring-for: “5x” is not a duration. Try 90, 90s, 3m, 1h30m, 1:30 or 01:02:03."),
        (["5m", "--late-limit", "abc"], "--late-limit: “abc” is not a duration. Try 90, 90s, 3m, 1h30m, 1:30 or 01:02:03."),
        (["5m", "--crescendo", "1y"], "--crescendo: “1y” is not a duration. Try 90, 90s, 3m, 1h30m, 1:30 or 01:02:03."),
        (["5m", "--phone-after", "5x"], "--phone-after: “5x” is not a duration. Try 90, 90s, 3m, 1h30m, 1:30 or 01:02:03."),
        (["5m", "--ring-level", "0"], "--ring-level: “0” is not a percentage from 1 to 100."),
        (["5m", "--ring-level", "101"], "--ring-level: “101” is not a percentage from 1 to 100."),
        (["5m", "--ring-level", "loud"], "--ring-level: “loud” is not a percentage from 1 to 100."),
        (["5m", "--ring-level", "50.5"], "--ring-level: “50.5” is not a percentage from 1 to 100."),
        (["5m", "--ring-level"], "--ring-level needs a value."),
        (["5m", "--ring-level", "50", "--no-raise"], "--ring-level says how loud to raise the output, and --no-raise says never to."),
        (["5m", "--no-raise", "--ring-level", "loud"], "--ring-level says how loud to raise the output, and --no-raise says never to."),
        (["5m", "--no-raise=yes"], "--no-raise takes no value."),
    ]

    /// Each mistake is a usage error (exit 2) with its message, said before the agent is asked.
    @Test(arguments: mistakes)
    func eachMistakeIsAUsageError(_ arguments: [String], _ message: String) {
        let world = TestWorld()
        let run = world.run(["timer"] + arguments)
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == "tocsin: \(message)\nSee “tocsin timer --help”.\n")
        #expect(run.connections == 0)
    }

    @Test func withoutAnAgentItSaysSoAndExits3() {
        let world = TestWorld()
        world.agent = nil
        let run = world.run("timer", "3m")
        #expect(run.status == 3)
        #expect(run.stdout == "")
        #expect(run.stderr == "tocsin: There is no agent in this test.\n")
    }

    @Test func theAgentsRefusalExits1WithItsMessage() {
        let world = TestWorld()
        world.agent?.refusal = TocsinError(.limitReached, "The agent holds 1000 alarms already.")
        let run = world.run("timer", "3m")
        #expect(run.status == 1)
        #expect(run.stdout == "")
        #expect(run.stderr == "tocsin: The agent holds 1000 alarms already.\n")
    }
}
