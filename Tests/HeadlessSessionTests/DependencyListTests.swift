import Foundation
import Testing

/// packaging/dependencies is the one list of Debian packages; the Debian package's control file
/// and the README say the same thing in their own words. These tests hold them to the list.
@Suite struct DependencyListTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// The list's packages by purpose, in the file's order.
    static func listed() throws -> [String: [String]] {
        var purposes: [String: [String]] = [:]
        for line in try read("packaging/dependencies").split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: "#", maxSplits: 1)[0].split(whereSeparator: \.isWhitespace).map(String.init)
            guard !fields.isEmpty else { continue }
            try #require(fields.count == 2, "not “PURPOSE PACKAGE # why”: \(line)")
            purposes[fields[0], default: []].append(fields[1])
        }
        return purposes
    }

    /// The packages of a control-file field ("Build-Depends: a, b (>= 1), c | d"), without
    /// versions, alternatives and substitution variables; comments and continuation lines
    /// handled as dpkg reads them.
    static func controlField(_ name: String) throws -> [String] {
        let lines = try read("packaging/debian/control").split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("#") }
        guard let start = lines.firstIndex(where: { $0.hasPrefix("\(name):") }) else { return [] }
        var value = String(lines[start].dropFirst(name.count + 1))
        for line in lines[(start + 1)...] {
            guard line.first == " " || line.first == "\t" else { break }
            value += " " + line
        }
        return value.split(separator: ",").compactMap { entry in
            // "a (>= 1) | b" names a; a trailing comma leaves an empty entry.
            let first = entry.prefix { $0 != "|" && $0 != "(" }.trimmingCharacters(in: .whitespaces)
            return first.isEmpty || first.hasPrefix("${") ? nil : first
        }
    }

    @Test func everyPackageIsListedOnceForEachPurpose() throws {
        let purposes = try Self.listed()
        #expect(Set(purposes.keys) == ["build", "run", "deb", "headless", "screenshot", "package", "test", "bench", "gnome-48", "gtklock", "gnome-50"])
        for (purpose, packages) in purposes {
            #expect(Set(packages).count == packages.count, "\(purpose) names a package twice: \(packages)")
        }
        // A package of this system belongs to one purpose, so each list says why it is needed once
        // (the trees' purposes are other systems': sway is in both, gnome-shell in two trees).
        let trees: Set<String> = ["gnome-48", "gtklock", "gnome-50"]
        let system = purposes.filter { !trees.contains($0.key) }.flatMap(\.value)
        #expect(Set(system).count == system.count, "a package is in two purposes")
    }

    @Test func theDebianPackageBuildsWithTheBuildListAndDependsOnTheRunList() throws {
        let purposes = try Self.listed()
        #expect(Set(try Self.controlField("Build-Depends")) == Set(["debhelper-compat"] + (purposes["build"] ?? [])))
        #expect(Set(try Self.controlField("Depends")) == Set((purposes["run"] ?? []) + (purposes["deb"] ?? [])))
    }

    /// The README's list of what each command installs: "**purpose** `a` `b`" runs.
    @Test func theReadmeNamesWhatEachPurposeInstalls() throws {
        let readme = try Self.read("README.md")
        let purposes = try Self.listed()
        let run = try Regex(#"\*\*([a-z0-9-]+)\*\*((?:[\s,]+`[^`]+`)+)"#)
        var named: [String: [String]] = [:]
        for match in readme.matches(of: run) {
            let purpose = String(match.output[1].substring ?? "")
            let packages = (match.output[2].substring ?? "").split(separator: "`").enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) }
            guard purposes[purpose] != nil else { continue }
            #expect(named[purpose] == nil, "the README lists \(purpose) twice")
            named[purpose] = packages
        }
        for purpose in ["build", "run", "headless", "screenshot", "package", "test", "gnome-48", "gtklock", "gnome-50"] {
            #expect(named[purpose].map(Set.init) == purposes[purpose].map(Set.init), "README's \(purpose) differs from packaging/dependencies")
        }
    }

    /// The scripts install by purpose, never a package of their own.
    @Test func theScriptsInstallPurposesThatExist() throws {
        let purposes = try Self.listed()
        for script in ["scripts/demo", "scripts/test", "bench/run"] {
            let text = try Self.read(script)
            let calls = text.split(separator: "\n").filter { $0.contains("scripts/install-dependencies ") && !$0.hasPrefix("#") }
            #expect(!calls.isEmpty, "\(script) installs nothing")
            for call in calls {
                let range = try #require(call.range(of: "scripts/install-dependencies "))
                // The purposes named: the words up to a variable ("$needs") or the end of the command.
                let words = call[range.upperBound...].split(separator: " ").map(String.init)
                    .prefix { $0.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" } }
                for word in words {
                    #expect(purposes[word] != nil, "\(script) installs \(word), which is no purpose")
                }
            }
            #expect(!text.contains("apt-get install"), "\(script) installs packages of its own")
        }
        #expect(try Self.read("scripts/test").contains("install-dependencies build run headless screenshot package test gnome-48 gtklock gnome-50"))
    }
}
