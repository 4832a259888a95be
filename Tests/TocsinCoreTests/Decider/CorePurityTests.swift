import Foundation
import Testing

// TocsinCore decides; it reads no clock, no file, no environment and talks to no process.
// Those are the adapters' (TocsinFiles, TocsinAgent, TocsinKit, the command line). This reads
// TocsinCore's sources and fails on the first call that would do any of it.
@Suite("TocsinCore does no I/O")
struct CorePurityTests {
    /// Sources/TocsinCore, found from this file (Tests/TocsinCoreTests/Decider/).
    static let coreDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/TocsinCore")

    /// What a pure module does not touch, each with why it is I/O. A name counts only where it
    /// starts a word: `readDate()` is not `Date()`, `write(to: &bytes)` to a buffer is not a file.
    static let forbidden: [(pattern: String, why: String)] = [
        ("Date()", "reads the clock"), ("Date.now", "reads the clock"), ("clock_gettime", "reads the clock"),
        ("FileManager", "touches files"), ("Data(contentsOf", "reads a file"), ("String(contentsOf", "reads a file"),
        ("write(to: URL", "writes a file"), ("fopen(", "opens a file"), ("open(", "opens a file"),
        ("stat(", "looks at a file"), ("fsync(", "writes a file"), ("ProcessInfo", "reads the environment"),
        ("getenv(", "reads the environment"), ("g_dbus", "talks to D-Bus"), ("posix_spawn", "starts a process"),
        ("import Glibc", "reaches the C library's I/O"), ("import Foundation\n", "links all of Foundation"),
    ]

    /// Whether `code` has `pattern` where a word starts (not inside a longer name).
    static func mentions(_ code: String, _ pattern: String) -> Bool {
        var searchFrom = code.startIndex
        while let found = code.range(of: pattern, range: searchFrom..<code.endIndex) {
            if found.lowerBound == code.startIndex { return true }
            let before = code[code.index(before: found.lowerBound)]
            if !(before.isLetter || before.isNumber || before == "_") { return true }
            searchFrom = code.index(after: found.lowerBound)
        }
        return false
    }

    /// The Swift sources of TocsinCore, with their text.
    static func sources() throws -> [(name: String, text: String)] {
        let files = try #require(FileManager.default.enumerator(at: coreDirectory, includingPropertiesForKeys: nil))
        return try files.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.map { url in
            (url.path.replacingOccurrences(of: coreDirectory.path + "/", with: ""), try String(contentsOf: url, encoding: .utf8))
        }
    }

    /// `text` without its comments (`//` to the end of a line), where names are only mentioned.
    static func code(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            guard let comment = line.range(of: "//") else { return String(line) }
            return String(line[..<comment.lowerBound])
        }.joined(separator: "\n")
    }

    @Test("No source in TocsinCore reads the clock, a file or the environment, or talks to another process")
    func noIO() throws {
        let sources = try Self.sources()
        #expect(sources.count > 50, "found TocsinCore's sources at \(Self.coreDirectory.path)")
        for (name, text) in sources {
            let code = Self.code(text) + "\n"
            for (pattern, why) in Self.forbidden where Self.mentions(code, pattern) {
                Issue.record("\(name) has “\(pattern.trimmingCharacters(in: .whitespacesAndNewlines))”, which \(why)")
            }
        }
    }

    @Test("The check finds what it looks for")
    func checkFindsIO() {
        let tainted = "let now = Date()\nlet home = ProcessInfo.processInfo.environment[\"HOME\"] // FileManager in a comment\nreader.readDate()\n"
        let found = Self.forbidden.filter { Self.mentions(Self.code(tainted), $0.pattern) }.map(\.pattern)
        #expect(found == ["Date()", "ProcessInfo"])
        #expect(!Self.mentions("x.readDate()", "Date()") && Self.mentions("(Date())", "Date()"))
        #expect(Self.code("// Date() only mentioned\n").contains("Date()") == false)
    }
}
