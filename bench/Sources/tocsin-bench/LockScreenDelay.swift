import Foundation
import HeadlessSession

/// How soon a person sees a ringing alarm on a locked screen: from a timer's due time to
/// xscreensaver's black screen lit (its password dialog up: the agent wakes it), and to the
/// ringing alarm in Plasma 5.27's lock-screen media row (the greeter's controls shown by a
/// pointer moved just before, as a hand reaching for the mouse). Each sample locks the screen
/// anew, so that every sample starts from the same screen (xscreensaver's dialog stays up 27 s).
/// i3lock and swaylock show nothing of an alarm and have no display to wake: nothing to time.
///
/// Screenshots are taken one after another (about 0.2–0.5 s each, longer on a busy machine);
/// each figure is the moment the first screenshot that showed it was asked for, so it can be
/// early by up to one screenshot's time and late by up to the one before it.
enum LockScreenDelay {
    static let section = "Locked screen"

    /// Where xscreensaver 6.06 draws the left part of its password dialog at 1280×800, clear of
    /// dunst's bubbles (which it draws above the locked screen) in the top right corner.
    static let xscreensaverDialog = (x: 300...800, y: 280...520)
    /// Where Plasma 5.27's greeter draws its media row (title, artist, buttons) at 1280×800.
    static let plasmaMediaRow = (x: 480, y: 505, width: 320, height: 45)
    /// Where it draws the row's buttons (previous, play/pause, next), right of the title; the
    /// same strip LockedScreenTests finds its buttons in.
    static let plasmaMediaButtons = (x: 645, y: 516, width: 150, height: 24)

    static func figures(tools: BenchTools, samples: Int) throws -> [Figure] {
        var figures: [Figure] = []
        let label = "due → the ringing alarm in Plasma 5.27's lock-screen media row, its buttons lit (pointer moved before; \(samples) rings, a fresh lock each)"
        do {
            let (delays, notes) = try plasma(tools: tools, samples: samples)
            figures.append(.samples(delays, section: section, label: label, unit: "ms", note: notes.isEmpty ? nil : notes.joined(separator: "; "),
                                    emptyReason: notes.joined(separator: "; ")))
        } catch {
            figures.append(.notMeasured("\(error)", section: section, label: label, unit: "ms"))
        }
        let xLabel = "due → xscreensaver 6.06's black locked screen lit, its dialog up (\(samples) rings, a fresh lock each)"
        do {
            let (delays, notes) = try xscreensaver(tools: tools, samples: samples)
            figures.append(.samples(delays, section: section, label: xLabel, unit: "ms", note: notes.isEmpty ? nil : notes.joined(separator: "; "),
                                    emptyReason: notes.joined(separator: "; ")))
        } catch {
            figures.append(.notMeasured("\(error)", section: section, label: xLabel, unit: "ms"))
        }
        return figures
    }

    /// Plasma: lock, show the greeter's controls, start a 2 s timer, and take screenshots (the
    /// pointer nudged before each) until the media row's buttons are lit: they are drawn white
    /// while the alarm rings, and greyed while it only waits there (the row shows the timer as
    /// soon as it is set, on a locked Plasma screen); the row is then read to make sure it is
    /// the alarm's.
    static func plasma(tools: BenchTools, samples: Int) throws -> (delays: [Double], notes: [String]) {
        let session = try HeadlessSession(label: "bench-lock-plasma")
        defer { session.stop() }
        try startAgent(in: session, tools: tools)
        var delays: [Double] = [], notes: [String] = []
        for sample in 1...samples {
            let lock = try session.lockScreen(with: .plasma)
            defer { lock.unlock() }
            try session.movePointer(x: 300, y: 650)
            // The controls fade in after the move; the row's white before the ring is the baseline.
            Thread.sleep(forTimeInterval: 1.5)
            let before = try buttonsWhite(in: session)
            let title = "Bench \(sample)"
            let due = try startTimer(in: session, tools: tools, title: title)
            var shown: Date?, nudge = 0
            while shown == nil, Date() < due.addingTimeInterval(15) {
                // Moved a little before each screenshot, so the controls stay shown.
                nudge += 1
                try session.movePointer(x: 300 + nudge % 2 * 20, y: 650)
                let asked = Date()
                if try buttonsWhite(in: session) > before + 40 { shown = asked }
            }
            // Read while it still rings: stopped, the player leaves the bus and the row with it.
            let row = try session.readScreen(region: (x: plasmaMediaRow.x...(plasmaMediaRow.x + plasmaMediaRow.width),
                                                      y: plasmaMediaRow.y...(plasmaMediaRow.y + plasmaMediaRow.height)))
            _ = try? session.run(tools.tocsin, ["stop"])
            guard let shown else { notes.append("ring \(sample): the media row never changed within 15 s"); continue }
            guard row.contains(title) else { notes.append("ring \(sample): the row changed but read “\(row.description)”"); continue }
            delays.append(shown.timeIntervalSince(due) * 1000)
        }
        return (delays, notes)
    }

