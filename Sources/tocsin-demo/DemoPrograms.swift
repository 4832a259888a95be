import Foundation

/// The Tocsin programs the demo drives: the ones built next to it.
enum DemoPrograms {
    /// `tocsind`, `tocsin`… from the demo's own build directory.
    static func url(_ name: String) throws -> URL {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let url = directory.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw DemoError("\(name) is not built next to the demo (\(directory.path)); run “swift build” first.")
        }
        return url
    }
}

/// A failure that ends the demo, with what went wrong.
struct DemoError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The demo's voice: numbered steps and indented observations, flushed as they happen.
enum Narrator {
    private static let start = Date()

    /// A step the demo takes.
    static func step(_ text: String) {
        say("\n▶ \(text)")
    }

    /// Something observed: what the notification server received, what the sound server played.
    static func observe(_ source: String, _ text: String) {
        say(String(format: "  %6.2f s  [%@] %@", Date().timeIntervalSince(start), source, text))
    }

    /// Lines another program printed, indented under the step.
    static func quote(_ text: String) {
        say(text.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
    }

    private static func say(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }
}
