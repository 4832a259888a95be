import Foundation
import HeadlessSession

/// How soon a person sees an alarm that rings on a locked GNOME screen: from the due time to the
/// display lit, and to its title readable, on GNOME Shell 43 and 48. Measured two ways: with
/// Tocsin's extension in do-not-disturb, where only the extension lights the screen (its
/// WakeDisplay) and draws the title; and without it, out of do-not-disturb, where GNOME lights it
/// for the alert and its own lock-screen row shows the title.
///
/// Each ring needs a shell of its own: a lit lock screen stays lit here (no idle, no
/// gnome-settings-daemon to blank it), so one shell gives one black-to-lit moment. The screen is
/// locked, left until it is black, an alarm set a few seconds ahead rings, and from a second
/// before it is due screenshots are taken back to back; afterwards the first lit one (mean grey)
/// and the first whose text (OCR) holds the title give the figures. Each is the time its
/// screenshot was started, so it is late by at most one screenshot's time (printed in the notes).
enum GnomeLockScreenDelay {
    static let section = "The locked screen (GNOME Shell)"
    /// The alarm's title, a word tesseract reads whole.
    static let title = "Porridge"

    static func figures(tools: BenchTools, plan: BenchPlan) throws -> [Figure] {
        var figures: [Figure] = []
        for release in GnomeShellRelease.onX11 {
            let shell = release == .system ? "GNOME Shell 43" : "GNOME Shell 48"
            for withExtension in [true, false] {
                let how = withExtension ? "Tocsin's extension, do-not-disturb" : "no extension (GNOME's own row), banners on"
                var samples = Samples()
                for index in 0..<plan.gnomeLockScreenSamples {
                    do {
                        samples.add(try measure(release: release, withExtension: withExtension, tools: tools, index: index))
                    } catch {
                        samples.problems.append("\(error)")
                    }
                }
                let note = ([samples.intervalNote] + samples.problems).compactMap { $0 }.joined(separator: "; ")
                for (what, values) in [("due → WakeUpScreen on the bus", samples.wake), ("due → first lit screenshot", samples.lit),
                                       ("due → first screenshot with the title read", samples.title)] {
                    figures.append(Figure.samples(values, section: section, label: "\(what), \(shell), \(how) (\(values.count) ring(s), a shell each)",
                                                  unit: "ms", note: note.isEmpty ? nil : note,
                                                  emptyReason: samples.problems.isEmpty ? "never seen" : samples.problems.joined(separator: "; ")))
                }
            }
        }
        return figures
    }

    /// What the rings of one kind gave.
    private struct Samples {
        var wake: [Double] = [], lit: [Double] = [], title: [Double] = []
        var intervals: [Double] = []
        var problems: [String] = []

        mutating func add(_ ring: Ring) {
            if let wake = ring.wake { self.wake.append(wake) }
            if let lit = ring.lit { self.lit.append(lit) }
            if let title = ring.title { self.title.append(title) }
            intervals.append(ring.screenshotInterval)
        }

        var intervalNote: String? {
            intervals.isEmpty ? nil : "screenshots every \(String(format: "%.0f", intervals.reduce(0, +) / Double(intervals.count))) ms on average"
        }
    }

    /// One ring's delays, in ms from the due time.
    private struct Ring {
        var wake: Double?, lit: Double?, title: Double?
        var screenshotInterval: Double
    }

