import Testing
@testable import TocsinCommandLine

/// The command-line parser: positionals, options with values, flags, and each mistake.
@Suite struct ParsedArgumentsTests {
    func parse(_ arguments: [String]) throws(CommandError) -> ParsedArguments {
        try ParsedArguments(arguments, command: "timer", options: ["--title", "--snooze"], flags: ["--json"])
    }

    /// The usage message `arguments` get, or `nil` when they parse.
    func mistake(_ arguments: [String]) -> String? {
        do throws(CommandError) {
            _ = try parse(arguments)
            return nil
        } catch {
            guard case .usage(let message, let command) = error, command == "timer" else { return "not a usage error of timer: \(error)" }
            return message
        }
    }

    @Test func readsPositionalsOptionsAndFlagsInAnyOrder() throws {
        let parsed = try parse(["--title", "Pasta", "3m", "--json", "--snooze=1m", "extra"])
        #expect(parsed.positionals == ["3m", "extra"])
        #expect(parsed.values == ["--title": "Pasta", "--snooze": "1m"])
        #expect(parsed.flags == ["--json"])
    }

    @Test func aValueMayStartWithADash() throws {
        #expect(try parse(["--title", "--json"]).values == ["--title": "--json"])
        #expect(try parse(["--title=-x"]).values == ["--title": "-x"])
    }

    @Test func everythingAfterADoubleDashIsPositional() throws {
        let parsed = try parse(["--", "--json", "-h"])
        #expect(parsed.positionals == ["--json", "-h"])
        #expect(parsed.flags.isEmpty)
    }

    /// "-5s" is left for the duration parser, which says it is negative.
    @Test func aNegativeNumberIsAPositional() throws {
        #expect(try parse(["-5s"]).positionals == ["-5s"])
        #expect(try parse(["-"]).positionals == ["-"])
    }

    @Test func eachMistakeIsAUsageErrorNamingTheOption() {
        #expect(mistake(["--frobnicate"]) == "Unknown option “--frobnicate” for “tocsin timer”.")
        #expect(mistake(["-x"]) == "Unknown option “-x” for “tocsin timer”.")
        #expect(mistake(["--title"]) == "--title needs a value.")
        #expect(mistake(["--title", "a", "--title", "b"]) == "--title is given twice.")
        #expect(mistake(["--json=yes"]) == "--json takes no value.")
        #expect(mistake(["--frob=1"]) == "Unknown option “--frob” for “tocsin timer”.")
    }

    @Test func expectedPositionalsNameWhatIsMissingOrExtra() throws {
        func check(_ positionals: [String]) -> String? {
            do throws(CommandError) {
                try parse(positionals).expectPositionals(["ID", "APP"], command: "timer")
                return nil
            } catch {
                return error.message
            }
        }
        #expect(check(["a", "b"]) == nil)
        #expect(check([]) == "Missing ID.\nSee “tocsin timer --help”.")
        #expect(check(["a"]) == "Missing APP.\nSee “tocsin timer --help”.")
        #expect(check(["a", "b", "c"]) == "Unexpected argument “c”.\nSee “tocsin timer --help”.")
    }
}
