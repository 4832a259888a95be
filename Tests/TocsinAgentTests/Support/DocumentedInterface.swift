import CGLib
import Foundation
import GLibSupport
import TocsinCore

/// `io.github.tocsin.Alarms1` as one source describes it — `AlarmsInterface`'s table, the
/// introspection XML in `dbus/`, or tocsind(1) — in one shape, so `InterfaceAgreementTests` can
/// compare the three and name what differs.
struct DocumentedInterface {
    /// A method as described: its arguments, its reply and the errors of its own.
    struct Method: Equatable, CustomStringConvertible {
        var inArguments: [AlarmsInterface.Argument] = []
        var outArguments: [AlarmsInterface.Argument] = []
        var errors: Set<AlarmsErrorName> = []

        var description: String {
            func list(_ arguments: [AlarmsInterface.Argument]) -> String {
                arguments.map { "\($0.signature) \($0.name)" }.joined(separator: ", ")
            }
            return "(\(list(inArguments))) -> (\(list(outArguments))), errors \(errors.map(\.rawValue).sorted())"
        }
    }

    /// A document that does not say what it should, or says it in a form this reader does not know.
    struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    var methods: [String: Method] = [:]
    var signals: [String: [AlarmsInterface.Argument]] = [:]
    /// The full D-Bus error names the document lists.
    var errorNames: Set<String> = []
    var errorsOfEveryMethod: Set<AlarmsErrorName> = []

    /// A description of nothing, to fill in.
    private init() {}

    /// What the source `name` says that `other` does not, one sentence per difference.
    func differences(from other: DocumentedInterface, _ name: String, _ otherName: String) -> [String] {
        var found: [String] = []
        for method in Set(methods.keys).union(other.methods.keys).sorted() where methods[method] != other.methods[method] {
            found.append("\(method): \(name) says \(methods[method].map(\.description) ?? "nothing"), \(otherName) \(other.methods[method].map(\.description) ?? "nothing")")
        }
        for signal in Set(signals.keys).union(other.signals.keys).sorted() where signals[signal] != other.signals[signal] {
            found.append("signal \(signal): \(name) says \(signals[signal].map { "\($0)" } ?? "nothing"), \(otherName) \(other.signals[signal].map { "\($0)" } ?? "nothing")")
        }
        if errorNames != other.errorNames {
            found.append("error names: \(name) says \(errorNames.sorted()), \(otherName) \(other.errorNames.sorted())")
        }
        if errorsOfEveryMethod != other.errorsOfEveryMethod {
            found.append("errors of every method: \(name) says \(errorsOfEveryMethod.map(\.rawValue).sorted()), \(otherName) \(other.errorsOfEveryMethod.map(\.rawValue).sorted())")
        }
        return found
    }

    // MARK: The table

    /// What `AlarmsInterface`'s table says.
    static var table: DocumentedInterface {
        var table = DocumentedInterface()
        for method in AlarmsMethod.allCases {
            table.methods[method.rawValue] = Method(inArguments: method.inArguments, outArguments: method.outArguments, errors: Set(method.errors))
        }
        for signal in AlarmsSignal.allCases {
            table.signals[signal.rawValue] = signal.arguments
        }
        table.errorNames = Set(AlarmsErrorName.allCases.map(\.dbusName))
        table.errorsOfEveryMethod = Set(AlarmsInterface.errorsOfEveryMethod)
        return table
    }

    // MARK: The introspection XML