    private static func measure(release: GnomeShellRelease, withExtension: Bool, tools: BenchTools, index: Int) throws -> Ring {
        let extensions = withExtension ? [try buildExtension(for: release, packageDirectory: tools.packageDirectory)] : []
        defer { extensions.forEach { try? FileManager.default.removeItem(at: $0.deletingLastPathComponent()) } }
        let session = try HeadlessSession(label: "bench-lock-\(release)-\(index)", notificationServer: .gnomeShell, gnomeShellRelease: release,
                                          gnomeShellExtensions: extensions)
        defer { session.stop() }
        let state = session.directory.appendingPathComponent("tocsin-state")
        let agent = try session.launch(tools.tocsind, ["--state-dir", state.path])
        guard waitFor(timeout: 15, { (try? session.run(tools.tocsin, ["list"]))?.succeeded == true }) else {
            throw BenchError("the agent did not answer: \(agent.standardError())")
        }
        if withExtension {
            guard waitFor(timeout: 15, { (try? session.run(URL(fileURLWithPath: "/usr/bin/busctl"), ["--user", "status", "io.github.tocsin.Panel"]))?.succeeded == true }) else {
                throw BenchError("Tocsin's extension did not start in \(release)")
            }
            try session.setDoNotDisturb(true)
            // The shell reads it through dconf: wait until the setting reads back.
            guard waitFor(timeout: 10, { (try? session.run(URL(fileURLWithPath: "/usr/bin/gsettings"), ["get", "org.gnome.desktop.notifications", "show-banners"]))?.stdout == "false\n" }) else {
                throw BenchError("do-not-disturb did not take")
            }
        }
        try session.lockScreen()
        guard waitFor(timeout: 20, { ((try? session.screenBrightness())?.mean ?? 1) < 0.01 }) else {
            throw BenchError("the locked screen did not go black")
        }
        let due = Date().addingTimeInterval(5)
        let set = try session.run(tools.tocsin, ["alarm", due.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)), "--title", title])
        guard set.succeeded else { throw BenchError("tocsin alarm: \(set)") }

        // Back to back from a second before the due time, for 8 s.
        while Date() < due.addingTimeInterval(-1) { Thread.sleep(forTimeInterval: 0.02) }
        var shots: [(url: URL, takenAt: Date)] = []
        while Date() < due.addingTimeInterval(8) {
            let url = session.directory.appendingPathComponent("lock-burst-\(shots.count).png")
            let takenAt = Date()
            try session.screenshot(to: url)
            shots.append((url, takenAt))
        }
        _ = try? session.run(tools.tocsin, ["stop"])
        let milliseconds = { (date: Date) in date.timeIntervalSince(due) * 1000 }
        var ring = Ring(screenshotInterval: shots.count > 1 ? (shots.last!.takenAt.timeIntervalSince(shots.first!.takenAt) * 1000 / Double(shots.count - 1)) : 0)
        ring.wake = session.busSignals(named: "WakeUpScreen").first { $0.interface == "org.gnome.ScreenSaver" && $0.at > due.addingTimeInterval(-1) }.map { milliseconds($0.at) }
        guard let firstLit = try shots.firstIndex(where: { try session.meanGrey(of: $0.url) > 0.05 }) else { return ring }
        ring.lit = milliseconds(shots[firstLit].takenAt)
        // Once shown the title stays: the first screenshot that holds it is found by halving
        // (a reading takes about a second), after checking that the last one holds it at all.
        let holdsTitle = { (index: Int) in try session.read(screenshot: shots[index].url).word(title) != nil }
        guard try holdsTitle(shots.count - 1) else { return ring }
        var (low, high) = (firstLit, shots.count - 1)
        while low < high {
            let middle = (low + high) / 2
            if try holdsTitle(middle) { high = middle } else { low = middle + 1 }
        }
        ring.title = milliseconds(shots[low].takenAt)
        return ring
    }

    /// The extension as scripts/gnome-shell-extension builds it for `release`.
    private static func buildExtension(for release: GnomeShellRelease, packageDirectory: URL) throws -> URL {
        let built = FileManager.default.temporaryDirectory.appendingPathComponent("tocsin-bench-extension-\(UUID().uuidString)")
        let build = Process()
        build.executableURL = packageDirectory.appendingPathComponent("scripts/gnome-shell-extension")
        build.arguments = [release == .system ? "43" : "45", built.path]
        try build.run()
        build.waitUntilExit()
        guard build.terminationStatus == 0 else { throw BenchError("scripts/gnome-shell-extension failed") }
        return built.appendingPathComponent("tocsin@tocsin.github.io")
    }

    private static func waitFor(timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return condition()
    }
}
