import Foundation
import Testing

// docs/ARCHITECTURE.md names the code a newcomer will look for; a name that no longer exists
// sends them nowhere. Every name in backticks there must be found in the sources.
@Suite struct ArchitectureDocumentTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// What the sources declare and name: types and their members (`struct`, `enum`, `case`,
    /// `func`…), the modules they import, the names they spell as strings (D-Bus members), every
    /// word of the Swift code (for parameter and member names), the targets and folders, and the
    /// text of the sources (for file names such as `alarms.json`).
    struct Code {
        var declared: Set<String> = []
        var words: Set<String> = []
        var text = ""
    }

    static func readCode() throws -> Code {
        var code = Code()
        let declaration = try Regex(#"\b(?:struct|class|enum|protocol|actor|typealias|case|func|var|let|extension)\s+([A-Za-z_][A-Za-z0-9_]*)"#)
        let word = try Regex(#"[A-Za-z_][A-Za-z0-9_]*"#)
        // Imported modules, and names the code spells as strings (D-Bus members: "Changed").
        let importedOrQuoted = try Regex(#"(?:\bimport\s+|")([A-Za-z][A-Za-z0-9]*)\b"#)
        for folder in ["Sources", "Tests", "bench"] {
            let files = try #require(FileManager.default.enumerator(at: repository.appendingPathComponent(folder), includingPropertiesForKeys: nil))
            for case let url as URL in files {
                if url.hasDirectoryPath { code.declared.insert(url.lastPathComponent); continue }
                code.declared.insert(url.deletingPathExtension().lastPathComponent)
                guard url.pathExtension == "swift", folder == "Sources" else { continue }
                let text = try String(contentsOf: url, encoding: .utf8)
                code.text += text
                for match in text.matches(of: declaration) { if let name = match.output[1].substring { code.declared.insert(String(name)) } }
                for match in text.matches(of: importedOrQuoted) { if let name = match.output[1].substring { code.declared.insert(String(name)) } }
                for match in text.matches(of: word) { code.words.insert(String(text[match.range])) }
            }
        }
        let manifests = try ["Package.swift", "Makefile"].map { try String(contentsOf: repository.appendingPathComponent($0), encoding: .utf8) }
        for manifest in manifests {
            code.text += manifest
            for match in manifest.matches(of: try Regex(#""([A-Za-z][A-Za-z0-9-]*)""#)) { if let name = match.output[1].substring { code.declared.insert(String(name)) } }
            for match in manifest.matches(of: try Regex(#"(?m)^([a-z][a-z-]*):"#)) { if let name = match.output[1].substring { code.declared.insert(String(name)) } }
        }
        return code
    }

    /// The names in `document`'s backticks that `code` does not have, each with its span.
    static func unknownNames(in document: String, code: Code) throws -> [String] {
        var unknown: [String] = []
        for match in document.matches(of: try Regex("`([^`]+)`")) {
            guard let span = match.output[1].substring.map(String.init) else { continue }
            // Paths and environment variables, D-Bus signatures: not names in the code.
            if span.hasPrefix("$") || span.hasPrefix("/") || span.contains("{") { continue }
            // A command line: its words are the user's, its program is checked by the CLI tests.
            if span.hasPrefix("tocsin ") || span.hasPrefix("make ") {
                if span.hasPrefix("make "), !code.declared.contains(String(span.dropFirst(5))) { unknown.append(span) }
                continue
            }
            // A file name: somewhere in the sources' text.
            if span.range(of: #"^[a-z]+\.[a-z]+$"#, options: .regularExpression) != nil {
                if !code.text.contains(span) { unknown.append(span) }
                continue
            }
            for name in span.matches(of: try Regex(#"[A-Za-z_][A-Za-z0-9_]*"#)).map({ String(span[$0.range]) }) {
                // A type or module must be declared; a member or parameter must appear in code.
                let found = name.first!.isUppercase ? code.declared.contains(name) : (code.words.contains(name) || code.declared.contains(name))
                if !found { unknown.append("\(name) (in “\(span)”)") }
            }
        }
        return unknown
    }

    @Test("Every name docs/ARCHITECTURE.md gives in backticks exists in the code")
    func namesExist() throws {
        let document = try String(contentsOf: Self.repository.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        let code = try Self.readCode()
        #expect(document.split(separator: "\n").count <= 100, "one page")
        let unknown = try Self.unknownNames(in: document, code: code)
        #expect(unknown.isEmpty, "not in the code: \(unknown.joined(separator: ", "))")
    }

    @Test("A renamed type, a vanished member, an unknown make target and a missing file name are caught")
    func driftIsCaught() throws {
        let code = try Self.readCode()
        let drifted = "`AlarmPlanner` then `AlarmDecider.decideEverything(now)` and `make check-everything`, saved in `alarms.yaml`; `AlarmDecider.decide(&state, input, now)` is fine."
        #expect(try Self.unknownNames(in: drifted, code: code) == [
            "AlarmPlanner (in “AlarmPlanner”)", "decideEverything (in “AlarmDecider.decideEverything(now)”)", "make check-everything", "alarms.yaml",
        ])
    }

    /// The targets Package.swift declares in Sources/ and bench/ (not the system libraries, the
    /// tests' and examples' own), each with its dependencies.
    static func packageTargets() throws -> [String: Set<String>] {
        let manifest = try String(contentsOf: repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declaration = try Regex(#"\.(?:target|executableTarget)\(name: "([^"]+)"(?:, dependencies: \[([^\]]*)\])?(?:, path: "([^"]+)")?"#)
        var targets: [String: Set<String>] = [:]
        for match in manifest.matches(of: declaration) {
            let name = String(match.output[1].substring!)
            if let path = match.output[3].substring, !path.hasPrefix("Sources/"), !path.hasPrefix("bench/") { continue }
            let dependencies = match.output[2].substring.map { list in
                Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) })
            } ?? []
            targets[name] = dependencies.subtracting([""])
        }
        return targets
    }

    /// The module table's rows: the modules each names first, and what they may import, with
    /// "the above" standing for every module of the rows before.
    static func moduleTable(in document: String) throws -> [(modules: Set<String>, mayImport: Set<String>)] {
        let section = try #require(document.components(separatedBy: "## Modules").dropFirst().first?.components(separatedBy: "\n## ").first)
        let name = try Regex("`([A-Za-z][A-Za-z0-9-]*)`")
        var rows: [(modules: Set<String>, mayImport: Set<String>)] = []
        var above: Set<String> = []
        for line in section.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard cells.count >= 4 else { continue }
            let modules = Set(cells[1].matches(of: name).map { String($0.output[1].substring!) })
            var allowed = Set(cells[3].matches(of: name).map { String($0.output[1].substring!) })
            if cells[3].contains("the above") { allowed.formUnion(above) }
            rows.append((modules, allowed.union(modules)))
            above.formUnion(modules)
        }
        return rows
    }

    @Test("The module table names every module of the package, and what each imports is what its row allows")
    func moduleTableAgreesWithThePackage() throws {
        let document = try String(contentsOf: Self.repository.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        let rows = try Self.moduleTable(in: document)
        let targets = try Self.packageTargets()
        #expect(targets.count > 10, "Package.swift read as \(targets)")
        for (target, dependencies) in targets.sorted(by: { $0.key < $1.key }) {
            guard let row = rows.first(where: { $0.modules.contains(target) }) else {
                Issue.record("\(target) has no row in the module table")
                continue
            }
            let beyond = dependencies.subtracting(row.mayImport)
            #expect(beyond.isEmpty, "\(target) depends on \(beyond.sorted()), which its row does not allow")
        }
    }
}
