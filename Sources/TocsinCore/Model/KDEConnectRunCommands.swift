import FoundationEssentials

/// The run commands KDE Connect offers a paired phone, as its desktop daemon keeps them: the
/// `commands` key of `[General]` in `$XDG_CONFIG_HOME/kdeconnect/DEVICE/kdeconnect_runcommand/config`
/// (a QSettings file), a JSON object of id → `{"name", "command"}`. `tocsin phone setup` adds
/// Tocsin's two — the phone's KDE Connect app then shows "Stop alarm" and "Snooze alarm" — and
/// `--remove` takes them away, leaving the user's own commands as they were.
public enum KDEConnectRunCommands {
    /// One run command: what the phone shows, and the shell command the desk runs.
    public struct Command: Codable, Equatable, Sendable {
        public var name: String
        public var command: String

        public init(name: String, command: String) {
            self.name = name
            self.command = command
        }
    }

    /// Tocsin's commands, by the ids they are kept under, for the `tocsin` at `executable`.
    public static func tocsinCommands(executable: String) -> [String: Command] {
        let program = shellQuoted(executable)
        return ["tocsin-stop": Command(name: "Stop alarm", command: "\(program) stop"),
                "tocsin-snooze": Command(name: "Snooze alarm", command: "\(program) snooze")]
    }

    /// The commands in a configuration file's `text`; none when it has no `commands`. Throws
    /// when `commands` is there but is not the JSON object KDE Connect writes.
    public static func commands(inConfiguration text: String) throws(StoreError) -> [String: Command] {
        guard let raw = generalValue("commands", in: text) else { return [:] }
        var value = raw
        if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = unescaped(String(value.dropFirst().dropLast())) }
        if value.hasPrefix("@ByteArray("), value.hasSuffix(")") { value = String(value.dropFirst("@ByteArray(".count).dropLast()) }
        if value.isEmpty { return [:] }
        do {
            return try JSONDecoder().decode([String: Command].self, from: Data(value.utf8))
        } catch {
            throw StoreError("its commands are not the list KDE Connect writes (\(error))")
        }
    }

    /// `text` with its `commands` set to `commands` (as KDE Connect writes them: a quoted
    /// `@ByteArray` of the JSON), every other line kept.
    public static func configuration(_ text: String, settingCommands commands: [String: Command]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = (try? encoder.encode(commands)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let line = "commands=\"@ByteArray(\(escaped(json)))\""
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last == "" { lines.removeLast() }
        guard let general = lines.firstIndex(of: "[General]") else {
            return (lines.isEmpty ? [] : lines + [""]).joined(separator: "\n") + (lines.isEmpty ? "" : "\n") + "[General]\n\(line)\n"
        }
        var index = general + 1
        while index < lines.count, !lines[index].hasPrefix("[") {
            if lines[index].hasPrefix("commands=") {
                lines[index] = line
                return lines.joined(separator: "\n") + "\n"
            }
            index += 1
        }
        lines.insert(line, at: general + 1)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `key`'s raw value in `[General]`.
    private static func generalValue(_ key: String, in text: String) -> String? {
        var inGeneral = false
        for line in text.split(separator: "\n") {
            let trimmed = String(line).trimmingSpaces()
            if trimmed.hasPrefix("[") { inGeneral = trimmed == "[General]"; continue }
            if inGeneral, trimmed.hasPrefix("\(key)=") { return String(trimmed.dropFirst(key.count + 1)) }
        }
        return nil
    }

    private static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            if character == "\\" || character == "\"" { result.append("\\") }
            result.append(character)
        }
        return result
    }

    private static func unescaped(_ text: String) -> String {
        var result = "", escaping = false
        for character in text {
            if escaping { result.append(character); escaping = false } else if character == "\\" { escaping = true } else { result.append(character) }
        }
        return result
    }

    /// `text` as one shell word.
    private static func shellQuoted(_ text: String) -> String {
        guard !text.allSatisfy({ $0.isLetter || $0.isNumber || "/._-+".contains($0) }) else { return text }
        var result = "'"
        for character in text { result += character == "'" ? "'\\''" : String(character) }
        return result + "'"
    }
}
