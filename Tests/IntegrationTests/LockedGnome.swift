import Foundation
import HeadlessSession
import Testing

/// A GNOME Shell session (43, 48 or 50) with the agent, as GnomeLockScreenTests lock it: the
/// extension built for the release (or none), the shell's start-up banners gone, then the screen
/// locked and left alone until the lock screen has faded to black, as it does after Super+L.
/// What it reads of the screen afterwards, and when, are the tests' figures.
struct LockedGnome {
    let fixture: AgentSession
    let release: GnomeShellRelease

    /// A mean grey below this is a black screen: the faded lock screen reads 0.0 on 43 and 48.
    static let black = 0.01
    /// A mean grey above this is a lit one: the lock screen's blue reads about 0.15, a banner or
    /// the clock alone more than 0.02.
    static let lit = 0.05

    /// Starts the session, with Tocsin's extension enabled when `withExtension`.
    init(_ label: String, release: GnomeShellRelease, withExtension: Bool) throws {
        self.release = release
        let extensions = withExtension ? [try Self.buildExtension(for: release)] : []
        fixture = try AgentSession("\(label)-\(release)", notificationServer: .gnomeShell, gnomeShellRelease: release,
                                   gnomeShellExtensions: extensions)
        try GnomeDesktopTests.waitUntilTheAgentKnowsTheShell(fixture, release: release)
        if withExtension {
            let running = fixture.eventually(timeout: 15) {
                (try? fixture.session.run(URL(fileURLWithPath: "/usr/bin/gdbus"), ["call", "--session", "-d", "org.freedesktop.DBus", "-o", "/org/freedesktop/DBus",
                                                                                "-m", "org.freedesktop.DBus.NameHasOwner", "io.github.tocsin.Panel"]))?.stdout == "(true,)\n"
            }
            let errors = try fixture.session.run(URL(fileURLWithPath: "/usr/bin/busctl"), ["--user", "call", "org.gnome.Shell", "/org/gnome/Shell",
                                                                                         "org.gnome.Shell.Extensions", "GetExtensionErrors", "s", Self.uuid])
            try #require(running, "Tocsin's extension is not running: \(errors.stdout)")
        }
        try GnomeDesktopTests.letTheStartUpBannersGo(fixture)
    }

    static let uuid = "tocsin@tocsin.github.io"

    /// The extension as scripts/gnome-shell-extension builds it for `release` (43: the build
    /// for 43 and 44; 48: for 45 and later), in a directory of its own.
    static func buildExtension(for release: GnomeShellRelease) throws -> URL {
        let built = FileManager.default.temporaryDirectory.appendingPathComponent("tocsin-gnome-extension-\(UUID().uuidString)")
        let build = Process()
        build.executableURL = AgentSession.repository.appendingPathComponent("scripts/gnome-shell-extension")
        build.arguments = [release == .system ? "43" : "45", built.path]
        try build.run()
        build.waitUntilExit()
        try #require(build.terminationStatus == 0, "scripts/gnome-shell-extension failed")
        return built.appendingPathComponent(uuid)
    }

    var session: HeadlessSession { fixture.session }

    /// Locks the screen and waits until the lock screen has faded to black (after about a
    /// second). Nothing may move the pointer meanwhile: the shell lights the screen at the
    /// first motion.
    /// Returns when the black screenshot was taken.
    @discardableResult
    func lockAndWaitUntilBlack() throws -> Date {
        try session.lockScreen()
        var last = try session.screenBrightness()
        let dark = try fixture.eventually(timeout: 20) {
            last = try session.screenBrightness()
            return last.mean < Self.black
        }
        try #require(dark, "the locked screen did not go black: mean grey \(last.mean) (\(last.screenshot.path))")
        try #require(try session.isScreenLocked, "the screen is not locked")
        return last.takenAt
    }

    /// What the shell said of its screen saver since `date` (ActiveChanged, WakeUpScreen), with
    /// their times, for a message about a screen lit when it should not have been.
    func screenSaverSignals(since date: Date) -> String {
        let said = session.busSignals(named: nil).filter { $0.interface == "org.gnome.ScreenSaver" && $0.at >= date }
        return said.isEmpty ? "none" : said.map { "\($0.member)(\($0.arguments.joined(separator: ", "))) at \(Self.clock($0.at))" }.joined(separator: "; ")
    }

    /// `date` as hours to milliseconds, for messages.
    static func clock(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss.SSS"
        return formatter.string(from: date)
    }

    /// The first screenshot, from now on, whose mean grey says the screen is lit; `nil` when none
    /// within `timeout` seconds.
    func waitUntilLit(timeout: TimeInterval = 20) throws -> ScreenBrightness? {
        var found: ScreenBrightness?
        _ = try fixture.eventually(timeout: timeout) {
            let reading = try session.screenBrightness()
            if reading.mean > Self.lit { found = reading }
            return found != nil
        }
        return found
    }

    /// Reads the screen until `condition` holds for what it shows, for at most `timeout`; returns
    /// what was read and when its screenshot was taken (the moment before), or throws with the
    /// last reading.
    @discardableResult
    func waitForScreen(timeout: TimeInterval = 20, _ what: String, until condition: (ScreenText) -> Bool) throws -> (text: ScreenText, takenAt: Date) {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let takenAt = Date()
            let text = try session.readScreen()
            if condition(text) { return (text, takenAt) }
            guard Date() < deadline else { throw IntegrationError("the lock screen never showed \(what); it read:\n\(text)") }
            Thread.sleep(forTimeInterval: 0.2)
        }
    }

    /// When alarm `id` is due, as the agent says (`fire-time`).
    func dueTime(of id: String) throws -> Date {
        let alarm = try #require(try fixture.alarm(id), "no alarm \(id)")
        return Date(timeIntervalSince1970: try #require(alarm.number("fire-time"), "no fire-time in \(alarm)"))
    }

    /// The shell's `WakeUpScreen` signals seen after `date`.
    func wakeUpSignals(after date: Date) -> [BusSignal] {
        session.busSignals(named: "WakeUpScreen").filter { $0.interface == "org.gnome.ScreenSaver" && $0.at >= date }
    }

    /// Prints one figure in a form `bench/` collects ("lock-screen figure: …"), in milliseconds.
    func report(_ what: String, from start: Date, to end: Date) {
        let milliseconds = end.timeIntervalSince(start) * 1000
        print("lock-screen figure: GNOME \(release.version) \(what) \(String(format: "%.0f", milliseconds)) ms")
    }
}

extension ScreenText {
    /// The word `text` in a row of the lock screen's list that also holds the button `button`:
    /// the list's rows put the title left of the buttons, on one band of the screen. GNOME's own
    /// notification rows have no buttons, so this tells the extension's row from them.
    func word(_ text: String, inARowWith button: String) -> Word? {
        guard let button = word(button) else { return nil }
        return words.first { ($0.text == text || $0.text.trimmingCharacters(in: .punctuationCharacters) == text)
            && abs($0.center.y - button.center.y) < 30 && $0.left < button.left }
    }

    /// The time read right below `title` (a countdown's time left, "4:59"), if any.
    func time(below title: Word) -> String? {
        words.first { $0.text.wholeMatch(of: /\d{1,2}:\d{2}(:\d{2})?/) != nil && abs($0.left - title.left) < 25
            && $0.top > title.top && $0.top - title.top < 60 }?.text
    }
}