    /// What `xml` says: the members as GIO reads them, the errors from the comments — each
    /// method's `Errors:` list in the comment before it, the error names and the errors of
    /// every method in the comment at the top.
    init(xml: String) throws {
        guard let node = try GLibError.check({ g_dbus_node_info_new_for_xml(xml, $0) }) else { throw Unreadable(description: "GIO read no node") }
        defer { g_dbus_node_info_unref(node) }
        guard let interface = g_dbus_node_info_lookup_interface(node, AlarmsInterface.name) else {
            throw Unreadable(description: "the XML has no \(AlarmsInterface.name)")
        }
        func arguments(_ list: UnsafeMutablePointer<UnsafeMutablePointer<GDBusArgInfo>?>?) -> [AlarmsInterface.Argument] {
            var found: [AlarmsInterface.Argument] = []
            while let argument = list?[found.count] {
                found.append(AlarmsInterface.Argument(name: String(cString: argument.pointee.name), signature: String(cString: argument.pointee.signature)))
            }
            return found
        }
        var index = 0
        while let method = interface.pointee.methods?[index] {
            methods[String(cString: method.pointee.name)] = Method(inArguments: arguments(method.pointee.in_args), outArguments: arguments(method.pointee.out_args))
            index += 1
        }
        index = 0
        while let signal = interface.pointee.signals?[index] {
            signals[String(cString: signal.pointee.name)] = arguments(signal.pointee.args)
            index += 1
        }
        let comments = try Self.matches(of: #"<!--(.*?)-->\s*(?:<(method|signal|node)(?:\s+name="(\w+)")?)?"#, in: xml)
        for comment in comments where comment[2] == "method" {
            guard let list = Self.list(after: "Errors:", in: comment[1]) else { continue }
            methods[comment[3], default: Method()].errors = try Self.errors(list, "the XML's \(comment[3])")
        }
        guard let top = comments.first(where: { $0[2] == "node" })?[1] else { throw Unreadable(description: "the XML has no comment before <node>") }
        errorNames = Set(try Self.matches(of: #"\bio\.github\.tocsin\.Error\.\w+"#, in: top).map { $0[0] })
        guard let every = Self.list(after: "Errors of every method:", in: top) else {
            throw Unreadable(description: "the XML's first comment has no “Errors of every method:”")
        }
        errorsOfEveryMethod = try Self.errors(every, "the XML's errors of every method")
    }

    // MARK: The man page

    /// What the "D-BUS INTERFACE" section of `manPage` says: under Methods and Signals, each
    /// `.TP` entry's `.B "Name(type name, …) \(-> (type name)"` line and its `Errors:` line;
    /// under Errors, each `.B` error name and the `Errors of every method:` line.
    init(manPage: String) throws {
        let lines = manPage.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: #".SH "D\-BUS INTERFACE""#) else {
            throw Unreadable(description: "the man page has no D-BUS INTERFACE section")
        }
        let section = lines[(start + 1)...].prefix { !$0.hasPrefix(".SH ") }
        var subsection = ""
        var entry: String?
        for (offset, line) in section.enumerated() {
            if line.hasPrefix(".SS ") {
                subsection = String(line.dropFirst(4))
                entry = nil
            } else if line == ".TP", let next = section.dropFirst(offset + 1).first, next.hasPrefix(".B ") {
                let title = String(next.dropFirst(3)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                switch subsection {
                case "Methods", "Signals":
                    guard let parsed = try Self.matches(of: #"^(\w+)\((.*?)\)(?: \\\(-> \((.*)\))?$"#, in: title).first else {
                        throw Unreadable(description: "the man page's “\(title)” is not Name(type name, …) \\(-> (type name)")
                    }
                    entry = parsed[1]
                    let inArguments = try Self.arguments(parsed[2]), outArguments = try Self.arguments(parsed[3])
                    if subsection == "Methods" {
                        methods[parsed[1]] = Method(inArguments: inArguments, outArguments: outArguments)
                    } else {
                        signals[parsed[1]] = inArguments
                    }
                case "Errors":
                    errorNames.insert(title)
                default:
                    throw Unreadable(description: "the man page's entry “\(title)” is under “\(subsection)”")
                }
            } else if subsection == "Methods", let method = entry, let list = Self.list(after: "Errors:", in: line) {
                methods[method]?.errors = try Self.errors(list, "the man page's \(method)")
            } else if subsection == "Errors", let list = Self.list(after: "Errors of every method:", in: line) {
                errorsOfEveryMethod = try Self.errors(list, "the man page's errors of every method")
            }
        }
    }

    /// `"a{sv} request, s id"` as arguments.
    private static func arguments(_ text: String) throws -> [AlarmsInterface.Argument] {
        guard !text.isEmpty else { return [] }
        return try text.components(separatedBy: ", ").map { argument in
            let parts = argument.split(separator: " ")
            guard parts.count == 2 else { throw Unreadable(description: "“\(argument)” is not “type name”") }
            return AlarmsInterface.Argument(name: String(parts[1]), signature: String(parts[0]))
        }
    }

    // MARK: Lists of errors

    /// The text after `marker` up to the first blank line (or the end), when `text` has it:
    /// a list such as "NotFound, InvalidState (not ringing), StorageFailed."
    private static func list(after marker: String, in text: String) -> String? {
        guard let range = text.range(of: marker) else { return nil }
        let rest = text[range.upperBound...]
        return String(rest.components(separatedBy: "\n\n").first ?? "")
    }

    /// The error names of `list`: its comma-separated items, each an error's short name, with
    /// what it says in parentheses left out. An item that is not a name throws, so a misspelt
    /// name in a document is a difference, not a word skipped.
    private static func errors(_ list: String, _ source: String) throws -> Set<AlarmsErrorName> {
        var plain = "", depth = 0
        for character in list {
            if character == "(" { depth += 1 } else if character == ")" { depth -= 1 } else if depth == 0 { plain.append(character) }
        }
        var found: Set<AlarmsErrorName> = []
        for item in plain.split(separator: ",") {
            let word = item.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: ".")))
            guard let name = AlarmsErrorName(rawValue: word) else {
                throw Unreadable(description: "\(source) lists “\(word)”, which is no error name")
            }
            found.insert(name)
        }
        return found
    }

    /// Each match of `pattern` in `text`, as its groups (group 0 the whole match; a group that
    /// took part in no match is "").
    private static func matches(of pattern: String, in text: String) throws -> [[String]] {
        let expression = try NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        return expression.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            (0..<match.numberOfRanges).map { group in
                Range(match.range(at: group), in: text).map { String(text[$0]) } ?? ""
            }
        }
    }
}
