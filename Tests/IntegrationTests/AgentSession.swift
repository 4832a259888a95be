import Foundation
import HeadlessSession
import Testing

/// A headless desktop session with the real `tocsind` running in it, and the real `tocsin` CLI to
/// talk to it: what every integration test starts from.
final class AgentSession {
    let session: HeadlessSession
    let stateDirectory: URL
    private(set) var agent: SessionProcess
    private let agentArguments: [String]
    private let agentEnvironment: [String: String]

    /// Starts a session with `notificationServer`, `soundServer` and the agent (with extra `agentArguments` and
    /// `agentEnvironment`), and waits until the agent answers.
    init(_ label: String, notificationServer: NotificationServerKind = .dunst, soundServer: SoundServerKind = .pulseAudio,
         agentArguments: [String] = [], agentEnvironment: [String: String] = [:], gnomeShellRelease: GnomeShellRelease = .system,
         gnomeShellExtensions: [URL] = [], swayRelease: SwayRelease = .system) throws {
        session = try HeadlessSession(label: label, baseEnvironment: Self.environmentWithTocsinsData, notificationServer: notificationServer,
                                      gnomeShellRelease: gnomeShellRelease, gnomeShellExtensions: gnomeShellExtensions, swayRelease: swayRelease,
                                      soundServer: soundServer)
        stateDirectory = session.directory.appendingPathComponent("tocsin-state")
        self.agentArguments = agentArguments
        self.agentEnvironment = agentEnvironment
        agent = try Self.startAgent(in: session, stateDirectory: stateDirectory, arguments: agentArguments, environment: agentEnvironment)
        try waitUntilAgentAnswers()
    }

    deinit {
        session.stop()
    }

