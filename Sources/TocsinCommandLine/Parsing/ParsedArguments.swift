/// A small parser for `tocsin`'s command lines: positional arguments, `--option VALUE` (or
/// `--option=VALUE`) and `--flag`. Every mistake is a usage error naming the option.
struct ParsedArguments {
    /// Arguments that are not options, in order.
    var positionals: [String] = []
    /// The value of each option given.
    var values: [String: String] = [:]
    /// The flags given.
    var flags: Set<String> = []

    /// Parses `arguments` for `command`, which accepts `options` (taking a value) and `flags`.
    init(_ arguments: [String], command: String, options: Set<String> = [], flags: Set<String> = []) throws(CommandError) {
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            if argument == "--" {
                positionals += remaining
                break
            }
            // "-5s" is a (negative) duration, not an option: let the duration parser say so.
            guard argument.hasPrefix("-"), argument.count > 1, !argument.dropFirst().first!.isNumber else {
                positionals.append(argument)
                continue
            }
            let (name, inlineValue) = Self.split(argument)
            if flags.contains(name) {
                guard inlineValue == nil else { throw .usage("\(name) takes no value.", command: command) }
                self.flags.insert(name)
            } else if options.contains(name) {
                guard values[name] == nil else { throw .usage("\(name) is given twice.", command: command) }
                guard let value = inlineValue ?? remaining.popFirst() else {
                    throw .usage("\(name) needs a value.", command: command)
                }
                values[name] = value
            } else {
                throw .usage("Unknown option “\(name)” for “tocsin \(command)”.", command: command)
            }
        }
    }

    /// Exactly `count` positional arguments, or a usage error naming what they are.
    func expectPositionals(_ names: [String], command: String) throws(CommandError) {
        if positionals.count < names.count {
            throw .usage("Missing \(names[positionals.count]).", command: command)
        }
        if positionals.count > names.count {
            throw .usage("Unexpected argument “\(positionals[names.count])”.", command: command)
        }
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }
}