    /// xscreensaver: lock (a black screen), start a 2 s timer, take overviews until the dialog's
    /// part of the screen is lit.
    static func xscreensaver(tools: BenchTools, samples: Int) throws -> (delays: [Double], notes: [String]) {
        let session = try HeadlessSession(label: "bench-lock-xscreensaver")
        defer { session.stop() }
        try startAgent(in: session, tools: tools)
        var delays: [Double] = [], notes: [String] = []
        for sample in 1...samples {
            let lock = try session.lockScreen(with: .xscreensaver)
            defer { lock.unlock() }
            let due = try startTimer(in: session, tools: tools, title: "Bench \(sample)")
            var lit: Date?
            while lit == nil, Date() < due.addingTimeInterval(10) {
                let overview = try session.screenOverview()
                if overview.meanBrightness(x: xscreensaverDialog.x, y: xscreensaverDialog.y) > 60 { lit = overview.takenAt }
            }
            _ = try? session.run(tools.tocsin, ["stop"])
            guard let lit else { notes.append("ring \(sample): the screen stayed dark for 10 s after the due time"); continue }
            guard lit > due.addingTimeInterval(-0.5) else { notes.append("ring \(sample): the dialog was up before the ring"); continue }
            delays.append(lit.timeIntervalSince(due) * 1000)
        }
        return (delays, notes)
    }

    /// How many pixels of Plasma's media row's buttons are white now (lit: the alarm rings).
    static func buttonsWhite(in session: HeadlessSession) throws -> Int {
        let shot = session.directory.appendingPathComponent("logs/row.png")
        try session.screenshot(to: shot)
        let buttons = try session.pixels(of: shot, x: plasmaMediaButtons.x, y: plasmaMediaButtons.y, width: plasmaMediaButtons.width, height: plasmaMediaButtons.height)
        return buttons.count { ScreenPixels.brightness(of: $0) >= 245 }
    }

    /// Starts the release agent in `session` and waits until it answers.
    static func startAgent(in session: HeadlessSession, tools: BenchTools) throws {
        let agent = try session.launch(tools.tocsind, ["--state-dir", session.directory.appendingPathComponent("lock-state").path])
        let deadline = Date().addingTimeInterval(15)
        while (try? session.run(tools.tocsin, ["list"]))?.succeeded != true {
            guard Date() < deadline else { throw BenchError("the agent did not answer: \(agent.standardError())") }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// `tocsin timer 2s --title TITLE`, and when it is due (its fire-time).
    static func startTimer(in session: HeadlessSession, tools: BenchTools, title: String) throws -> Date {
        let timer = try session.run(tools.tocsin, ["timer", "2s", "--title", title])
        guard timer.succeeded else { throw BenchError("tocsin timer: \(timer)") }
        let id = timer.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let list = try session.run(tools.tocsin, ["list", "--json"])
        let alarms = (try? JSONSerialization.jsonObject(with: Data(list.stdout.utf8))) as? [[String: Any]] ?? []
        guard let fireTime = (alarms.first { $0["id"] as? String == id }?["fire-time"] as? NSNumber)?.doubleValue else {
            throw BenchError("no fire-time for the timer in tocsin list --json: \(list.stdout)")
        }
        return Date(timeIntervalSince1970: fireTime)
    }
}