    /// This process's environment with Tocsin's data, as `make install` puts it, first on
    /// XDG_DATA_DIRS: the servers then find the desktop entry and the icon every notification
    /// names (xfce4-notifyd draws a missing icon as a broken image).
    static var environmentWithTocsinsData: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        let data = installedData.path
        environment["XDG_DATA_DIRS"] = data + ":" + (environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share")
        return environment
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The repository's `data` as installed, in `.build/test-share`: the desktop entry with
    /// `@bindir@` made `.build/test-share/bin`, which holds the built `tocsind` and `tocsin`
    /// (hard links), the icons copied. Plasma and GLib (GNOME Shell) take a desktop entry whose
    /// `TryExec` does not exist for none: Plasma then neither draws Tocsin's icon nor keeps its
    /// notifications in the history, GNOME Shell neither names Tocsin nor keeps settings for it.
    /// The binaries sit inside the shared data directory because GNOME Shell 48 runs in a
    /// directory of its own that sees this one but not the build's.
    private static let installedData: URL = {
        let share = repository.appendingPathComponent(".build/test-share")
        let files = FileManager.default
        do {
            let bin = share.appendingPathComponent("bin")
            try? files.removeItem(at: share)
            try files.createDirectory(at: bin, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            try files.setAttributes([.posixPermissions: 0o755], ofItemAtPath: share.path)
            for program in ["tocsind", "tocsin"] {
                let built = try binary(program)
                do {
                    try files.linkItem(at: built, to: bin.appendingPathComponent(program))
                } catch {
                    try files.copyItem(at: built, to: bin.appendingPathComponent(program))
                }
            }
            let bindir = bin.path
            try files.createDirectory(at: share.appendingPathComponent("applications"), withIntermediateDirectories: true,
                                      attributes: [.posixPermissions: 0o755])
            let entry = "applications/io.github.tocsin.Agent.desktop"
            let text = try String(contentsOf: repository.appendingPathComponent("data/\(entry)"), encoding: .utf8)
            try text.replacingOccurrences(of: "@bindir@", with: bindir).write(to: share.appendingPathComponent(entry), atomically: true, encoding: .utf8)
            try files.setAttributes([.posixPermissions: 0o644], ofItemAtPath: share.appendingPathComponent(entry).path)
            // Copied, not linked: GNOME Shell 48 runs in a directory of its own that sees this
            // one but not the repository.
            try files.copyItem(at: repository.appendingPathComponent("data/icons"), to: share.appendingPathComponent("icons"))
            return share
        } catch {
            preconditionFailure("cannot install Tocsin's data for the servers into \(share.path): \(error)")
        }
    }()

    /// Starts the agent again (after a kill) and waits until it answers.
    func restartAgent() throws {
        agent = try Self.startAgent(in: session, stateDirectory: stateDirectory, arguments: agentArguments, environment: agentEnvironment)
        try waitUntilAgentAnswers()
    }

    /// Runs `tocsin` with `arguments` in the session.
    @discardableResult
    func tocsin(_ arguments: String...) throws -> CommandResult {
        try session.run(try Self.binary("tocsin"), arguments, timeout: .seconds(30))
    }

    /// Runs `tocsin` with `arguments` and extra environment variables (such as `TZ`).
    @discardableResult
    func tocsin(_ arguments: [String], environment: [String: String]) throws -> CommandResult {
        try session.run(try Self.binary("tocsin"), arguments, extraEnvironment: environment, timeout: .seconds(30))
    }

    /// `tocsin alarm …`, which must succeed; returns the new id.
    func setAlarm(_ arguments: String...) throws -> String {
        let result = try session.run(try Self.binary("tocsin"), ["alarm"] + arguments)
        try #require(result.status == 0, "tocsin alarm failed: \(result)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// An ISO 8601 instant `seconds` from now, as `tocsin alarm` reads it.
    static func instant(in seconds: TimeInterval, from now: Date = Date()) -> (date: Date, text: String) {
        let date = now.addingTimeInterval(seconds)
        return (date, date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }

    /// `tocsin timer …`, which must succeed; returns the new id.
    func startTimer(_ arguments: String...) throws -> String {
        let result = try session.run(try Self.binary("tocsin"), ["timer"] + arguments)
        try #require(result.status == 0, "tocsin timer failed: \(result)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every alarm as `tocsin list --json` describes it.
    func alarms() throws -> [[String: Any]] {
        let result = try tocsin("list", "--json")
        try #require(result.status == 0, "tocsin list failed: \(result)")
        return try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    }

    /// The alarm with `id` as `tocsin list --json` describes it, if it exists.
    func alarm(_ id: String) throws -> [String: Any]? {
        try alarms().first { $0["id"] as? String == id }
    }

    /// Everything the agent logged so far.
    var agentLog: String { agent.standardError() }

    /// How many connections watch the agent's signals (`watchers` in `tocsin status --json`).
    func watcherCount() throws -> Int {
        let result = try tocsin("status", "--json")
        try #require(result.status == 0, "tocsin status failed: \(result)")
        let status = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return try #require(status?["watchers"] as? Int, "no watcher count in \(result.stdout)")
    }

    /// Starts a watcher (`launch` starts it: `tocsin watch`, or one inside a sandbox) and returns
    /// once the agent counts it, so that no change made after this goes unseen by it.
    func startWatching(_ launch: () throws -> SessionProcess) throws -> SessionProcess {
        let before = try watcherCount()
        let watcher = try launch()
        guard try eventually(timeout: 10, { try watcherCount() > before }) else {
            throw IntegrationError("the agent did not count the new watcher within 10 s; its output: \(watcher.standardError())")
        }
        return watcher
    }

    /// `tocsin` with `arguments` (`watch`, `watch --json`), once the agent counts it as a watcher.
    func startWatching(_ arguments: String...) throws -> SessionProcess {
        try startWatching { try session.launch(try Self.binary("tocsin"), arguments) }
    }

    /// The notifications the agent sent with `summary`, in order.
    func notifications(titled summary: String) -> [ObservedNotification] {
        session.notifications().filter { $0.summary == summary }
    }

    /// Waits for a notification titled `summary` matching `predicate`.
    func waitForNotification(titled summary: String, timeout: Duration = .seconds(10), where predicate: @escaping (ObservedNotification) -> Bool = { _ in true }) throws -> ObservedNotification {
        try session.waitForNotification(timeout: timeout) { $0.summary == summary && predicate($0) }
    }

    /// Waits until `condition` holds, checking every 20 ms; false when `timeout` passed first.
    func eventually(timeout: TimeInterval = 10, _ condition: () throws -> Bool) rethrows -> Bool {
        try Self.eventually(timeout: timeout, condition)
    }

    /// `eventually(timeout:_:)`, for a test that runs a session of its own.
    static func eventually(timeout: TimeInterval = 10, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return try condition()
    }

    /// The built product `name`, next to the test bundle.
    static func binary(_ name: String) throws -> URL {
        let candidates = [
            Bundle.main.bundleURL,
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(".build/debug"),
        ].map { $0.appendingPathComponent(name) }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw IntegrationError("\(name) is not built; run “swift build” first (looked in \(candidates.map(\.path)))")
        }
        return found
    }

    private static func startAgent(in session: HeadlessSession, stateDirectory: URL, arguments: [String], environment: [String: String]) throws -> SessionProcess {
        try session.launch(try binary("tocsind"), ["--state-dir", stateDirectory.path] + arguments, extraEnvironment: environment)
    }

    private func waitUntilAgentAnswers() throws {
        let answered = try eventually(timeout: 10) {
            try tocsin("list").status == 0
        }
        guard answered else { throw IntegrationError("the agent did not answer within 10 s; its log:\n\(agentLog)") }
    }
}

/// A failure of the test set-up itself, with what went wrong.
struct IntegrationError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension ObservedNotification {
    /// The remaining seconds a countdown notification shows ("2:59 remaining" → 179), if any.
    var remainingSeconds: Int? {
        guard let match = body.firstMatch(of: /(\d+):(\d\d)(?::(\d\d))? remaining/) else { return nil }
        let fields = [match.1, match.2, match.3].compactMap { $0 }.compactMap { Int($0) }
        return fields.reduce(0) { $0 * 60 + $1 }
    }

    /// The labels of the notification's buttons, in order.
    var buttonLabels: [String] { actions.map(\.label) }
}

extension Dictionary where Key == String, Value == Any {
    /// A number field as a `Double`.
    func number(_ key: String) -> Double? { (self[key] as? NSNumber)?.doubleValue }
    /// A string field.
    func string(_ key: String) -> String? { self[key] as? String }
}
